//! The Kafka variants the local broker cannot show, judged on constructed
//! facts: Tansu (one node) keeps one replica and answers DescribeConfigs
//! without entries, so a matching replication factor above 1, a
//! `min.insync.replicas` or `cleanup.policy` that differs, and a retention
//! shorter than the replay window never come from it. Decoding those values
//! from real answers is tested in `probe/kafka_tests.rs`; the missing topic,
//! partitions, replicas 1 and the unreported configs are probed for real in
//! tests/probe_kafka.rs.
use super::variant_tests::{HEAD, judge};
use crate::catalog::RuleId;
use crate::probe::{Facts, Role, TopicFacts};

fn boundary(extra: &str) -> String {
    format!(
        "{HEAD}kind: EventBoundary\nspec:\n  replay_window: 3d\n  broker:\n    kind: kafka\n    topic: orders\n    partitions: 6\n    replication_factor: 3\n    min_insync_replicas: 2\n{extra}"
    )
}

fn topic(min_isr: i64, policy: &str, retention_ms: i64) -> TopicFacts {
    TopicFacts {
        topic: "orders".into(),
        exists: true,
        brokers: 3,
        partitions: 6,
        replication_factor: 3,
        min_insync_replicas: Some(min_isr),
        cleanup_policy: Some(policy.into()),
        retention_ms: Some(retention_ms),
        configs_error: None,
    }
}

fn run(facts: TopicFacts) -> Vec<(RuleId, Option<&'static str>)> {
    judge(&boundary(""), Role::Broker, Facts::Topic(facts))
}

#[test]
fn a_topic_that_matches_on_three_brokers_is_clean() {
    assert_eq!(run(topic(2, "delete", 259_200_000)), []);
    assert_eq!(run(topic(2, "delete", -1)), [], "-1 keeps records forever");
    assert_eq!(run(topic(2, "compact,delete", 604_800_000)), []);
}

#[test]
fn min_insync_replicas_that_differs() {
    assert_eq!(run(topic(1, "delete", -1)), [(RuleId::PR035, None)]);
}

#[test]
fn a_compacted_topic_and_a_short_retention() {
    assert_eq!(
        run(topic(2, "compact", -1)),
        [(RuleId::PR036, Some("compact"))]
    );
    assert_eq!(run(topic(2, "delete", 86_400_000)), [(RuleId::PR036, None)]);
}

#[test]
fn refused_configs_and_an_under_replicated_partition() {
    let mut f = topic(2, "delete", -1);
    f.min_insync_replicas = None;
    f.cleanup_policy = None;
    f.retention_ms = None;
    f.configs_error = Some("DescribeConfigs: TopicAuthorizationFailed (29)".into());
    f.replication_factor = 2;
    assert_eq!(
        run(f),
        [
            (RuleId::PR033, Some("topic")),
            (RuleId::PR035, Some("unreported")),
            (RuleId::PR036, Some("unreported")),
        ]
    );
}

#[test]
fn a_missing_topic_is_only_missing() {
    let f = TopicFacts {
        topic: "orders".into(),
        ..TopicFacts::default()
    };
    assert_eq!(run(f), [(RuleId::PR002, Some("topic"))]);
}
