//! `platcheck probe examples/probe`, the built binary against the local
//! servers: exactly the seeded differences, no credential in any output
//! format, and the baseline and inline suppressions work as for `check`.
mod common;
#[path = "support/probe_scratch.rs"]
mod scratch;

use scratch::{MyScratch, PgScratch};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const SECRET: &str = "TopSecret-e2e-9f3";

struct Servers {
    pg: PgScratch,
    my: MyScratch,
}

fn servers() -> Servers {
    let root = common::root().join("examples/probe/seed");
    let pg_seed = std::fs::read_to_string(root.join("postgres.sql")).unwrap();
    let pg = PgScratch::new(
        "platcheck_probe_e2e",
        &[
            ("statement_timeout", "30s"),
            ("idle_in_transaction_session_timeout", "0"),
        ],
        &pg_seed,
    );
    let my_seed = std::fs::read_to_string(root.join("mariadb.sql")).unwrap();
    let statements: Vec<String> = my_seed
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n")
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let refs: Vec<&str> = statements.iter().map(String::as_str).collect();
    let my = MyScratch::new("platcheck_probe_e2e", &refs);
    Servers { pg, my }
}

/// The binary, with the example's variables set (a password in the
/// PostgreSQL URL: trust authentication ignores it, the output must too).
fn platcheck(s: &Servers, cwd: &Path, args: &[&str]) -> Output {
    let pg_url = format!("postgres://root:{SECRET}@127.0.0.1:5432/{}", s.pg.name);
    Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .args(args)
        .current_dir(cwd)
        .env("ORDERS_DB_URL", pg_url)
        .env("LEDGER_DB_URL", s.my.url())
        .env("DEDUP_REDIS_URL", format!("{}/8", scratch::REDIS))
        .env_remove("SEARCH_DB_URL")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn findings(out: &Output) -> Vec<(String, String)> {
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    let mut got: Vec<(String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap();
            let name = Path::new(file).file_stem().unwrap().to_string_lossy();
            (name.to_string(), f["rule"].as_str().unwrap().to_string())
        })
        .collect();
    got.sort();
    got
}

fn seeded() -> Vec<(String, String)> {
    let mut want: Vec<(String, String)> = [
        ("ledger-db", "PR002"),
        ("orders-db", "PR011"),
        ("orders-db", "PR012"),
        ("orders-db", "PR013"),
        ("orders-db", "PR014"),
        ("orders-db", "PR015"),
        ("orders-db", "PR016"),
        ("payment-capture", "PR021"),
        ("search-db", "PR001"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    want.sort();
    want
}

#[test]
fn probe_reports_exactly_the_seeded_differences_and_never_a_credential() {
    if scratch::skipped() {
        return;
    }
    let s = servers();
    let root = common::root();
    let out = platcheck(&s, &root, &["probe", "examples/probe", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(findings(&out), seeded());
    for format in [
        "human", "json", "sarif", "github", "gitlab", "junit", "gcc", "markdown", "html",
    ] {
        let out = platcheck(&s, &root, &["probe", "examples/probe", "--format", format]);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !all.contains(SECRET),
            "{format} prints the password:\n{all}"
        );
        // Markdown escapes the stars.
        assert!(
            all.contains("postgres://root:***@127.0.0.1") || all.contains(r"root:\*\*\*@127.0.0.1"),
            "{format}: the redacted URL is missing:\n{all}"
        );
    }
    // A refused connection's message is scrubbed too.
    let out = platcheck(
        &s,
        &root,
        &[
            "probe",
            "examples/probe",
            "--target",
            &format!("ledger-db=mysql://root:{SECRET}@127.0.0.1:1/x"),
        ],
    );
    let all = String::from_utf8_lossy(&out.stdout);
    assert!(all.contains("PR001") && !all.contains(SECRET), "{all}");
}

#[test]
fn probe_findings_take_a_baseline_and_inline_suppressions() {
    if scratch::skipped() {
        return;
    }
    let s = servers();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("probe");
    std::fs::create_dir_all(&dir).unwrap();
    common::copy_tree(&common::root().join("examples/probe"), &dir, None);
    let db = dir.join("contracts/clusters/orders-db.yaml");
    let text = std::fs::read_to_string(&db).unwrap().replace(
        "    max: 800\n",
        "    max: 800   # platcheck-ignore PR014: pool budget under review (until 2099-01-01)\n",
    );
    std::fs::write(&db, text).unwrap();
    let out = platcheck(&s, &dir, &["probe", "--format", "json"]);
    let mut want = seeded();
    want.retain(|(c, r)| !(c == "orders-db" && r == "PR014"));
    assert_eq!(findings(&out), want);
    // `check` does not run PR014, so its suppression is not "unused" there.
    let out = platcheck(&s, &dir, &["check", "--format", "json"]);
    assert!(
        !findings(&out).iter().any(|(_, r)| r == "PC010"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A baseline of the probe's findings hides them all on the next probe.
    let baseline = tmp.path().join("probe-baseline.json");
    let out = platcheck(
        &s,
        &dir,
        &["baseline", "write", "--probe", baseline.to_str().unwrap()],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&baseline).unwrap();
    assert!(text.contains("PR011") && !text.contains(SECRET), "{text}");
    let out = platcheck(
        &s,
        &dir,
        &[
            "probe",
            "--format",
            "json",
            "--baseline",
            baseline.to_str().unwrap(),
        ],
    );
    assert_eq!(findings(&out), Vec::<(String, String)>::new());
    assert_eq!(out.status.code(), Some(0));
}
