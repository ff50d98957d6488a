//! Every entry point checks with the whole repository as context: named
//! files (a pre-commit hook's, an action's `paths:`, one file on the command
//! line) are reported on, but the workspace is loaded from the config's
//! directory, so clusters, cross-file rules and the migration history see
//! everything.
mod common;
#[path = "support/precommit.rs"]
mod precommit;
use common::GitRepo;
use std::path::Path;
use std::process::{Command, Output};

use common::{about, checked_files, output_text as text, run_in as platcheck};

const CONFIG: &str =
    "version: 1\ntoday: 2026-11-30\nsql:\n  dialect: postgresql\n  version: \"16\"\n";

/// A repository whose Cluster marks `orders` hot, with its first migration
/// committed: the state a pre-commit hook runs in.
fn shop() -> GitRepo {
    let repo = GitRepo::new();
    repo.write("platcheck.yaml", CONFIG);
    let cluster = std::fs::read_to_string(
        common::root().join("examples/clean/contracts/clusters/orders-db.yaml"),
    )
    .unwrap();
    repo.write("contracts/clusters/orders-db.yaml", &cluster);
    for f in ["0001_create_orders.sql", "0002_index_orders_customer.sql"] {
        let sql = std::fs::read_to_string(
            common::root()
                .join("examples/clean/migrations/orders-db")
                .join(f),
        )
        .unwrap();
        repo.write(&format!("migrations/orders-db/{f}"), &sql);
    }
    // The runbooks the cluster names, so the committed state is clean.
    common::copy_tree(
        &common::root().join("examples/clean/docs"),
        &{
            let d = repo.path().join("docs");
            std::fs::create_dir_all(&d).unwrap();
            d
        },
        None,
    );
    repo.commit("base");
    repo
}

const DANGEROUS: &str = "CREATE INDEX idx_orders_status ON orders (status);\n";
// Alembic runs a revision in a transaction: the concurrent build goes in an
// autocommit block, which its SQL export writes as COMMIT ... BEGIN.
const SAFE: &str = "SET lock_timeout = '2s';\nSET statement_timeout = '30min';\nCOMMIT;\nCREATE INDEX CONCURRENTLY IF NOT EXISTS idx_orders_status ON orders (status);\nBEGIN;\n";

#[test]
fn one_named_migration_is_judged_with_its_cluster() {
    let repo = shop();
    repo.write("migrations/orders-db/0008_index_status.sql", DANGEROUS);
    let o = platcheck(
        repo.path(),
        &["check", "migrations/orders-db/0008_index_status.sql"],
    );
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("error [MG001]"), "{out}");
    assert!(out.contains("orders (hot table)"), "{out}");
    // Only the named file is reported on; the workspace held all of them.
    assert!(out.contains("1 file checked: 1 error"), "{out}");
    assert!(!out.contains("contracts/clusters"), "{out}");
}

#[test]
fn a_single_event_contract_sees_the_clusters_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(&common::root().join("examples/clean"), dir.path(), None);
    let one = "contracts/events/order-confirmed.yaml";
    let o = platcheck(dir.path(), &["check", one]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("EV034"), "{out}");
    assert!(out.contains("1 file checked: 0 errors"), "{out}");
    // The same contract without a Cluster in the repository does get EV034:
    // the rule is on, the context made the difference.
    std::fs::remove_dir_all(dir.path().join("contracts/clusters")).unwrap();
    let alone = text(&platcheck(dir.path(), &["check", one]));
    assert!(alone.contains("EV034"), "{alone}");
}

#[test]
fn a_named_directory_inside_the_root_is_reported_alone() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(
        &common::root().join("examples/violations"),
        dir.path(),
        None,
    );
    let whole = platcheck(dir.path(), &["check", "--format", "json", "."]);
    let part = platcheck(dir.path(), &["check", "--format", "json", "migrations"]);
    let findings = |o: &Output| -> std::collections::BTreeSet<(String, String, u64)> {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["file"].as_str().unwrap().to_string(),
                    f["rule"].as_str().unwrap().to_string(),
                    f["line"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let (whole, part) = (findings(&whole), findings(&part));
    assert!(!part.is_empty());
    // Exactly the whole run's findings in the named directory, plus the
    // config's own problems (they concern every run).
    let expected: std::collections::BTreeSet<_> = whole
        .iter()
        .filter(|(f, _, _)| f.starts_with("migrations/") || f == "platcheck.yaml")
        .cloned()
        .collect();
    assert_eq!(part, expected);
    assert!(whole.iter().any(|(f, _, _)| !f.starts_with("migrations/")));
    // One migration directory: its history alone is replayed, with the
    // same findings as in the whole run.
    let one = platcheck(
        dir.path(),
        &["check", "--format", "json", "migrations/legacy-shop-db"],
    );
    let one = findings(&one);
    let expected: std::collections::BTreeSet<_> = whole
        .iter()
        .filter(|(f, _, _)| f.starts_with("migrations/legacy-shop-db/") || f == "platcheck.yaml")
        .cloned()
        .collect();
    assert_eq!(one, expected);
}

/// Runs a hook of this repository on the staged files of `repo`, the way
/// `git commit` would (pre-commit try-repo: the hook definition as committed
/// here, with uncommitted edits).
fn hook(repo: &GitRepo, id: &str, env: &[(&str, &Path)]) -> Output {
    let t = precommit::tools();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_platcheck")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new(&t.pre_commit);
    cmd.arg("try-repo")
        .arg(common::root())
        .arg(id)
        .current_dir(repo.path())
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("pre-commit runs")
}

fn hook_case(id: &str, extra_env: &dyn Fn(&Path) -> Vec<(&'static str, std::path::PathBuf)>) {
    let repo = shop();
    let home = tempfile::tempdir().unwrap();
    let mut env: Vec<(&str, std::path::PathBuf)> =
        vec![("PRE_COMMIT_HOME", home.path().to_path_buf())];
    env.extend(extra_env(home.path()));
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();

    repo.write("migrations/orders-db/0008_index_status.sql", DANGEROUS);
    repo.git(&["add", "migrations/orders-db/0008_index_status.sql"]);
    let bad = hook(&repo, id, &env);
    let out = text(&bad);
    assert!(!bad.status.success(), "hook {id} passed:\n{out}");
    assert!(out.contains("MG001"), "{out}");
    assert!(out.contains("orders (hot table)"), "{out}");

    repo.write("migrations/orders-db/0008_index_status.sql", SAFE);
    repo.git(&["add", "migrations/orders-db/0008_index_status.sql"]);
    let good = hook(&repo, id, &env);
    assert!(good.status.success(), "hook {id} failed:\n{}", text(&good));
}

#[test]
fn the_system_hook_fails_on_only_the_dangerous_migration_staged() {
    hook_case("platcheck-system", &|_| Vec::new());
}

#[test]
fn the_python_hook_fails_on_only_the_dangerous_migration_staged() {
    // pip resolves the hook's `platcheck==X` pin from a local directory: a
    // wheel of this build, and setuptools for the root shim.
    hook_case("platcheck", &|home| {
        vec![
            ("PIP_NO_INDEX", "1".into()),
            ("PIP_FIND_LINKS", precommit::wheel_dir(home)),
        ]
    });
}

#[test]
fn run_notes_count_only_the_named_contracts() {
    let dir = common::root().join("examples/violations");
    let notes = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        let o = platcheck(&dir, &all);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        // No `notes` key when there is none.
        v["notes"]
            .as_array()
            .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    };
    let unchecked = |n: &str| n.starts_with("payload schema compatibility (EV053) was not checked");
    let whole = notes(&[]);
    assert!(
        whole
            .iter()
            .any(|n| unchecked(n) && n.contains("for 9 event boundaries")),
        "{whole:?}"
    );
    // One boundary named: the note speaks of that one, not the repository's nine.
    let one = notes(&["contracts/events/ledger-entries.yaml"]);
    assert!(
        one.iter()
            .any(|n| unchecked(n) && n.contains("for 1 event boundary:")),
        "{one:?}"
    );
    // A cluster named: no boundary is reported on, so nothing went unchecked.
    let cluster = notes(&["contracts/clusters/checkout-db.yaml"]);
    assert!(!cluster.iter().any(|n| unchecked(n)), "{cluster:?}");
}

#[test]
fn naming_one_file_reports_on_it_what_the_whole_repository_run_does() {
    // The named run loads the whole repository but runs, fixes and renders
    // only for the named file (and skips the contract rules when it names
    // SQL or Markdown): none of that may change what it says about the file.
    // Without the example's baseline (tests/scoped_baseline.rs has it).
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(
        &common::root().join("examples/violations"),
        dir.path(),
        None,
    );
    let cfg = dir.path().join("platcheck.yaml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("baseline:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(without, text, "the example has a baseline line");
    std::fs::write(&cfg, without).unwrap();
    let run = |p: &str| {
        platcheck::engine::run(
            &[std::path::PathBuf::from(p)],
            dir.path(),
            &platcheck::settings::Overrides::default(),
        )
        .unwrap()
    };
    let whole = run(".");
    let files = checked_files(&whole);
    let kinds = |ext: &str| files.iter().filter(|f| f.ends_with(ext)).count();
    assert!(
        kinds(".sql") >= 20 && kinds(".md") >= 5 && kinds(".yaml") >= 10,
        "{files:?}"
    );
    let mut compared = 0;
    for f in &files {
        let expected = about(&whole, f);
        let named = run(f);
        assert_eq!(about(&named, f), expected, "{f}");
        // Nothing about any other file but the config.
        assert!(
            named
                .findings
                .iter()
                .all(|x| &x.file == f || Some(&x.file) == named.config.as_ref()),
            "{f}: {:#?}",
            named.findings
        );
        compared += usize::from(!expected.is_empty());
    }
    assert!(compared >= 20, "only {compared} files had findings");
}
