//! A migrations directory as verify replays it: what `sql::history` says
//! the migration tool runs there, forward steps only, in the tool's order
//! (golang-migrate/popx up files by version, diesel `up.sql`, the
//! `-- migrate:up` section of a dbmate file, the `Up` part of goose…). The
//! lint and the replay then agree on which statements exist and how they
//! are numbered, so a recording's statements are the history's.
use super::Script;
use crate::settings::Settings;
use crate::source::SourceFile;
use crate::sql::history;
use crate::workspace::Workspace;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out)?;
        } else if crate::discover::classify(&p) == Some(crate::source::FileClass::Sql) {
            out.push(p);
        }
    }
    Ok(())
}

/// The unit's statements at their own lines: everything of the file
/// outside the unit is blanked (newlines kept), so a statement's line and
/// position in the script are its line and position in the history.
fn unit_text(full: &str, unit: &history::Unit) -> String {
    let (base, text) = unit.window(full);
    let mut out: String = full[..base]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    out.push_str(&text);
    out
}

/// The forward scripts of every migration history under `dir`, for a
/// server of `product` (`postgresql`, `mysql`, `mariadb`: it picks the
/// dialect-named files popx and Synapse keep side by side).
pub fn up_scripts(dir: &Path, shown: &Path, product: &str) -> Result<Vec<Script>, String> {
    let mut paths = Vec::new();
    walk(dir, &mut paths).map_err(|e| format!("{}: {e}", shown.display()))?;
    let mut ws = Workspace::default();
    for p in &paths {
        let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let display = match p.strip_prefix(dir) {
            Ok(rel) => shown.join(rel).display().to_string(),
            Err(_) => p.display().to_string(),
        };
        let src = SourceFile::new(display, p.clone(), &String::from_utf8_lossy(&bytes));
        let i = ws.add_file(src, Some(crate::source::FileClass::Sql));
        ws.sql.push(i);
    }
    let mut settings = Settings::defaults(dir.to_path_buf());
    settings.sql.dialect = product.to_string();
    let hist = history::plan(&ws, &settings);
    let mut out = Vec::new();
    for g in &hist.groups {
        for step in &g.steps {
            let src = &ws.files[step.up.file];
            out.push(Script {
                name: src.display.clone(),
                text: unit_text(&src.text, &step.up),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pc-verify-hist-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn dbmate_down_sections_are_not_replayed() {
        let d = tmp("dbmate");
        std::fs::write(
            d.join("20240101000000_a.sql"),
            "-- migrate:up\nCREATE TABLE a (id int);\n\n-- migrate:down\nDROP TABLE a;\n",
        )
        .unwrap();
        let s = up_scripts(&d, Path::new("m"), "postgresql").unwrap();
        assert_eq!(s.len(), 1);
        assert!(s[0].text.contains("CREATE TABLE a"));
        assert!(!s[0].text.contains("DROP TABLE"));
        // The statement stays on its own line of the file.
        assert_eq!(s[0].text.lines().nth(1), Some("CREATE TABLE a (id int);"));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn popx_ups_in_the_tools_order_for_the_servers_dialect() {
        let d = tmp("popx");
        for (n, t) in [
            (
                "20240201000000000000_b.postgres.up.sql",
                "CREATE TABLE b (id int);",
            ),
            (
                "20240101000000000000_a.postgres.up.sql",
                "CREATE TABLE a (id int);",
            ),
            ("20240101000000000000_a.postgres.down.sql", "DROP TABLE a;"),
            (
                "20240101000000000000_a.mysql.up.sql",
                "CREATE TABLE a (id int) ENGINE=InnoDB;",
            ),
        ] {
            std::fs::write(d.join(n), t).unwrap();
        }
        let s = up_scripts(&d, Path::new("m"), "postgresql").unwrap();
        let names: Vec<&str> = s.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "m/20240101000000000000_a.postgres.up.sql",
                "m/20240201000000000000_b.postgres.up.sql"
            ]
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
