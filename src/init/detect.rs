//! Where an existing repository keeps its migrations and which tool runs
//! them, read from directory shapes: Flyway's `V1__x.sql`, golang-migrate's
//! `.up.sql`/`.down.sql`, diesel's version directories, goose/dbmate/
//! sql-migrate sections, Liquibase changelogs, `sqitch.plan`, Rails'
//! `db/migrate/*.rb`, Alembic's `versions/` beside `env.py`, Django's
//! `migrations/0001_*.py`.
use crate::sql::history::{self, Tool};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// Relative to the scaffolded directory, `/`-separated.
    pub dir: String,
    pub tool: Option<Tool>,
    pub files: usize,
}

/// Bytes of each SQL file read for directive lines: they sit at the top.
const HEAD: usize = 16 * 1024;

pub fn migrations(root: &Path) -> Vec<Detected> {
    // Per migration directory: votes per tool (None: plain SQL files).
    let mut votes: BTreeMap<String, BTreeMap<Option<&'static str>, usize>> = BTreeMap::new();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .max_depth(Some(8))
        .require_git(false)
        .filter_entry(|e| {
            !matches!(
                e.file_name().to_str(),
                Some("target" | "node_modules" | ".git" | "vendor" | ".venv" | "venv")
            )
        })
        .build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let parent = rel.parent().unwrap_or(Path::new(""));
        let parent_name = parent.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let dir = |p: &Path| p.to_string_lossy().replace('\\', "/");
        let mut vote = |d: String, tool: Option<Tool>| {
            *votes
                .entry(d)
                .or_default()
                .entry(tool.map(Tool::as_str))
                .or_default() += 1;
        };
        if name == "sqitch.plan" {
            vote(dir(parent), Some(Tool::Sqitch));
        } else if name.ends_with(".rb") && parent.ends_with("db/migrate") && starts_digit(name) {
            vote(dir(parent), Some(Tool::Rails));
        } else if name.ends_with(".py")
            && parent_name == "versions"
            && parent
                .parent()
                .is_some_and(|a| root.join(a).join("env.py").is_file())
        {
            vote(dir(parent), Some(Tool::Alembic));
        } else if name.ends_with(".py") && parent_name == "migrations" && starts_digit(name) {
            vote(dir(parent), Some(Tool::Django));
        } else if name.to_ascii_lowercase().ends_with(".sql") {
            let text = head(path);
            let tool = history::tool_of_file(parent_name, name, &text);
            let d = match tool {
                // diesel: the version directory's parent holds the history.
                Some(Tool::Diesel) => dir(parent.parent().unwrap_or(Path::new(""))),
                _ => dir(parent),
            };
            // Plain SQL counts only in a directory named for migrations.
            if tool.is_some() || d.contains("migrat") {
                vote(d, tool);
            }
        }
    }
    let mut out: Vec<Detected> = votes
        .into_iter()
        .map(|(dir, tools)| {
            let files = tools.values().sum();
            // The most common tool wins; plain files only when nothing else.
            let tool = tools
                .iter()
                .filter_map(|(t, n)| t.map(|t| (n, t)))
                .max_by_key(|(n, _)| **n)
                .and_then(|(_, t)| Tool::parse(t));
            Detected {
                dir: if dir.is_empty() { ".".into() } else { dir },
                tool,
                files,
            }
        })
        .collect();
    out.sort_by(|a, b| b.files.cmp(&a.files).then(a.dir.cmp(&b.dir)));
    out
}

fn starts_digit(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_digit())
}

fn head(path: &Path) -> String {
    use std::io::Read;
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(HEAD as u64).read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for f in files {
            let (path, text) = f.split_once('=').unwrap_or((f, ""));
            let p = d.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        d
    }

    fn first(files: &[&str]) -> (String, Option<&'static str>) {
        let d = tree(files);
        let found = migrations(d.path());
        let f = found.first().expect("a migration directory");
        (f.dir.clone(), f.tool.map(Tool::as_str))
    }

    #[test]
    fn directory_shapes_name_their_tool() {
        let cases: &[(&[&str], &str, Option<&str>)] = &[
            (
                &["db/migration/V1__init.sql", "db/migration/V2__more.sql"],
                "db/migration",
                Some("flyway"),
            ),
            (
                &["migrations/1_init.up.sql", "migrations/1_init.down.sql"],
                "migrations",
                Some("golang-migrate"),
            ),
            (
                &[
                    "migrations/2019-01-01-000000_init/up.sql",
                    "migrations/2019-01-01-000000_init/down.sql",
                ],
                "migrations",
                Some("diesel"),
            ),
            (
                &["db/migrations/20240101_init.sql=-- migrate:up\nCREATE TABLE t (id int);\n"],
                "db/migrations",
                Some("dbmate"),
            ),
            (
                &["sql/1.sql=-- +goose Up\nCREATE TABLE t (id int);\n"],
                "sql",
                Some("goose"),
            ),
            (
                &["db/migrate/20240101000000_create_users.rb"],
                "db/migrate",
                Some("rails"),
            ),
            (
                &["alembic/env.py", "alembic/versions/3f2a_init.py"],
                "alembic/versions",
                Some("alembic"),
            ),
            (
                &[
                    "shop/migrations/0001_initial.py",
                    "shop/migrations/__init__.py",
                ],
                "shop/migrations",
                Some("django"),
            ),
            (
                &["deploy/init.sql", "revert/init.sql", "sqitch.plan"],
                ".",
                Some("sqitch"),
            ),
            (&["migrations/001_init.sql"], "migrations", None),
        ];
        for (files, dir, tool) in cases {
            assert_eq!(first(files), (dir.to_string(), *tool), "{files:?}");
        }
    }

    #[test]
    fn sql_outside_a_migration_directory_is_not_a_history() {
        let d = tree(&["queries/report.sql", "README.md"]);
        assert!(migrations(d.path()).is_empty());
    }
}
