//! A migrations directory as verify replays it: what `sql::history` says
//! the migration tool runs there, forward steps only, in the tool's order
//! (golang-migrate/popx up files by version, diesel `up.sql`, the
//! `-- migrate:up` section of a dbmate file, the `Up` part of goose…). The
//! lint and the replay then agree on which statements exist and how they
//! are numbered, so a recording's statements are the history's.
use super::Script;
use crate::read::Scope;
use crate::settings::Settings;
use crate::source::SourceFile;
use crate::sql::history;
use crate::workspace::Workspace;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The SQL files under `dir`, in name order. A link is followed only
/// where the scope admits it (a link out is an error naming it, not a
/// silent skip), a directory seen before (a link loop, `m/loop -> ..`) is
/// not walked again, and nothing is opened here (a FIFO is `read_text`'s).
fn walk(
    dir: &Path,
    shown: &Path,
    scope: &Scope,
    seen: &mut HashSet<PathBuf>,
    out: &mut Vec<PathBuf>,
) -> Result<(), String> {
    if !seen.insert(std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf())) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {}", shown.display(), crate::read::io_reason(&e)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        let name = shown.join(p.file_name().unwrap_or_default());
        let is_dir = if meta.file_type().is_symlink() {
            scope
                .check(&p)
                .map_err(|e| format!("{}: {e}", name.display()))?;
            p.is_dir()
        } else {
            meta.is_dir()
        };
        if is_dir {
            walk(&p, &name, scope, seen, out)?;
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
/// Every file is read like any input (`read::read_text`): inside `scope`,
/// a regular file, bounded, decoded; one that cannot be read stops verify
/// with its name rather than hang it (a FIFO) or grow it (`/dev/zero`).
pub fn up_scripts(
    dir: &Path,
    shown: &Path,
    product: &str,
    scope: &Scope,
) -> Result<Vec<Script>, String> {
    let mut paths = Vec::new();
    walk(dir, shown, scope, &mut HashSet::new(), &mut paths)?;
    let mut ws = Workspace::default();
    for p in &paths {
        let display = match p.strip_prefix(dir) {
            Ok(rel) => shown.join(rel).display().to_string(),
            Err(_) => p.display().to_string(),
        };
        let text = crate::read::read_text(p, crate::settings::DEFAULT_MAX_FILE_SIZE, scope)
            .map_err(|e| format!("{display}: {e}"))?;
        let src = SourceFile::new(display, p.clone(), &text);
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
        let s = up_scripts(&d, Path::new("m"), "postgresql", &Scope::new(&d, false)).unwrap();
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
        let s = up_scripts(&d, Path::new("m"), "postgresql", &Scope::new(&d, false)).unwrap();
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
