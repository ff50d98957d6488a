//! Plain ordered files (SQL exports of Alembic, Django, Rails, hand-kept
//! directories): the files in natural name order (`9_x` before `10_x`,
//! `v0.9/` before `v0.10/`). A file named as the undo of another one
//! (`0003_x.down.sql`, `0003_x_rollback.sql`, `down/0003_x.sql`,
//! `revert/x.sql` beside `deploy/x.sql`) is that step's down script.
use super::{Build, Input, Step, Unit, names};
use crate::catalog::RuleId;
use std::collections::HashMap;

/// Down markers in a file name; "strong" ones are never part of an
/// ordinary name (`.down.sql`), weak ones may be (`slow_down.sql`) and
/// count only when the matching up file exists.
const STRONG: &[&str] = &[".down", ".rollback", ".undo", ".revert"];
const WEAK: &[&str] = &[
    "_down",
    "-down",
    "_rollback",
    "-rollback",
    "_undo",
    "-undo",
    "_revert",
    "-revert",
];
const UPS: &[&str] = &[".up", "_up", "-up"];
const DOWN_DIRS: &[&str] = &["down", "downs", "rollback", "rollbacks", "revert", "undo"];
const UP_DIRS: &[&str] = &["up", "ups", "deploy"];

/// (key shared with the matching up file, strong?) when the path names a down script.
fn down_key(rel: &str) -> Option<(String, bool)> {
    let (dir, file) = rel.rsplit_once('/').map_or(("", rel), |(d, f)| (d, f));
    let stem = file.strip_suffix(".sql")?;
    let lower = stem.to_ascii_lowercase();
    if let Some((pre, last)) = dir.rsplit_once('/').map_or(Some(("", dir)), Some)
        && DOWN_DIRS.contains(&last.to_ascii_lowercase().as_str())
    {
        return Some((format!("{pre}//{stem}"), true));
    }
    if matches!(lower.as_str(), "down" | "rollback" | "undo" | "revert") {
        return Some((format!("{dir}/"), true));
    }
    for (list, strong) in [(STRONG, true), (WEAK, false)] {
        if let Some(m) = list.iter().find(|m| lower.ends_with(*m)) {
            return Some((format!("{dir}/{}", &stem[..stem.len() - m.len()]), strong));
        }
    }
    None
}

/// The key a down script of this up file would have.
fn up_key(rel: &str) -> String {
    let (dir, file) = rel.rsplit_once('/').map_or(("", rel), |(d, f)| (d, f));
    let stem = file.strip_suffix(".sql").unwrap_or(file);
    let lower = stem.to_ascii_lowercase();
    if let Some((pre, last)) = dir.rsplit_once('/').map_or(Some(("", dir)), Some)
        && UP_DIRS.contains(&last.to_ascii_lowercase().as_str())
    {
        return format!("{pre}//{stem}");
    }
    if lower == "up" {
        return format!("{dir}/");
    }
    match UPS.iter().find(|m| lower.ends_with(*m)) {
        Some(m) => format!("{dir}/{}", &stem[..stem.len() - m.len()]),
        None => format!("{dir}/{stem}"),
    }
}

pub fn read(b: &mut Build, mut inputs: Vec<Input>) {
    inputs.sort_by(|x, y| names::natural_cmp(&x.rel, &y.rel));
    let keys: HashMap<String, usize> = inputs
        .iter()
        .enumerate()
        .filter(|(_, i)| down_key(&i.rel).is_none_or(|(_, strong)| !strong))
        .map(|(n, i)| (up_key(&i.rel), n))
        .collect();
    let mut downs: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut is_down = vec![false; inputs.len()];
    for (n, inp) in inputs.iter().enumerate() {
        let Some((key, strong)) = down_key(&inp.rel) else {
            continue;
        };
        match keys.get(&key).filter(|&&u| u != n) {
            Some(&u) => {
                downs.entry(u).or_default().push(n);
                is_down[n] = true;
            }
            None if strong => {
                is_down[n] = true;
                b.file_problem(
                    RuleId::PC013,
                    inp,
                    format!(
                        "{} is named as a down script, but no up script of that name is among the checked files",
                        inp.rel
                    ),
                );
            }
            None => {}
        }
    }
    for (n, inp) in inputs.iter().enumerate() {
        if is_down[n] {
            continue;
        }
        let downs = downs
            .get(&n)
            .map(|ds| {
                ds.iter()
                    .map(|&d| Unit::whole(inputs[d].file, format!("down script {}", inputs[d].rel)))
                    .collect()
            })
            .unwrap_or_default();
        b.steps
            .push(Step::new(Unit::whole(inp.file, inp.rel.clone()), downs));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn down_names_pair_with_up_names() {
        assert_eq!(
            down_key("0003_x.down.sql").unwrap().0,
            up_key("0003_x.up.sql")
        );
        assert_eq!(down_key("0003_x.down.sql").unwrap().0, up_key("0003_x.sql"));
        assert_eq!(
            down_key("0003_x_rollback.sql").unwrap().0,
            up_key("0003_x.sql")
        );
        assert_eq!(down_key("revert/x.sql").unwrap().0, up_key("deploy/x.sql"));
        assert_eq!(down_key("a/down/x.sql").unwrap().0, up_key("a/up/x.sql"));
        assert_eq!(down_key("a/down.sql").unwrap().0, up_key("a/up.sql"));
        assert!(!down_key("0005_slow_down.sql").unwrap().1);
        assert!(down_key("0005_add.sql").is_none());
    }
}
