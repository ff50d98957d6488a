//! The name the CONCURRENTLY fix writes into an unnamed `CREATE INDEX` is
//! the one PostgreSQL gives it: each form is fixed by `platcheck fix`, and
//! the original statement run on the local PostgreSQL names its index the
//! same (a revert that drops the index by that name keeps working). Forms
//! whose name is not plain keep no name. The table is a temporary one, so
//! two runs of the suite at once (two checkouts on one machine) do not see
//! each other's indexes. Fails loudly without the server;
//! PLATCHECK_DB_TESTS=0 skips with a printed reason.
#[path = "verify_oracle/servers.rs"]
mod servers;
use std::process::Command;

const PG: &str = "version: 1\ntoday: 2026-11-30\nsql:\n  dialect: postgresql\n  version: \"15\"\n";
const TABLE: &str = "pc_fix_names_t";
/// Each built on its own table state (the index is dropped after): the
/// forms the fix names, and (last) forms it leaves unnamed.
const FORMS: &[(&str, bool)] = &[
    ("CREATE INDEX ON pc_fix_names_t (a)", true),
    (
        "CREATE INDEX ON pc_fix_names_t (a, b DESC NULLS LAST)",
        true,
    ),
    ("CREATE UNIQUE INDEX ON pc_fix_names_t (b)", true),
    // Unquoted names fold to lower case before PostgreSQL names the index.
    ("CREATE INDEX ON PC_FIX_NAMES_T (B, A)", true),
    (
        "CREATE INDEX ON pg_temp.pc_fix_names_t USING btree (b) WHERE a > 0",
        true,
    ),
    ("CREATE INDEX ON pc_fix_names_t (lower(c))", false),
    ("CREATE INDEX ON pc_fix_names_t (a) INCLUDE (b)", false),
];

/// The statement as `platcheck fix` rewrites it, in a file that runs
/// outside a transaction, on a table an earlier migration creates.
fn fixed(stmt: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("platcheck.yaml"), PG).unwrap();
    std::fs::create_dir_all(dir.join("migrations")).unwrap();
    std::fs::write(
        dir.join("migrations/001_base.sql"),
        format!("CREATE TABLE {TABLE} (a int, b int, c text);\n"),
    )
    .unwrap();
    let file = dir.join("migrations/002_idx.sql");
    std::fs::write(
        &file,
        format!("SET lock_timeout = '2s';\nSET statement_timeout = '15min';\n{stmt};\n"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(["fix", "."])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.code().is_some(), "{out:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    text.lines()
        .nth(2)
        .unwrap()
        .trim_end_matches(';')
        .to_string()
}

#[test]
fn the_name_fix_writes_is_the_one_postgresql_chooses() {
    let url = match servers::postgres() {
        servers::Server::Url(u) => u,
        servers::Server::Skip(why) => {
            println!("{why}");
            return;
        }
    };
    let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
    c.batch_execute(&format!("CREATE TEMP TABLE {TABLE} (a int, b int, c text)"))
        .unwrap();
    let mut seen = Vec::new();
    for (stmt, named) in FORMS {
        let after = fixed(stmt);
        let written = after
            .strip_prefix("CREATE INDEX CONCURRENTLY IF NOT EXISTS ")
            .or_else(|| after.strip_prefix("CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "))
            .and_then(|r| r.split(' ').next());
        assert_eq!(written.is_some(), *named, "{stmt} -> {after}");
        c.batch_execute(stmt).unwrap();
        let chosen: String = c
            .query_one(
                "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = $1::text::regclass",
                &[&TABLE],
            )
            .unwrap()
            .get(0);
        if let Some(w) = written {
            assert_eq!(w, chosen, "{stmt}");
        } else {
            assert!(after.starts_with("CREATE INDEX CONCURRENTLY ON"), "{after}");
        }
        c.batch_execute(&format!("DROP INDEX {chosen}")).unwrap();
        seen.push(chosen);
    }
    c.batch_execute(&format!("DROP TABLE {TABLE}")).unwrap();
    assert_eq!(seen.len(), FORMS.len());
}
