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

/// An EventBoundary on RabbitMQ queue `queue`, with one consumer group.
fn rabbit_boundary(name: &str, queue: &str, rf: i64, consumer: &str) -> String {
    format!(
        "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: {name}\n  owner: t\n  lifecycle: production\nspec:\n  delivery: at-least-once\n  broker:\n    kind: rabbitmq\n    topic: {queue}\n    replication_factor: {rf}\n  consumers:\n{consumer}"
    )
}

const BILLING: &str = "    - group: billing\n      retry:\n        max_attempts: 5\n      dlq:\n        destination: billing.dlq\n";

fn files_and_rules(o: &platcheck::engine::Outcome) -> Vec<(String, RuleId)> {
    o.findings
        .iter()
        .map(|f| (f.file.clone(), f.rule))
        .collect()
}

#[test]
fn rabbitmq_queue_arguments_through_the_management_api() {
    if scratch::skipped() {
        return;
    }
    // The contract's claims, as the queue really has them: a quorum queue
    // (one member on this single node), 4 redeliveries = 5 attempts, a DLX.
    let quorum = scratch::ManagedQueue::new(
        "platcheck_probe_quorum",
        serde_json::json!({"x-queue-type": "quorum", "x-delivery-limit": 4, "x-dead-letter-exchange": "billing.dlx"}),
    );
    let classic = scratch::ManagedQueue::new("platcheck_probe_classic", serde_json::json!({}));
    let lax = scratch::ManagedQueue::new(
        "platcheck_probe_lax",
        serde_json::json!({"x-queue-type": "quorum", "x-delivery-limit": 9, "x-dead-letter-exchange": "billing.dlx"}),
    );
    let missing = scratch::unique("platcheck_probe_nomanaged");
    let both = |name: &str| {
        [
            (name.to_string(), scratch::AMQP.to_string()),
            (
                format!("{name}.management"),
                scratch::MANAGEMENT.to_string(),
            ),
        ]
    };
    let mut targets: Vec<(String, String)> = Vec::new();
    for n in ["matches", "classic", "lax", "absent"] {
        targets.extend(both(n));
    }
    targets.push((
        "denied.management".into(),
        "http://guest:Wr0ngPassw0rd@127.0.0.1:15672".into(),
    ));
    // No TLS client: said, not attempted.
    targets.push((
        "secure.management".into(),
        "https://guest:guest@127.0.0.1:15672".into(),
    ));
    let targets: Vec<(&str, String)> = targets
        .iter()
        .map(|(n, u)| (n.as_str(), u.clone()))
        .collect();
    let o = run(
        &[
            (
                "a.yaml",
                rabbit_boundary("matches", &quorum.name, 1, BILLING),
            ),
            (
                "b.yaml",
                rabbit_boundary("classic", &classic.name, 3, BILLING),
            ),
            ("c.yaml", rabbit_boundary("lax", &lax.name, 1, BILLING)),
            ("d.yaml", rabbit_boundary("absent", &missing, 1, BILLING)),
            (
                "e.yaml",
                rabbit_boundary("denied", &quorum.name, 1, BILLING),
            ),
            (
                "f.yaml",
                rabbit_boundary("secure", &quorum.name, 1, BILLING),
            ),
        ],
        &targets,
        true,
    );
    let want: Vec<(String, RuleId)> = [
        ("b.yaml", RuleId::PR033), // classic: one copy, 3 declared
        ("b.yaml", RuleId::PR031), // classic: no delivery limit
        ("b.yaml", RuleId::PR031), // no dead-letter exchange
        ("c.yaml", RuleId::PR031), // 10 deliveries, 5 declared
        ("d.yaml", RuleId::PR002), // once, though AMQP and the API both say so
        ("e.yaml", RuleId::PR001), // login refused
        ("f.yaml", RuleId::PR001), // https
    ]
    .iter()
    .map(|(f, r)| (f.to_string(), *r))
    .collect();
    assert_eq!(files_and_rules(&o), want, "{}", common::human(&o));
    let text = common::human(&o);
    assert!(!text.contains("Wr0ngPassw0rd"), "{text}");
    assert!(
        text.contains("up to 10 times (x-delivery-limit 9)"),
        "{text}"
    );
    assert!(text.contains("classic queue"), "{text}");
    assert!(
        text.contains("https:// management URLs are not supported"),
        "{text}"
    );
    let (status, _) = scratch::management("GET", &format!("/queues/%2F/{missing}"), None);
    assert_eq!(status, 404, "the probe created {missing}");
}

/// The oracle for PR031's arithmetic: a quorum queue's `x-delivery-limit`
/// counts redeliveries, so a message is delivered limit + 1 times and then
/// dropped (there is no dead-letter exchange here).
#[test]
fn rabbitmq_delivery_limit_counts_redeliveries() {
    if scratch::skipped() {
        return;
    }
    let q = scratch::ManagedQueue::new(
        "platcheck_probe_limit",
        serde_json::json!({"x-queue-type": "quorum", "x-delivery-limit": 2}),
    );
    let (status, body) = scratch::management(
        "POST",
        "/exchanges/%2F/amq.default/publish",
        Some(
            serde_json::json!({"properties": {}, "routing_key": q.name, "payload": "x", "payload_encoding": "string"}),
        ),
    );
    assert_eq!(
        (status, body.contains("\"routed\":true")),
        (200, true),
        "{body}"
    );
    let mut deliveries = 0;
    let mut empty_in_a_row = 0;
    // A rejected message is back in the queue a moment later: poll until
    // the queue stays empty, bounded so a broker that never drops it fails.
    for _ in 0..200 {
        let (status, body) = scratch::management(
            "POST",
            &format!("/queues/%2F/{}/get", q.name),
            Some(
                serde_json::json!({"count": 1, "ackmode": "reject_requeue_true", "encoding": "auto"}),
            ),
        );
        assert_eq!(status, 200, "{body}");
        let got: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
        if got.is_empty() {
            let (_, info) = scratch::management("GET", &format!("/queues/%2F/{}", q.name), None);
            let info: serde_json::Value = serde_json::from_str(&info).unwrap();
            if info["messages"].as_u64() == Some(0) {
                empty_in_a_row += 1;
                if empty_in_a_row == 3 {
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        } else {
            empty_in_a_row = 0;
            deliveries += got.len();
        }
    }
    assert_eq!(
        deliveries, 3,
        "x-delivery-limit 2: three deliveries, then dropped"
    );
}

/// PR030's zero window, on the one stream kind the server keeps without a
/// duplicate window: a mirror.
#[test]
fn nats_stream_without_a_duplicate_window() {
    if scratch::skipped() {
        return;
    }
    let nats = scratch::NatsScratch::new("platcheck_probe_nozero", Duration::from_secs(120));
    let mirror = nats.mirror();
    let boundary = |topic: &str| {
        format!(
            "apiVersion: platcheck/v1\nkind: EventBoundary\nmetadata:\n  name: orders\n  owner: t\n  lifecycle: production\nspec:\n  broker:\n    kind: nats-jetstream\n    topic: {topic}\n    replication_factor: 1\n  producer:\n    idempotent: true\n"
        )
    };
    let probe = |topic: &str| {
        run(
            &[("ev.yaml", boundary(topic))],
            &[("orders", scratch::NATS.to_string())],
            true,
        )
    };
    let clean = probe(&nats.name);
    assert!(clean.findings.is_empty(), "{}", common::human(&clean));
    let o = probe(&mirror);
    let got: Vec<(RuleId, String)> = o
        .findings
        .iter()
        .map(|f| (f.rule, f.message.clone()))
        .collect();
    assert_eq!(got.len(), 1, "{}", common::human(&o));
    assert_eq!(got[0].0, RuleId::PR030);
    assert!(
        got[0].1.starts_with(&format!(
            "the producer declares idempotent publishing but stream `{mirror}`"
        )) && got[0]
            .1
            .ends_with("has no duplicate_window: a retried publish is stored twice"),
        "{}",
        got[0].1
    );
}
