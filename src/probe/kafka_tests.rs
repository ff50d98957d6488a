//! What the local broker (Tansu, one node, DescribeConfigs without entries)
//! cannot show: a replication factor above 1, an under-replicated partition,
//! and topic configs. Each answer here is encoded by the protocol codec as a
//! Kafka broker sends it and decoded back before the probe reads it, so the
//! probe reads exactly the structures a real answer decodes to.
use super::*;
use bytes::BytesMut;
use kafka_protocol::messages::BrokerId;
use kafka_protocol::messages::describe_configs_response::{
    DescribeConfigsResourceResult, DescribeConfigsResult,
};
use kafka_protocol::messages::metadata_response::{
    MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
};
use kafka_protocol::protocol::{Decodable, Encodable};

fn wire<T: Encodable + Decodable>(value: &T, version: i16) -> T {
    let mut buf = BytesMut::new();
    value.encode(&mut buf, version).unwrap();
    let mut bytes = buf.freeze();
    T::decode(&mut bytes, version).unwrap()
}

fn metadata(topic: &str, error_code: i16, replicas: &[usize]) -> MetadataResponse {
    let brokers = (1..=3)
        .map(|n| {
            MetadataResponseBroker::default()
                .with_node_id(BrokerId(n))
                .with_host(StrBytes::from_string(format!("b{n}")))
                .with_port(9092)
        })
        .collect();
    let partitions = replicas
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let nodes: Vec<BrokerId> = (1..=n as i32).map(BrokerId).collect();
            MetadataResponsePartition::default()
                .with_partition_index(i as i32)
                .with_leader_id(BrokerId(1))
                .with_replica_nodes(nodes.clone())
                .with_isr_nodes(nodes)
        })
        .collect();
    let t = MetadataResponseTopic::default()
        .with_name(Some(TopicName(StrBytes::from_string(topic.into()))))
        .with_error_code(error_code)
        .with_partitions(partitions);
    wire(
        &MetadataResponse::default()
            .with_brokers(brokers)
            .with_topics(vec![t]),
        12,
    )
}

fn configs(topic: &str, error_code: i16, entries: &[(&str, &str)]) -> DescribeConfigsResponse {
    let configs = entries
        .iter()
        .map(|(k, v)| {
            DescribeConfigsResourceResult::default()
                .with_name(StrBytes::from_string((*k).into()))
                .with_value(Some(StrBytes::from_string((*v).into())))
        })
        .collect();
    let r = DescribeConfigsResult::default()
        .with_resource_type(TOPIC_RESOURCE)
        .with_resource_name(StrBytes::from_string(topic.into()))
        .with_error_code(error_code)
        .with_configs(configs);
    wire(&DescribeConfigsResponse::default().with_results(vec![r]), 4)
}

#[test]
fn a_three_broker_topic_with_its_configs() {
    let mut f = from_metadata(&metadata("orders", 0, &[3, 3, 2]), "orders").unwrap();
    assert!(f.exists);
    assert_eq!((f.brokers, f.partitions), (3, 3));
    assert_eq!(f.replication_factor, 2, "the weakest partition counts");
    let answer = configs(
        "orders",
        0,
        &[
            ("min.insync.replicas", "2"),
            ("cleanup.policy", "compact"),
            ("retention.ms", "604800000"),
        ],
    );
    apply_configs(&mut f, &answer);
    assert_eq!(f.min_insync_replicas, Some(2));
    assert_eq!(f.cleanup_policy.as_deref(), Some("compact"));
    assert_eq!(f.retention_ms, Some(604_800_000));
    assert!(f.compact_only());
    f.cleanup_policy = Some("compact,delete".into());
    assert!(!f.compact_only(), "compact,delete also deletes by time");
}

#[test]
fn under_replicated_offline_and_leaderless_partitions() {
    let mut meta = metadata("orders", 0, &[3, 3, 3, 3]);
    {
        let parts = &mut meta.topics[0].partitions;
        // 1: a follower out of the ISR; 2: a replica offline (and out of
        // the ISR); 3: no leader elected.
        parts[1].isr_nodes = vec![BrokerId(1), BrokerId(2)];
        parts[2].isr_nodes = vec![BrokerId(1)];
        parts[2].offline_replicas = vec![BrokerId(3)];
        parts[3].leader_id = BrokerId(-1);
    }
    let meta = wire(&meta, 12);
    let f = from_metadata(&meta, "orders").unwrap();
    assert_eq!(f.replication_factor, 3, "assigned replicas, not the ISR");
    let h = |partition, in_sync, offline, has_leader| PartitionHealth {
        partition,
        replicas: 3,
        in_sync,
        offline,
        has_leader,
    };
    assert_eq!(
        f.degraded,
        [h(1, 2, 0, true), h(2, 1, 1, true), h(3, 3, 0, false)]
    );
    // A leader that is itself listed offline is no leader.
    let mut meta = metadata("orders", 0, &[3]);
    meta.topics[0].partitions[0].offline_replicas = vec![BrokerId(1)];
    let f = from_metadata(&wire(&meta, 12), "orders").unwrap();
    assert!(!f.degraded[0].has_leader);
    // Whole partitions: nothing degraded.
    let f = from_metadata(&metadata("orders", 0, &[3, 1]), "orders").unwrap();
    assert_eq!(f.degraded, []);
}

#[test]
fn a_missing_topic_and_a_refused_one() {
    let f = from_metadata(&metadata("orders", 3, &[]), "orders").unwrap();
    assert!(!f.exists);
    let f = from_metadata(&metadata("other", 0, &[1]), "orders").unwrap();
    assert!(!f.exists, "an answer about another topic is not this one");
    let e = from_metadata(&metadata("orders", 29, &[]), "orders").unwrap_err();
    assert_eq!(
        e.detail,
        "Metadata of topic `orders`: TopicAuthorizationFailed (29)"
    );
}

#[test]
fn configs_not_reported_stay_unknown() {
    let mut f = from_metadata(&metadata("orders", 0, &[1]), "orders").unwrap();
    apply_configs(&mut f, &configs("orders", 0, &[]));
    assert_eq!(f.min_insync_replicas, None);
    assert_eq!(f.cleanup_policy, None);
    assert_eq!(f.configs_error, None);
    let mut f = from_metadata(&metadata("orders", 0, &[1]), "orders").unwrap();
    apply_configs(
        &mut f,
        &configs("orders", 29, &[("cleanup.policy", "delete")]),
    );
    assert_eq!(f.cleanup_policy, None, "an error's entries are not read");
    assert_eq!(
        f.configs_error.as_deref(),
        Some("DescribeConfigs: TopicAuthorizationFailed (29)")
    );
}

#[test]
fn bootstrap_lists() {
    assert_eq!(
        bootstrap("kafka://a:9093,b,[::1]:9094/x").unwrap(),
        ["a:9093", "b:9092", "[::1]:9094"]
    );
    assert!(bootstrap("kafka://").is_err());
    let e = bootstrap("kafka://u:secret@a:9092").unwrap_err();
    assert!(!e.detail.contains("secret"), "{}", e.detail);
    let e = bootstrap("kafka://a:9092?sasl.jaas.config=x%3D%22secret%22").unwrap_err();
    assert!(e.detail.contains("`sasl.jaas.config`"), "{}", e.detail);
    assert!(!e.detail.contains("secret"), "{}", e.detail);
    let e = bootstrap("kafka://a:9092?sasl.username=u&sasl.mechanism=PLAIN").unwrap_err();
    assert!(e.detail.contains("`sasl.username`"), "{}", e.detail);
    // The mechanism is a name, not a secret: it may be in the URL.
    assert_eq!(
        bootstrap("kafka://a:9092?SASL_MECHANISM=PLAIN").unwrap(),
        ["a:9092"]
    );
}

#[test]
fn tls_and_sasl_from_the_scheme_or_security_protocol() {
    let s = |url: &str| {
        let s = security(url).unwrap();
        (s.tls, s.sasl, s.mechanism)
    };
    assert_eq!(s("kafka://a:9092"), (false, false, None));
    assert_eq!(s("kafkas://a:9093"), (true, false, None));
    assert_eq!(s("kafka+ssl://a:9093"), (true, false, None));
    assert_eq!(
        s("kafka://a:9093?security.protocol=SSL"),
        (true, false, None)
    );
    assert_eq!(
        s("kafka://a:9093/?security_protocol=ssl"),
        (true, false, None)
    );
    assert_eq!(
        s("kafka://a?security.protocol=PLAINTEXT"),
        (false, false, None)
    );
    assert_eq!(
        s("kafka://a?security.protocol=SASL_SSL"),
        (true, true, None)
    );
    assert_eq!(
        s("kafka://a?security.protocol=SASL_PLAINTEXT&SASL.MECHANISM=PLAIN"),
        (false, true, Some("PLAIN".into()))
    );
    assert_eq!(
        s("kafkas://a?security.protocol=SASL_SSL&sasl.mechanism=SCRAM-SHA-512"),
        (true, true, Some("SCRAM-SHA-512".into()))
    );
    for (url, says) in [
        ("kafkas://a?security.protocol=PLAINTEXT", "PLAINTEXT"),
        (
            "kafkas://a?security.protocol=SASL_PLAINTEXT",
            "SASL_PLAINTEXT",
        ),
        ("kafka://a?security.protocol=TLS", "`TLS`"),
        ("kafka://a?sasl.mechanism=PLAIN", "sasl.mechanism"),
    ] {
        let e = security(url).unwrap_err();
        assert!(e.detail.contains(says), "{url}: {}", e.detail);
    }
    assert_eq!(
        bootstrap("kafkas://a:9093?security.protocol=SSL").unwrap(),
        ["a:9093"]
    );
}

#[test]
fn a_client_certificate_needs_both_files() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_string())
        }
    };
    assert!(client_cert(&env(&[])).unwrap().is_none());
    let both = client_cert(&env(&[(CERT_ENV, "c.pem"), (KEY_ENV, "k.pem")])).unwrap();
    assert_eq!(both.unwrap().key, std::path::PathBuf::from("k.pem"));
    let e = client_cert(&env(&[(CERT_ENV, "c.pem")])).unwrap_err();
    assert!(e.detail.contains(KEY_ENV), "{}", e.detail);
    let e = client_cert(&env(&[(KEY_ENV, "k.pem")])).unwrap_err();
    assert!(e.detail.contains(CERT_ENV), "{}", e.detail);
}
