//! diesel: one directory per migration, `<version>_<name>/up.sql` and
//! `down.sql`, ordered by version (the name up to the first `_`, dashes
//! dropped); `metadata.toml` with `run_in_transaction = false` opts out of
//! the transaction diesel runs each migration in.
use super::{Build, Input, Step, Unit, names};
use crate::catalog::RuleId;
use std::collections::BTreeMap;

/// `2019-02-26-002946_create_user`, `00000000000000_diesel_initial_setup`.
pub fn is_migration_dir(name: &str) -> bool {
    let Some((v, rest)) = name.split_once('_') else {
        return false;
    };
    !rest.is_empty()
        && v.starts_with(|c: char| c.is_ascii_digit())
        && v.chars().all(|c| c.is_ascii_digit() || c == '-')
}

fn version(dir: &str) -> String {
    let last = dir.rsplit('/').next().unwrap_or(dir);
    last.split('_').next().unwrap_or("").replace('-', "")
}

/// `run_in_transaction = false` in a `metadata.toml`.
fn opts_out(text: &str) -> bool {
    names::lines(text).any(|(_, l)| {
        let l = l.split('#').next().unwrap_or("");
        let mut kv = l.splitn(2, '=');
        let (k, v) = (
            kv.next().unwrap_or("").trim(),
            kv.next().unwrap_or("").trim(),
        );
        k == "run_in_transaction" && v == "false"
    })
}

/// One migration directory: its path below the group, its up.sql and down.sql.
type MigrationDir<'a> = (String, Option<Input<'a>>, Option<Input<'a>>);

pub fn read(b: &mut Build, inputs: Vec<Input>, metas: &[Input]) {
    // version → the directories with that version
    let mut dirs: BTreeMap<String, Vec<MigrationDir>> = BTreeMap::new();
    for inp in inputs {
        let dir = inp.dir().to_string();
        let last = dir.rsplit('/').next().unwrap_or("");
        let is_up = inp.name == "up.sql";
        if !(is_up || inp.name == "down.sql") || !is_migration_dir(last) {
            b.file_problem(
                RuleId::PC015,
                &inp,
                format!(
                    "{} is not a diesel migration (`<version>_<name>/up.sql` or `down.sql`): diesel does not run it",
                    inp.rel
                ),
            );
            continue;
        }
        let entries = dirs.entry(version(&dir)).or_default();
        let at = match entries.iter().position(|e| e.0 == dir) {
            Some(i) => i,
            None => {
                entries.push((dir.clone(), None, None));
                entries.len() - 1
            }
        };
        if is_up {
            entries[at].1 = Some(inp);
        } else {
            entries[at].2 = Some(inp);
        }
    }
    for (v, entries) in dirs {
        let mut seen: Option<String> = None;
        for (dir, up, down) in entries {
            let no_tx = metas
                .iter()
                .any(|m| m.name == "metadata.toml" && m.dir() == dir && opts_out(m.text));
            let Some(up) = up else {
                if let Some(down) = down {
                    b.file_problem(
                        RuleId::PC013,
                        &down,
                        format!(
                            "{dir}/ has a down.sql but no up.sql: diesel never runs the step it would undo"
                        ),
                    );
                }
                continue;
            };
            if let Some(first) = &seen {
                b.file_problem(
                    RuleId::PC014,
                    &up,
                    format!(
                        "version {v} is also {first}/: diesel records migrations by version, so it runs only one of them"
                    ),
                );
                continue;
            }
            seen = Some(dir.clone());
            let mut u = Unit::whole(up.file, up.rel.clone());
            u.no_tx = no_tx;
            let downs = down
                .map(|d| {
                    let mut du = Unit::whole(d.file, "down.sql");
                    du.no_tx = no_tx;
                    du
                })
                .into_iter()
                .collect();
            b.steps.push(Step::new(u, downs));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migration_dirs_and_versions() {
        assert!(is_migration_dir("2019-02-26-002946_create_user"));
        assert!(is_migration_dir("00000000000000_diesel_initial_setup"));
        assert!(!is_migration_dir("migrations"));
        assert!(!is_migration_dir("v0.4"));
        assert_eq!(version("2019-02-26-002946_create_user"), "20190226002946");
        assert!(opts_out("run_in_transaction = false\n"));
        assert!(!opts_out("# run_in_transaction = false\n"));
    }
}
