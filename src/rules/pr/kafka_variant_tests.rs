//! The Kafka variants the local broker cannot show, judged on constructed
//! facts: Tansu (one node) keeps one replica and answers DescribeConfigs
//! without entries, so a matching replication factor above 1, a
//! `min.insync.replicas` or `cleanup.policy` that differs, and a retention
//! shorter than the replay window never come from it. Decoding those values
//! from real answers is tested in `probe/kafka_tests.rs`; the missing topic,
//! partitions, replicas 1 and the unreported configs are probed for real in
//! tests/probe_kafka.rs.
use super::variant_tests::{HEAD, judge, reports};
use crate::catalog::RuleId;
use crate::probe::{Facts, PartitionHealth, Role, TopicFacts};

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
        degraded: Vec::new(),
    }
}

fn run(facts: TopicFacts) -> Vec<(RuleId, Option<&'static str>)> {
    judge(&boundary(""), Role::Broker, Facts::Topic(facts))
}

fn degraded(partition: i32, in_sync: usize, has_leader: bool) -> PartitionHealth {
    PartitionHealth {
        partition,
        replicas: 3,
        in_sync,
        offline: usize::from(in_sync < 3),
        has_leader,
    }
}

/// (pointer, count, detail) of each PR037 report.
fn detail(f: TopicFacts) -> Vec<(String, String, String)> {
    reports(&boundary(""), Role::Broker, Facts::Topic(f))
        .into_iter()
        .filter(|r| r.rule == RuleId::PR037)
        .map(|r| {
            let var = |k| r.vars.iter().find(|(n, _)| *n == k).unwrap().1.clone();
            (
                r.pointer.clone().unwrap_or_default(),
                var("count"),
                var("detail"),
            )
        })
        .collect()
}

#[test]
fn under_replicated_partitions_are_found_and_said() {
    let mut f = topic(2, "delete", -1);
    f.degraded = vec![degraded(0, 1, true)];
    assert_eq!(run(f.clone()), [(RuleId::PR037, None)]);
    assert_eq!(
        detail(f.clone()),
        [(
            "/spec/broker/replication_factor".to_string(),
            "1".to_string(),
            "partition 0: 1 of 3 replicas in sync, 1 offline, below min.insync.replicas 2 (acks=all writes are refused)".to_string()
        )]
    );
    f.degraded = (0..5).map(|p| degraded(p, 2, p != 1)).collect();
    assert_eq!(
        detail(f)[0].2,
        "partition 0: 2 of 3 replicas in sync, 1 offline; partition 1: 2 of 3 replicas in sync, 1 offline, no leader (nobody can write or read it); partition 2: 2 of 3 replicas in sync, 1 offline; and 2 more"
    );
    // Without a declared replication factor it is located on the topic.
    let plain = boundary("").replace("    replication_factor: 3\n", "");
    let mut f = topic(2, "delete", -1);
    f.degraded = vec![degraded(0, 2, true)];
    let r = reports(&plain, Role::Broker, Facts::Topic(f));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].pointer.as_deref(), Some("/spec/broker/topic"));
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
fn refused_configs_and_a_partition_short_of_the_declared_factor() {
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
