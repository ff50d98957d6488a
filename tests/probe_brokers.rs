//! The broker probes against the local servers: a NATS JetStream stream and
//! a RabbitMQ queue that match are clean, drifted contracts raise exactly
//! the expected rules, and nothing is created on either.
mod common;
#[path = "support/probe_scratch.rs"]
mod scratch;

use platcheck::RuleId;
use scratch::run;
use std::time::Duration;

#[test]
fn nats_stream_that_matches_is_clean_and_nothing_is_created() {
    if scratch::skipped() {
        return;
    }
    let nats = scratch::NatsScratch::new("platcheck_probe_nats", Duration::from_secs(120));
    let boundary = |name: &str, topic: &str, rf: i64, consumers: &str| {
        format!(
            "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: {name}\n  owner: t\n  lifecycle: production\nspec:\n  delivery: at-least-once\n  broker:\n    kind: nats-jetstream\n    topic: {topic}\n    replication_factor: {rf}\n  producer:\n    idempotent: true\n  consumers:\n{consumers}"
        )
    };
    let careful = "    - group: careful\n      concurrency: serial\n      idempotency:\n        store: none\n        window: 2m\n      retry:\n        max_attempts: 5\n        max_delay: 20s\n";
    let clean = run(
        &[("ev.yaml", boundary("orders", &nats.name, 1, careful))],
        &[("orders", scratch::NATS.to_string())],
        true,
    );
    assert!(clean.findings.is_empty(), "{}", common::human(&clean));
    let drifted = careful
        .replace("window: 2m", "window: 1d")
        .replace("max_attempts: 5", "max_attempts: 10")
        .replace("max_delay: 20s", "max_delay: 5s")
        + "    - group: sloppy\n    - group: nobody\n";
    let o = run(
        &[
            ("a.yaml", boundary("orders", &nats.name, 3, &drifted)),
            (
                "b.yaml",
                boundary("gone", "PLATCHECK_NO_SUCH_STREAM", 1, careful),
            ),
        ],
        &[
            ("orders", scratch::NATS.to_string()),
            ("gone", scratch::NATS.to_string()),
        ],
        true,
    );
    let got: Vec<(String, RuleId)> = o
        .findings
        .iter()
        .map(|f| (f.file.clone(), f.rule))
        .collect();
    let want: Vec<(String, RuleId)> = [
        ("a.yaml", RuleId::PR032), // sloppy: no acks (on `delivery:`)
        ("a.yaml", RuleId::PR033),
        ("a.yaml", RuleId::PR030),
        ("a.yaml", RuleId::PR031), // max_attempts
        ("a.yaml", RuleId::PR031), // backoff over max_delay
        ("a.yaml", RuleId::PR002), // no durable consumer `nobody`
        ("b.yaml", RuleId::PR002), // no stream
    ]
    .iter()
    .map(|(f, r)| (f.to_string(), *r))
    .collect();
    assert_eq!(got, want, "{}", common::human(&o));
    assert_eq!(nats.consumer_count(), 2, "the probe created a consumer");
}

#[test]
fn rabbitmq_queue_that_exists_is_clean_and_a_missing_one_is_not_created() {
    if scratch::skipped() {
        return;
    }
    let q = scratch::RabbitScratch::new("platcheck_probe_queue");
    let missing = scratch::unique("platcheck_probe_noqueue");
    let boundary = |name: &str, queue: &str| {
        format!(
            "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: {name}\n  owner: t\n  lifecycle: production\nspec:\n  broker:\n    kind: rabbitmq\n    topic: {queue}\n"
        )
    };
    let o = run(
        &[
            ("a.yaml", boundary("present", &q.name)),
            ("b.yaml", boundary("absent", &missing)),
            ("c.yaml", boundary("denied", &q.name)),
        ],
        &[
            ("present", scratch::AMQP.to_string()),
            ("absent", scratch::AMQP.to_string()),
            (
                "denied",
                "amqp://guest:Wr0ngPassw0rd@127.0.0.1:5672/%2f".to_string(),
            ),
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
            ("b.yaml".to_string(), RuleId::PR002),
            ("c.yaml".to_string(), RuleId::PR001),
        ],
        "{}",
        common::human(&o)
    );
    let text = common::human(&o);
    assert!(!text.contains("Wr0ngPassw0rd"), "{text}");
    assert!(
        !scratch::queue_exists(&missing),
        "the probe created {missing}"
    );
    assert!(scratch::queue_exists(&q.name));
}
