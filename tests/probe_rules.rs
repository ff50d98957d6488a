//! The PR family's fixtures, probed against the local servers: every
//! `tests/fixtures/pr/<ID>/bad*` raises its rule (snapshotted), every
//! `good*` does not. `tests/rules.rs` runs every other family; these need
//! running systems, configured here by the test itself: scratch databases
//! with their own per-database settings and a seeded table. Global server
//! settings are only read: a `good` fixture that must agree with one gets
//! the server's value filled in (`"@PG_MAX_CONNECTIONS@"` and the like).
mod common;
#[path = "support/kafka_scratch.rs"]
mod kafka;
#[path = "support/kafka_proxy.rs"]
mod kafka_proxy;
#[path = "support/probe_scratch.rs"]
mod scratch;

use platcheck::RuleId;
use platcheck::engine;
use platcheck::settings::{Overrides, ProbeRequest};
use scratch::{MyScratch, NatsScratch, PgScratch};
use std::path::{Path, PathBuf};

/// Copies `from` to `to`, filling the placeholders into every YAML file.
fn copy_filled(from: &Path, to: &Path, fill: &[(String, String)]) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            copy_filled(&e.path(), &to.join(e.file_name()), fill);
        }
        return;
    }
    let mut text = std::fs::read_to_string(from).unwrap();
    for (k, v) in fill {
        text = text.replace(k.as_str(), v);
    }
    std::fs::write(to, text).unwrap();
}

fn fixture(rule: RuleId, which: &str) -> PathBuf {
    let dir = Path::new("tests/fixtures/pr").join(rule.as_str());
    let found: Vec<PathBuf> = std::fs::read_dir(common::root().join(&dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_stem().is_some_and(|s| s == which))
        .collect();
    assert_eq!(found.len(), 1, "{}: one `{which}` fixture", dir.display());
    dir.join(found[0].file_name().unwrap())
}

fn probe(work: &Path, rel: &Path) -> engine::Outcome {
    let overrides = Overrides {
        today: Some(common::today()),
        probe: Some(ProbeRequest {
            targets: Vec::new(),
            only_probe_rules: true,
        }),
        ..Overrides::default()
    };
    engine::run(&[rel.to_path_buf()], work, &overrides).expect("run succeeds")
}

#[test]
fn every_probe_rule_fires_on_bad_and_not_on_good() {
    if scratch::skipped() {
        return;
    }
    let db = PgScratch::new(
        "platcheck_probe_rules",
        &[
            ("statement_timeout", "30s"),
            ("idle_in_transaction_session_timeout", "60s"),
        ],
        scratch::PG_BIG,
    );
    let zero = PgScratch::new(
        "platcheck_probe_rules_zero",
        &[
            ("statement_timeout", "0"),
            ("idle_in_transaction_session_timeout", "0"),
        ],
        "SELECT 1",
    );
    let my = MyScratch::new("platcheck_probe_rules", &[]);
    let nats = NatsScratch::new("platcheck_probe_rules", std::time::Duration::from_secs(120));
    let tansu = kafka::Tansu::start();
    tansu.create("platcheck-probe-rules", 3);
    // PR037's bad fixture: the broker's answers with partition 0 degraded.
    let degraded =
        kafka_proxy::Relay::start(tansu.port, None, Some(kafka::degrade_first_partition));
    // SAFETY: the only test in this binary: no thread reads the environment yet.
    unsafe {
        std::env::set_var("PLATCHECK_PROBE_PG_URL", db.url());
        std::env::set_var("PLATCHECK_PROBE_PG_ZERO_URL", zero.url());
        std::env::set_var("PLATCHECK_PROBE_MY_URL", my.url());
        std::env::set_var("PLATCHECK_PROBE_REDIS_URL", format!("{}/9", scratch::REDIS));
        std::env::set_var("PLATCHECK_PROBE_NATS_URL", scratch::NATS);
        std::env::set_var("PLATCHECK_PROBE_KAFKA_URL", tansu.url());
        std::env::set_var(
            "PLATCHECK_PROBE_KAFKA_DEGRADED_URL",
            format!("kafka://127.0.0.1:{}", degraded.port),
        );
        std::env::remove_var("PLATCHECK_PROBE_UNSET_URL");
    }
    let version = db.show("server_version");
    let major = version.split('.').next().unwrap().to_string();
    let fill = vec![
        ("@PG_VERSION@".to_string(), major),
        ("@NATS_STREAM@".to_string(), nats.name.clone()),
        (
            "@KAFKA_TOPIC@".to_string(),
            "platcheck-probe-rules".to_string(),
        ),
        (
            "\"@PG_MAX_CONNECTIONS@\"".to_string(),
            db.show("max_connections"),
        ),
        ("\"@REDIS_POLICY@\"".to_string(), scratch::redis_policy()),
    ];
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for &rule in RuleId::ALL
        .iter()
        .filter(|r| platcheck::rules::pr::covers(**r))
    {
        for which in ["bad", "good"] {
            let rel = fixture(rule, which);
            std::fs::create_dir_all(work.path().join(&rel).parent().unwrap()).unwrap();
            copy_filled(&common::root().join(&rel), &work.path().join(&rel), &fill);
            let mut outcome = probe(work.path(), &rel);
            outcome.findings.retain(|f| f.rule == rule);
            if which == "good" {
                if !outcome.findings.is_empty() {
                    failures.push(format!("{rule}: noisy: {}", common::human(&outcome)));
                }
                continue;
            }
            if outcome.findings.is_empty() {
                failures.push(format!("{rule}: missing: {} raised nothing", rel.display()));
            }
            let rendered = common::human(&outcome);
            let body = rendered
                .trim_end()
                .rsplit_once('\n')
                .map_or("", |(body, _)| body);
            let mut settings = insta::Settings::clone_current();
            settings.add_filter(r"(?i)platcheck_probe_rules(_zero)?_\d+_\d+", "[SCRATCH]");
            settings.add_filter(r"(runs \w+) [0-9.]+", "$1 [SERVER-VERSION]");
            settings.add_filter(r"allows \d+", "allows [MAX-CONNECTIONS]");
            settings.add_filter(r"kafka://127\.0\.0\.1:\d+", "kafka://[TANSU]");
            settings.bind(|| {
                common::versionless(|| insta::assert_snapshot!(format!("{rule}_bad"), body));
            });
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
