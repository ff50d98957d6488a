//! The probes against the local servers: a contract that matches each
//! server is clean, sessions are read-only, a target that fails or hangs is
//! a PR001 and the other targets are still compared, and `check --probe`
//! judges migrations by the observed table sizes.
mod common;
#[path = "support/probe_scratch.rs"]
mod scratch;

use mysql::prelude::Queryable;
use platcheck::RuleId;
use platcheck::engine::{self, Outcome};
use platcheck::settings::Overrides;
use scratch::{CONFIG, MyScratch, PgScratch, run};
use std::time::Duration;

fn cluster(name: &str, lifecycle: &str, spec: &str) -> String {
    format!(
        "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: {name}\n  owner: t\n  lifecycle: {lifecycle}\nspec:\n{spec}"
    )
}

fn rules(o: &Outcome) -> Vec<RuleId> {
    o.findings.iter().map(|f| f.rule).collect()
}

#[test]
fn postgres_contract_that_matches_the_server_is_clean() {
    if scratch::skipped() {
        return;
    }
    let db = PgScratch::new(
        "platcheck_probe_pgclean",
        &[
            ("statement_timeout", "30s"),
            ("idle_in_transaction_session_timeout", "60s"),
        ],
        scratch::PG_BIG,
    );
    let version = db.show("server_version");
    let major = version.split('.').next().unwrap();
    let spec = format!(
        "  engine:\n    product: postgresql\n    version: \"{major}\"\n  ha:\n    replication: async\n    rpo: 1m\n  backup:\n    types: [snapshot]\n  connections:\n    max: {}\n  migrations:\n    hot_tables: [big]\n    table_rows: {{ big: 5k }}\n",
        db.show("max_connections")
    );
    let clean = run(
        &[("orders.yaml", cluster("orders-db", "production", &spec))],
        &[("orders-db", db.url())],
        true,
    );
    assert!(clean.findings.is_empty(), "{}", common::human(&clean));
    // The same contract claiming what the server does not do: one finding each.
    let drifted = spec
        .replace(&format!("\"{major}\""), "\"9.6\"")
        .replace("async", "sync")
        .replace("[snapshot]", "[snapshot, wal-archive]")
        .replace("big: 5k", "big: 10");
    let o = run(
        &[("orders.yaml", cluster("orders-db", "production", &drifted))],
        &[("orders-db", db.url())],
        true,
    );
    assert_eq!(
        rules(&o),
        [RuleId::PR010, RuleId::PR011, RuleId::PR013, RuleId::PR016],
        "{}",
        common::human(&o)
    );
}

#[test]
fn mariadb_contract_that_matches_the_server_is_clean() {
    if scratch::skipped() {
        return;
    }
    let db = MyScratch::new(
        "platcheck_probe_myclean",
        &[
            "CREATE TABLE big (id INT PRIMARY KEY)",
            "INSERT INTO big SELECT seq FROM seq_1_to_5000",
            "ANALYZE TABLE big",
        ],
    );
    let version = db.global("version");
    let minor: Vec<&str> = version.split(['.', '-']).take(2).collect();
    let spec = format!(
        "  engine:\n    product: mariadb\n    version: \"{}\"\n  connections:\n    max: {}\n  migrations:\n    hot_tables: [big]\n    table_rows: {{ big: 5k }}\n",
        minor.join("."),
        db.global("max_connections")
    );
    let clean = run(
        &[("m.yaml", cluster("maria-db", "production", &spec))],
        &[("maria-db", db.url())],
        true,
    );
    assert!(clean.findings.is_empty(), "{}", common::human(&clean));
    // Global settings are only read: the drifted contract claims the opposite.
    let on = |v: String| v == "ON" || v == "1";
    let semi_on = on(db.global("rpl_semi_sync_master_enabled"));
    let log_bin_on = on(db.global("log_bin"));
    let mut expected = vec![RuleId::PR002, RuleId::PR011, RuleId::PR016];
    let backup = if log_bin_on {
        "[snapshot]"
    } else {
        expected.push(RuleId::PR013);
        "[snapshot, binlog-archive]"
    };
    let replication = if semi_on { "async" } else { "sync" };
    let drifted = spec
        .replace("big: 5k", "big: 10")
        .replace("hot_tables: [big]", "hot_tables: [big, no_such_table]")
        .replace(
            "  connections:",
            &format!(
                "  ha:\n    replication: {replication}\n  backup:\n    types: {backup}\n  connections:"
            ),
        );
    let o = run(
        &[("m.yaml", cluster("maria-db", "production", &drifted))],
        &[("maria-db", db.url())],
        true,
    );
    let got = rules(&o);
    for r in expected {
        assert!(got.contains(&r), "{r} missing: {}", common::human(&o));
    }
}

#[test]
fn redis_dedup_tier_that_matches_is_clean() {
    if scratch::skipped() {
        return;
    }
    let policy = scratch::redis_policy();
    let boundary = |policy: &str, persistence: bool| {
        format!(
            "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: ev\n  owner: t\n  lifecycle: production\nspec:\n  consumers:\n    - group: g\n      idempotency:\n        store: redis\n        redis:\n          maxmemory_policy: {policy}\n          persistence: {persistence}\n"
        )
    };
    let url = format!("{}/7", scratch::REDIS);
    let clean = run(
        &[("ev.yaml", boundary(&policy, false))],
        &[("ev.dedup", url.clone())],
        true,
    );
    assert!(clean.findings.is_empty(), "{}", common::human(&clean));
    let other = if policy == "volatile-lru" {
        "allkeys-lfu"
    } else {
        "volatile-lru"
    };
    let o = run(
        &[("ev.yaml", boundary(other, true))],
        &[("ev.dedup", url)],
        true,
    );
    assert_eq!(
        rules(&o),
        [RuleId::PR020, RuleId::PR021],
        "{}",
        common::human(&o)
    );
}

#[test]
fn probe_sessions_are_read_only() {
    if scratch::skipped() {
        return;
    }
    let db = PgScratch::new("platcheck_probe_ro", &[], scratch::PG_BIG);
    let mut pg = platcheck::probe::postgres::session(&db.url(), Duration::from_secs(5)).unwrap();
    for write in ["CREATE TABLE sneaky (id int)", "INSERT INTO big VALUES (1)"] {
        let e = pg.batch_execute(write).expect_err(write);
        assert_eq!(
            e.as_db_error().map(|d| d.code().code()),
            Some("25006"),
            "{write}: {e}"
        );
    }
    let my = MyScratch::new("platcheck_probe_ro", &["CREATE TABLE t (id INT)"]);
    let mut conn = platcheck::probe::mysql::session(&my.url(), Duration::from_secs(5)).unwrap();
    let e = conn
        .query_drop("INSERT INTO t VALUES (1)")
        .expect_err("insert");
    assert!(e.to_string().contains("READ ONLY"), "{e}");
    let n: Option<i64> = conn.query_first("SELECT COUNT(*) FROM t").unwrap();
    assert_eq!(n, Some(0));
}

#[test]
fn a_failing_or_silent_target_is_pr001_and_the_others_are_still_probed() {
    if scratch::skipped() {
        return;
    }
    // A server that accepts and never answers: only the time limit ends it.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let db = PgScratch::new("platcheck_probe_fail", &[], "SELECT 1");
    let spec = "  connections:\n    max: 1\n";
    let o = run(
        &[
            ("a.yaml", cluster("refused-db", "production", spec)),
            ("b.yaml", cluster("silent-db", "production", spec)),
            ("c.yaml", cluster("silent-my", "production", spec)),
            ("d.yaml", cluster("ok-db", "experimental", spec)),
        ],
        &[
            ("refused-db", "postgres://u:pw@127.0.0.1:1/x".into()),
            ("silent-db", format!("postgres://u@127.0.0.1:{port}/x")),
            ("silent-my", format!("mysql://u@127.0.0.1:{port}/x")),
            ("ok-db", db.url()),
        ],
        true,
    );
    let got: Vec<(String, RuleId)> = o
        .findings
        .iter()
        .map(|f| (f.file.clone(), f.rule))
        .collect();
    assert_eq!(
        got,
        [
            ("a.yaml".to_string(), RuleId::PR001),
            ("b.yaml".to_string(), RuleId::PR001),
            ("c.yaml".to_string(), RuleId::PR001),
            ("d.yaml".to_string(), RuleId::PR014),
        ],
        "{}",
        common::human(&o)
    );
    drop(silent);
}

#[test]
fn check_with_probe_judges_migrations_by_the_observed_size() {
    if scratch::skipped() {
        return;
    }
    let db = PgScratch::new("platcheck_probe_check", &[], scratch::PG_BIG);
    let spec = "  engine:\n    product: postgresql\n  migrations:\n    path: migrations\n    table_rows: { big: 10 }\n";
    let files = [
        ("db.yaml", cluster("orders-db", "experimental", spec)),
        (
            "migrations/0001_index.sql",
            "CREATE INDEX big_id ON big (id);\n".to_string(),
        ),
    ];
    let mg001 = |o: &Outcome| {
        o.findings
            .iter()
            .find(|f| f.rule == RuleId::MG001)
            .map(|f| (f.severity, f.message.clone()))
            .expect("MG001")
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("platcheck.yaml"), CONFIG).unwrap();
    for (n, t) in &files {
        let p = dir.path().join(n);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    }
    let plain = engine::run(
        &[],
        dir.path(),
        &Overrides {
            today: Some(common::today()),
            ..Overrides::default()
        },
    )
    .unwrap();
    let probed = run(&files, &[("orders-db", db.url())], false);
    let (before, _) = mg001(&plain);
    let (after, message) = mg001(&probed);
    assert_eq!(before, platcheck::Severity::Warning);
    assert_eq!(after, platcheck::Severity::Error, "{message}");
    assert!(message.contains("5,000 rows"), "{message}");
    // And the drift itself is reported next to it.
    assert!(rules(&probed).contains(&RuleId::PR016));
}

#[test]
fn a_probe_that_compares_nothing_says_so() {
    // No server is needed: no contract names a target.
    let o = run(
        &[(
            "a.yaml",
            cluster("quiet-db", "production", "  connections:\n    max: 1\n"),
        )],
        &[],
        true,
    );
    assert!(o.findings.is_empty(), "{}", common::human(&o));
    assert!(
        o.notes.iter().any(|n| n.contains("nothing was compared")),
        "{:?}",
        o.notes
    );
}
