//! The Kafka probe over the admin protocol: `Metadata` of the one topic
//! (partitions, replicas per partition) with topic auto-creation turned off,
//! then `DescribeConfigs` of that topic (`min.insync.replicas`,
//! `cleanup.policy`, `retention.ms`). Both are reads; nothing is created,
//! produced or committed. Permissions: `Describe` on the topic and
//! `DescribeConfigs` on the topic (ACLs), nothing on the cluster. Plain TCP,
//! or TLS for `kafkas://` (or `?security.protocol=SSL`), with a client
//! certificate when the environment names one (mTLS); SASL (PLAIN,
//! SCRAM-SHA-256/512) for `security.protocol=SASL_PLAINTEXT|SASL_SSL`, its
//! credentials from the environment only: a `kafka://user:pass@…` URL or a
//! `sasl.password` parameter is refused with a finding, never tried.
use super::Failure;
use super::facts::{PartitionHealth, TopicFacts};
use super::kafka_sasl;
use super::kafka_wire::{ClientCert, Conn, error};
use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::metadata_response::MetadataResponsePartition;
use kafka_protocol::messages::{
    DescribeConfigsRequest, DescribeConfigsResponse, MetadataRequest, MetadataResponse, TopicName,
};
use kafka_protocol::protocol::StrBytes;
use std::time::{Duration, Instant};

/// `ConfigResource.Type.TOPIC` in the protocol.
const TOPIC_RESOURCE: i8 = 2;
/// Metadata v4 is the first that can say "do not create the topic".
const METADATA_MIN: i16 = 4;

/// The client certificate chain and its key (PEM files) for mTLS.
pub const CERT_ENV: &str = "PLATCHECK_KAFKA_SSL_CERT";
pub const KEY_ENV: &str = "PLATCHECK_KAFKA_SSL_KEY";

pub fn probe(url: &str, topic: &str, timeout: Duration) -> Result<TopicFacts, Failure> {
    probe_with(url, topic, timeout, &|k| std::env::var(k).ok())
}

/// The probe with the environment passed in (the unit tests give their own).
pub fn probe_with(
    url: &str,
    topic: &str,
    timeout: Duration,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<TopicFacts, Failure> {
    if topic.is_empty() {
        return Err(Failure::new(
            "the contract names no topic (probe.topic or broker.topic)",
        ));
    }
    let hosts = bootstrap(url)?;
    let security = security(url)?;
    // Credentials are read (and a missing one said) before any connection.
    let creds = match security.sasl {
        true => Some(kafka_sasl::credentials(security.mechanism.as_deref(), env)?),
        false => None,
    };
    let tls = if security.tls {
        Some(super::kafka_wire::tls_config(client_cert(env)?.as_ref())?)
    } else {
        None
    };
    let mut conn = Conn::open(&hosts, tls.as_ref(), Instant::now() + timeout)?;
    if let Some(creds) = &creds {
        kafka_sasl::authenticate(&mut conn, creds)?;
    }
    let Some(version) = conn.version::<MetadataRequest>(METADATA_MIN) else {
        return Err(Failure::new(
            "the broker offers no Metadata version >= 4 (the first that does not auto-create a topic it is asked about): not probed",
        ));
    };
    let request = MetadataRequest::default()
        .with_topics(Some(vec![MetadataRequestTopic::default().with_name(Some(
            TopicName(StrBytes::from_string(topic.to_string())),
        ))]))
        .with_allow_auto_topic_creation(false);
    let meta = conn.send(&request, version)?;
    let mut facts = from_metadata(&meta, topic)?;
    if !facts.exists {
        return Ok(facts);
    }
    match conn.version::<DescribeConfigsRequest>(1) {
        None => {
            facts.configs_error = Some("the broker offers no DescribeConfigs version".into());
        }
        Some(v) => {
            let resource = DescribeConfigsResource::default()
                .with_resource_type(TOPIC_RESOURCE)
                .with_resource_name(StrBytes::from_string(topic.to_string()))
                // All of the topic's configs (what `kafka-configs --describe`
                // asks): a list of names is refused by a broker here (Tansu
                // 0.6 cannot decode it), and the answer is a few kilobytes.
                .with_configuration_keys(None);
            let request = DescribeConfigsRequest::default().with_resources(vec![resource]);
            let answer = conn.send(&request, v)?;
            apply_configs(&mut facts, &answer);
        }
    }
    Ok(facts)
}

/// The client certificate the environment names, both files or neither.
fn client_cert(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<ClientCert>, Failure> {
    let get = |k: &str| env(k).filter(|v| !v.is_empty());
    match (get(CERT_ENV), get(KEY_ENV)) {
        (None, None) => Ok(None),
        (Some(cert), Some(key)) => Ok(Some(ClientCert {
            cert: cert.into(),
            key: key.into(),
        })),
        (Some(_), None) => Err(Failure::new(format!(
            "{CERT_ENV} is set but {KEY_ENV} is not: a client certificate needs its key"
        ))),
        (None, Some(_)) => Err(Failure::new(format!(
            "{KEY_ENV} is set but {CERT_ENV} is not: a client key needs its certificate"
        ))),
    }
}

/// What the URL asks of the connection.
#[derive(Debug, PartialEq, Eq)]
pub struct Security {
    pub tls: bool,
    pub sasl: bool,
    /// `?sasl.mechanism=` (a name, not a secret).
    pub mechanism: Option<String>,
}

/// The scheme `kafkas://` (or `kafka+ssl://`) is TLS; the client setting
/// `security.protocol` as a query parameter says PLAINTEXT (the default),
/// SSL, SASL_PLAINTEXT or SASL_SSL, as a Kafka client's config does.
pub fn security(url: &str) -> Result<Security, Failure> {
    let (scheme, rest) = url.split_once("://").unwrap_or(("kafka", url));
    let by_scheme = matches!(scheme, "kafkas" | "kafka+ssl");
    let query = rest.split_once('?').map_or("", |(_, q)| q);
    let query = query.split('#').next().unwrap_or("");
    let param = |names: &[&str]| {
        query.split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            names
                .iter()
                .any(|n| n.eq_ignore_ascii_case(k))
                .then(|| v.to_string())
        })
    };
    let protocol = param(&["security.protocol", "security_protocol"]);
    let mechanism = param(&["sasl.mechanism", "sasl_mechanism"]);
    let (tls, sasl) = match protocol.map(|p| p.to_ascii_uppercase()).as_deref() {
        None => (by_scheme, false),
        Some("SSL") => (true, false),
        Some("SASL_SSL") => (true, true),
        Some(p @ ("PLAINTEXT" | "SASL_PLAINTEXT")) if by_scheme => {
            return Err(Failure::new(format!(
                "`{scheme}://` is TLS but security.protocol says {p}: not probed"
            )));
        }
        Some("PLAINTEXT") => (false, false),
        Some("SASL_PLAINTEXT") => (false, true),
        Some(p) => {
            return Err(Failure::new(format!(
                "security.protocol `{p}` is none of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL: not probed"
            )));
        }
    };
    if mechanism.is_some() && !sasl {
        return Err(Failure::new(
            "the URL names sasl.mechanism but security.protocol is not SASL_PLAINTEXT or SASL_SSL: not probed",
        ));
    }
    Ok(Security {
        tls,
        sasl,
        mechanism,
    })
}

/// The bootstrap `host:port` list of `kafka://h1:9092,h2:9092[/…]`.
pub fn bootstrap(url: &str) -> Result<Vec<String>, Failure> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err(Failure::new(format!(
            "the kafka:// URL carries credentials; the probe reads SASL credentials from {} and {} only: not probed",
            kafka_sasl::USERNAME_ENV,
            kafka_sasl::PASSWORD_ENV
        )));
    }
    // SASL credentials pasted as parameters (`sasl.password`,
    // `sasl.jaas.config`, …) are refused the same way, never used and never
    // silently dropped; only the mechanism's name may be in the URL.
    let query = rest.split_once('?').map_or("", |(_, q)| q);
    if let Some(key) = query
        .split(['&', '#'])
        .filter_map(|kv| kv.split('=').next())
        .find(|k| {
            let k = k.to_ascii_lowercase();
            k.starts_with("sasl") && !matches!(k.as_str(), "sasl.mechanism" | "sasl_mechanism")
        })
    {
        return Err(Failure::new(format!(
            "the kafka:// URL carries the SASL setting `{key}`; the probe reads SASL credentials from {} and {} only: not probed",
            kafka_sasl::USERNAME_ENV,
            kafka_sasl::PASSWORD_ENV
        )));
    }
    let hosts: Vec<String> = authority
        .split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .map(|h| {
            // `[::1]:9092`, `host:9092`, `host` (the default port).
            let has_port = h.rsplit_once(':').is_some_and(|(a, p)| {
                !p.is_empty()
                    && p.bytes().all(|b| b.is_ascii_digit())
                    && (!a.contains(':') || a.ends_with(']'))
            });
            if has_port {
                h.to_string()
            } else {
                format!("{h}:9092")
            }
        })
        .collect();
    if hosts.is_empty() {
        return Err(Failure::new("the kafka:// URL names no broker"));
    }
    Ok(hosts)
}

/// The topic in a Metadata answer: missing, refused, or its partitions.
pub fn from_metadata(meta: &MetadataResponse, topic: &str) -> Result<TopicFacts, Failure> {
    let mut facts = TopicFacts {
        topic: topic.to_string(),
        brokers: meta.brokers.len(),
        ..TopicFacts::default()
    };
    let Some(t) = meta
        .topics
        .iter()
        .find(|t| t.name.as_ref().is_some_and(|n| n.0.as_str() == topic))
    else {
        return Ok(facts);
    };
    match t.error_code {
        0 => {}
        // UNKNOWN_TOPIC_OR_PARTITION: the topic is not there.
        3 => return Ok(facts),
        code => return Err(error(&format!("Metadata of topic `{topic}`"), code, None)),
    }
    facts.exists = true;
    facts.partitions = t.partitions.len();
    // The weakest partition is the topic's durability.
    facts.replication_factor = t
        .partitions
        .iter()
        .map(|p| p.replica_nodes.len())
        .min()
        .unwrap_or(0);
    facts.degraded = t.partitions.iter().filter_map(health).collect();
    facts.degraded.sort_by_key(|h| h.partition);
    Ok(facts)
}

/// A partition that is not whole: an in-sync set smaller than its
/// replicas, a replica the broker lists as offline, or no live leader
/// (`None`: the partition is whole).
fn health(p: &MetadataResponsePartition) -> Option<PartitionHealth> {
    let leader = p.leader_id.0;
    let h = PartitionHealth {
        partition: p.partition_index,
        replicas: p.replica_nodes.len(),
        in_sync: p.isr_nodes.len(),
        offline: p.offline_replicas.len(),
        has_leader: leader >= 0 && !p.offline_replicas.iter().any(|r| r.0 == leader),
    };
    (h.in_sync < h.replicas || h.offline > 0 || !h.has_leader).then_some(h)
}

/// The topic's configs from a DescribeConfigs answer; an entry the broker
/// did not send stays `None` (said as unchecked by the rules, never assumed).
pub fn apply_configs(facts: &mut TopicFacts, answer: &DescribeConfigsResponse) {
    let Some(result) = answer
        .results
        .iter()
        .find(|r| r.resource_type == TOPIC_RESOURCE && r.resource_name.as_str() == facts.topic)
    else {
        facts.configs_error = Some("the DescribeConfigs answer has no entry for the topic".into());
        return;
    };
    if result.error_code != 0 {
        let f = error(
            "DescribeConfigs",
            result.error_code,
            result.error_message.as_ref(),
        );
        facts.configs_error = Some(f.detail);
        return;
    }
    let value = |key: &str| {
        result
            .configs
            .iter()
            .find(|c| c.name.as_str() == key)
            .and_then(|c| c.value.as_ref())
            .map(|v| v.as_str().trim().to_string())
    };
    facts.min_insync_replicas = value("min.insync.replicas").and_then(|v| v.parse().ok());
    facts.cleanup_policy = value("cleanup.policy");
    facts.retention_ms = value("retention.ms").and_then(|v| v.parse().ok());
}

#[cfg(test)]
#[path = "kafka_tests.rs"]
mod tests;
