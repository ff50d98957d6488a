//! The MG fixtures as oracle cases: each fixture's statements replayed on
//! top of the schema the fixtures assume (`tests/verify_oracle/world_*.sql`).
use platcheck::sql::ops::{Alter, Op};
use platcheck::sql::verify::{Run, Script, analyse};
use platcheck::sql::{Dialect, Version};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Postgres,
    MariaDb,
}

impl Kind {
    fn dialect(self) -> (Dialect, Version) {
        match self {
            Kind::Postgres => (Dialect::Postgres, Version(15, 0, 0)),
            Kind::MariaDb => (Dialect::MariaDb, Version(10, 11, 0)),
        }
    }
    fn world(self) -> &'static str {
        match self {
            Kind::Postgres => include_str!("world_pg.sql"),
            Kind::MariaDb => include_str!("world_mariadb.sql"),
        }
    }
}

/// Statements the server refuses for a reason outside the lock table: the
/// fixture names something a scratch database cannot have. Each is listed
/// with why; any other refusal fails the test.
const EXPECTED_REFUSALS: &[(&str, &str, &str)] = &[(
    "MG020/bad",
    "SET TABLESPACE fast_ssd",
    "a tablespace is a directory on the server host; a scratch database has none",
)];

pub struct Case {
    pub scripts: Vec<Script>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sql_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sql_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "sql") {
            out.push(p);
        }
    }
}

/// Every MG rule's bad and good fixture of this server kind. MG900's own
/// fixtures are recordings of a disagreement by design, so they are left out.
pub fn fixtures(kind: Kind) -> Vec<Case> {
    let base = root().join("tests/fixtures/mg");
    let mut rules: Vec<PathBuf> = std::fs::read_dir(&base)
        .expect("tests/fixtures/mg")
        .map(|e| e.expect("dir entry").path())
        .collect();
    rules.sort();
    let mut out = Vec::new();
    for rule in rules {
        let id = rule.file_name().unwrap().to_string_lossy().to_string();
        let mysql = id.starts_with("MG1");
        if id == "MG900" || mysql != (kind == Kind::MariaDb) {
            continue;
        }
        for which in ["bad", "good"] {
            let mut files = Vec::new();
            let dir = rule.join(which);
            if dir.is_dir() {
                sql_under(&dir, &mut files);
            } else if rule.join(format!("{which}.sql")).is_file() {
                files.push(rule.join(format!("{which}.sql")));
            } else {
                // A rule about a contract (MG108): no SQL to replay.
                continue;
            }
            let scripts = files
                .iter()
                .map(|f| Script {
                    name: f.strip_prefix(&base).unwrap().display().to_string(),
                    text: std::fs::read_to_string(f).unwrap(),
                })
                .collect();
            out.push(Case { scripts });
        }
    }
    out
}

/// Names of the objects (tables, indexes, views, types, constraints) a
/// statement creates.
fn creates(op: &Op) -> Vec<String> {
    match op {
        Op::CreateTable { name, .. } | Op::CreateView { name, .. } | Op::CreateType { name } => {
            vec![name.name.clone()]
        }
        Op::CreateIndex { name: Some(n), .. } => vec![n.clone()],
        Op::AlterTable { actions, .. } => actions
            .iter()
            .filter_map(|a| match a {
                Alter::AddConstraint(c) => c.name.clone(),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The world, minus what the fixture creates itself (it would collide).
pub fn setup(kind: Kind, fixture: &[Script]) -> Vec<Script> {
    let (dialect, version) = kind.dialect();
    let own: BTreeSet<String> = analyse(fixture, dialect, version)
        .iter()
        .flat_map(|fa| {
            fa.stmts
                .iter()
                .filter_map(|s| s.op.as_ref())
                .flat_map(creates)
        })
        .collect();
    let world = kind.world();
    let mut text = String::new();
    for fa in analyse(
        &[Script {
            name: "world".into(),
            text: world.to_string(),
        }],
        dialect,
        version,
    ) {
        for st in &fa.stmts {
            // Leave out what the fixture creates, and what builds on it
            // (a partition of a table the fixture defines differently).
            let clash = st
                .op
                .as_ref()
                .is_some_and(|op| creates(op).iter().any(|n| own.contains(n)))
                || st.effects.iter().any(|e| {
                    e.table
                        .iter()
                        .chain(&e.other)
                        .any(|t| own.contains(&t.name))
                });
            if !clash {
                text.push_str(&world[st.span.start..st.span.end]);
                text.push_str(";\n");
            }
        }
    }
    vec![Script {
        name: "world".into(),
        text,
    }]
}

pub fn drop_expected_refusals(mut run: Run, failures: &mut Vec<String>) -> Run {
    run.statements.retain(|r| {
        let expected = EXPECTED_REFUSALS
            .iter()
            .any(|(f, s, _)| r.file.starts_with(f) && r.statement.contains(s));
        if expected && r.observed.error.is_none() {
            failures.push(format!(
                "{}: listed as refused, but the server ran it; update EXPECTED_REFUSALS",
                r.file
            ));
        }
        !(expected && r.observed.error.is_some())
    });
    run
}

/// One form of `forms_pg.sql` / `forms_mariadb.sql`: its name and script.
pub struct Form {
    pub name: String,
    pub script: Script,
}

/// The forms of a `-- form: <name>` file, in order.
pub fn forms(kind: Kind) -> Vec<Form> {
    let (file, text) = match kind {
        Kind::Postgres => ("forms_pg.sql", include_str!("forms_pg.sql")),
        Kind::MariaDb => ("forms_mariadb.sql", include_str!("forms_mariadb.sql")),
    };
    let mut out: Vec<Form> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("-- form: ") {
            out.push(Form {
                name: name.trim().to_string(),
                script: Script {
                    name: format!("{file}: {}", name.trim()),
                    text: String::new(),
                },
            });
        } else if let Some(f) = out.last_mut() {
            f.script.text.push_str(line);
            f.script.text.push('\n');
        }
    }
    out
}
