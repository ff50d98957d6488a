//! What a probe observed, engine-neutral where the question is the same
//! (PostgreSQL and MariaDB/MySQL both answer "are writes synchronous?",
//! "is the log archived?"), so the PR rules compare one shape.

/// The observed facts of one system.
#[derive(Debug, Clone, PartialEq)]
pub enum Facts {
    Db(DbFacts),
    Redis(RedisFacts),
    Stream(StreamFacts),
    Queue(QueueFacts),
    ManagedQueue(ManagedQueueFacts),
    Topic(TopicFacts),
}

macro_rules! facts_of {
    ($($fn:ident: $variant:ident($ty:ty)),* $(,)?) => {
        impl Facts {
            $(
                /// These facts, when they are of this kind.
                pub fn $fn(&self) -> Option<&$ty> {
                    match self {
                        Facts::$variant(f) => Some(f),
                        _ => None,
                    }
                }
            )*
        }
    };
}

facts_of! {
    db: Db(DbFacts),
    redis: Redis(RedisFacts),
    stream: Stream(StreamFacts),
    queue: Queue(QueueFacts),
    managed_queue: ManagedQueue(ManagedQueueFacts),
    topic: Topic(TopicFacts),
}

/// A Kafka topic, as the admin protocol (Metadata, DescribeConfigs) shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TopicFacts {
    pub topic: String,
    pub exists: bool,
    /// Brokers in the cluster's Metadata answer.
    pub brokers: usize,
    pub partitions: usize,
    /// Replicas of the topic's least replicated partition.
    pub replication_factor: usize,
    /// The topic's configs; `None`: the broker did not report the entry.
    pub min_insync_replicas: Option<i64>,
    pub cleanup_policy: Option<String>,
    /// `-1`: kept forever.
    pub retention_ms: Option<i64>,
    /// Why no configs were read (refused, not offered), when the broker said.
    pub configs_error: Option<String>,
    /// The partitions that are not whole now, in partition order.
    pub degraded: Vec<PartitionHealth>,
}

/// A partition that is under-replicated (fewer in-sync replicas than
/// replicas, or a replica offline) or has no leader, as Metadata shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PartitionHealth {
    pub partition: i32,
    pub replicas: usize,
    pub in_sync: usize,
    pub offline: usize,
    /// `false`: the leader is `-1` (none elected) or one of the offline replicas.
    pub has_leader: bool,
}

impl TopicFacts {
    /// `cleanup.policy` keeps only the latest record per key (`compact`
    /// without `delete`): older events of a key are gone, whatever the retention.
    pub fn compact_only(&self) -> bool {
        self.cleanup_policy.as_deref().is_some_and(|p| {
            let parts: Vec<&str> = p.split(',').map(str::trim).collect();
            parts.contains(&"compact") && !parts.contains(&"delete")
        })
    }
}

/// A RabbitMQ queue, as far as AMQP shows it to a client.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct QueueFacts {
    pub queue: String,
    pub exists: bool,
    pub product: String,
    pub version: String,
    /// The server offers publisher confirms (whether producers use them is
    /// not visible from outside).
    pub publisher_confirms: bool,
    pub messages: u64,
    pub consumers: u64,
}

/// A RabbitMQ queue as its management API shows it: what AMQP cannot.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ManagedQueueFacts {
    pub queue: String,
    pub vhost: String,
    pub exists: bool,
    /// `quorum`, `classic` or `stream`.
    pub kind: String,
    pub durable: bool,
    /// The copies of the queue's messages (a classic queue keeps one).
    pub replicas: usize,
    /// The effective `x-dead-letter-exchange` (argument, else policy).
    pub dead_letter_exchange: Option<String>,
    /// The effective `x-delivery-limit`: redeliveries after the first
    /// delivery, so a message is delivered up to limit + 1 times (quorum only).
    pub delivery_limit: Option<i64>,
}

/// A NATS JetStream stream and the durable consumers the contract names.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StreamFacts {
    pub stream: String,
    pub exists: bool,
    /// Publish deduplication by `Nats-Msg-Id`, in milliseconds (0: none).
    pub duplicate_window_ms: i64,
    pub replicas: usize,
    pub consumers: Vec<ConsumerFacts>,
}

/// One durable consumer (named like the contract's consumer group).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ConsumerFacts {
    pub name: String,
    pub exists: bool,
    /// `explicit`, `all` or `none`.
    pub ack_policy: String,
    /// Deliveries of one message, the first included (-1: unlimited).
    pub max_deliver: i64,
    pub backoff_ms: Vec<i64>,
    /// Messages delivered and not yet acknowledged, at most (-1: unlimited).
    pub max_ack_pending: i64,
}

/// A database server: PostgreSQL or MariaDB/MySQL.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DbFacts {
    /// `postgresql`, `mariadb` or `mysql`.
    pub product: &'static str,
    /// The numeric server version (`15.20`, `10.11.19`).
    pub version: String,
    /// Whether a commit waits for a standby (a sync standby is configured,
    /// or semi-sync is on), and the settings that say so.
    pub sync_replication: bool,
    pub sync_detail: String,
    /// Streaming replicas connected now; `None` where the engine does not
    /// show them to a read-only session.
    pub replicas: Option<Vec<Replica>>,
    /// Whether the write-ahead log / binlog is archived continuously, and the
    /// settings that say so; `archive_kind` is the `backup.types` value it backs.
    pub archive: bool,
    pub archive_detail: String,
    pub archive_kind: &'static str,
    pub max_connections: Option<i64>,
    /// Server defaults that bound a session (PostgreSQL), in milliseconds (0 = never).
    pub timeouts: Vec<(&'static str, i64)>,
    /// Binlog format and GTID (MariaDB/MySQL).
    pub binlog: Option<Binlog>,
    /// The row estimate of every table the contract names.
    pub tables: Vec<TableRows>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replica {
    pub name: String,
    pub state: String,
    pub sync_state: String,
    /// Replay lag in milliseconds, when the server reports one.
    pub replay_lag_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binlog {
    pub format: String,
    pub gtid: bool,
    pub gtid_detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRows {
    /// The name as the contract writes it.
    pub name: String,
    /// `None`: no such table. `Some(None)`: it exists but was never analysed.
    pub rows: Option<Option<u128>>,
}

/// A Redis server used as a dedup tier.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RedisFacts {
    pub version: String,
    pub maxmemory_policy: String,
    pub appendonly: bool,
    /// The `save` schedule (empty: no RDB snapshots); `None` when CONFIG is refused.
    pub save: Option<String>,
    pub role: String,
    pub connected_replicas: i64,
}

impl RedisFacts {
    /// Something survives a restart: AOF, or RDB snapshots on a schedule.
    pub fn persistent(&self) -> bool {
        self.appendonly || self.save.as_deref().is_some_and(|s| !s.trim().is_empty())
    }
}

/// `15.20 (Debian …)` -> `15.20`; `10.11.19-MariaDB-0+deb12u1` -> `10.11.19`.
pub fn numeric_version(v: &str) -> String {
    v.trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect::<String>()
        .trim_end_matches('.')
        .to_string()
}

/// Does the observed version satisfy the declared one? Only the parts the
/// contract writes are compared: `16` matches 16.4, `16.4` does not match 16.5.
pub fn version_matches(declared: &str, observed: &str) -> bool {
    let d = numeric_version(declared);
    let o = numeric_version(observed);
    let mut o = o.split('.').chain(std::iter::repeat("0"));
    !d.is_empty()
        && d.split('.')
            .all(|a| a.parse::<u64>().ok() == o.next().and_then(|b| b.parse::<u64>().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_on_the_declared_parts() {
        assert_eq!(numeric_version("15.20 (Debian 15.20-0+deb12u1)"), "15.20");
        assert_eq!(numeric_version("10.11.19-MariaDB-0+deb12u1"), "10.11.19");
        assert!(version_matches("15", "15.20"));
        assert!(version_matches("15.20", "15.20"));
        assert!(!version_matches("16.4", "15.20"));
        assert!(!version_matches("15.2", "15.20"));
        assert!(version_matches("10.11", "10.11.19"));
        assert!(!version_matches("", "15.20"));
    }
}
