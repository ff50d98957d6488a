//! `platcheck probe`: read-only sessions to the systems the contracts name,
//! turned into plain observed facts that the PR rules compare with what the
//! contracts declare. A probe never writes (read-only sessions and
//! transactions, only reads), always has a time limit, and a failure is data
//! (`Failure`) so one unreachable system never stops the others.
use crate::contracts::yaml::Node;
use crate::contracts::{Contract, Kind};
use crate::settings::ProbeSettings;
use crate::workspace::Workspace;
use rayon::prelude::*;
use std::time::Duration;

pub mod facts;
pub mod kafka;
mod kafka_sasl;
mod kafka_wire;
pub mod mysql;
pub mod nats;
pub mod postgres;
pub mod rabbitmq;
pub mod rabbitmq_admin;
pub mod redact;
pub mod redis;
mod target;

pub use facts::{
    ConsumerFacts, DbFacts, Facts, ManagedQueueFacts, PartitionHealth, QueueFacts, RedisFacts,
    Replica, StreamFacts, TableRows, TopicFacts,
};
pub use target::{Role, Target, resolve};

/// Every probe of a run, in contract order.
#[derive(Debug, Default)]
pub struct Observations {
    pub probes: Vec<Probe>,
}

/// One system probed for one contract.
#[derive(Debug)]
pub struct Probe {
    /// Index into `Workspace::contracts`.
    pub contract: usize,
    pub role: Role,
    /// The target name (`orders-db`, `order-confirmed.dedup`).
    pub name: String,
    /// The URL with its password redacted: safe in any output.
    pub shown: String,
    /// Where the contract says how to reach it (a finding's location).
    pub pointer: String,
    pub result: Result<Facts, Failure>,
}

/// Why a system could not be probed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong, with every credential already redacted.
    pub detail: String,
}

impl Failure {
    pub fn new(detail: impl Into<String>) -> Failure {
        Failure {
            detail: detail.into(),
        }
    }
}

impl Observations {
    /// The successful probe of `contract` whose facts `pick` accepts: one
    /// lookup for every kind, so the accessors below differ only in `pick`.
    pub fn find<T>(
        &self,
        contract: usize,
        pick: impl Fn(&Facts) -> Option<&T>,
    ) -> Option<(&Probe, &T)> {
        self.probes.iter().find_map(|p| match &p.result {
            Ok(f) if p.contract == contract => pick(f).map(|t| (p, t)),
            _ => None,
        })
    }
    /// The database probe of a Cluster contract, when it succeeded.
    pub fn db(&self, contract: usize) -> Option<(&Probe, &DbFacts)> {
        self.find(contract, Facts::db)
    }
    /// The broker probe of an EventBoundary (NATS JetStream), when it succeeded.
    pub fn stream(&self, contract: usize) -> Option<(&Probe, &StreamFacts)> {
        self.find(contract, Facts::stream)
    }
    /// The broker probe of an EventBoundary (RabbitMQ), when it succeeded.
    pub fn queue(&self, contract: usize) -> Option<(&Probe, &QueueFacts)> {
        self.find(contract, Facts::queue)
    }
    /// The management-API probe of an EventBoundary's RabbitMQ queue, when it succeeded.
    pub fn managed_queue(&self, contract: usize) -> Option<(&Probe, &ManagedQueueFacts)> {
        self.find(contract, Facts::managed_queue)
    }
    /// The broker probe of an EventBoundary (Kafka), when it succeeded.
    pub fn topic(&self, contract: usize) -> Option<(&Probe, &TopicFacts)> {
        self.find(contract, Facts::topic)
    }
    /// The Redis dedup-tier probe of an EventBoundary, when it succeeded.
    pub fn redis(&self, contract: usize) -> Option<(&Probe, &RedisFacts)> {
        self.find(contract, Facts::redis)
    }
}

/// Probes every target the contracts, flags and config name, in parallel
/// (each under its own time limit); the result is in contract order.
pub fn probe(ws: &Workspace, settings: &ProbeSettings) -> Observations {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let targets: Vec<Target> = ws
        .contracts
        .iter()
        .enumerate()
        .flat_map(|(i, c)| resolve(i, c, settings, &env))
        .collect();
    let probes = targets
        .into_par_iter()
        .map(|t| run_one(ws, t, settings.timeout))
        .collect();
    Observations { probes }
}

fn run_one(ws: &Workspace, t: Target, timeout: Duration) -> Probe {
    let contract = &ws.contracts[t.contract];
    let result = match &t.url {
        Err(f) => Err(f.clone()),
        Ok(url) => {
            let secrets = redact::secrets(url);
            let names = Names {
                tables: tables_of(contract),
                stream: stream_of(contract),
                queue: queue_of(contract),
                topic: topic_of(contract),
                vhost: vhost_of(contract),
                consumers: groups_of(contract),
            };
            let (url, role) = (url.clone(), t.role);
            // The drivers bound connecting and each query themselves, but a
            // server that accepts and then says nothing can stall a handshake
            // no driver times out: the probe runs on its own thread and is
            // abandoned (its socket with it) when the time limit passes.
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(dispatch(role, &url, &names, timeout));
            });
            let r = rx.recv_timeout(timeout).unwrap_or_else(|_| {
                Err(Failure::new(format!(
                    "no answer within the probe time limit ({}s)",
                    timeout.as_secs_f64()
                )))
            });
            // Driver messages may echo parts of the URL: scrub them all.
            r.map_err(|mut f| {
                f.detail = redact::scrub(&f.detail, &secrets);
                f
            })
        }
    };
    Probe {
        contract: t.contract,
        role: t.role,
        name: t.name,
        shown: t.shown,
        pointer: t.pointer,
        result,
    }
}

/// What the contract names on a system: tables, a stream and its consumers.
struct Names {
    tables: Vec<String>,
    stream: String,
    queue: String,
    topic: String,
    vhost: String,
    consumers: Vec<String>,
}

/// The probe for a role and URL scheme.
fn dispatch(role: Role, url: &str, names: &Names, timeout: Duration) -> Result<Facts, Failure> {
    let scheme = url.split_once("://").map_or("", |(s, _)| s);
    match (role, scheme) {
        (Role::Database, "postgres" | "postgresql") => {
            postgres::probe(url, &names.tables, timeout).map(Facts::Db)
        }
        (Role::Database, "mysql" | "mariadb") => {
            mysql::probe(url, &names.tables, timeout).map(Facts::Db)
        }
        (Role::Broker, "nats" | "tls") => {
            nats::probe(url, &names.stream, &names.consumers, timeout).map(Facts::Stream)
        }
        (Role::Broker, "amqp") => rabbitmq::probe(url, &names.queue, timeout).map(Facts::Queue),
        (Role::Management, "http" | "https") => {
            rabbitmq_admin::probe(url, &names.vhost, &names.queue, timeout).map(Facts::ManagedQueue)
        }
        (Role::Broker, "kafka" | "kafkas" | "kafka+ssl") => {
            kafka::probe(url, &names.topic, timeout).map(Facts::Topic)
        }
        (Role::Dedup, "redis" | "rediss") => redis::probe(url, timeout).map(Facts::Redis),
        _ => Err(Failure::new(format!("`{scheme}://` ({})", role.expects()))),
    }
}

/// The stream an EventBoundary names: `probe.stream`, else `broker.topic`.
fn stream_of(c: &Contract) -> String {
    c.get("/spec/probe/stream")
        .or_else(|| c.get("/spec/broker/topic"))
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The queue an EventBoundary names: `probe.queue`, else `broker.topic`.
fn queue_of(c: &Contract) -> String {
    c.get("/spec/probe/queue")
        .or_else(|| c.get("/spec/broker/topic"))
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The Kafka topic an EventBoundary names: `probe.topic`, else `broker.topic`.
fn topic_of(c: &Contract) -> String {
    c.get("/spec/probe/topic")
        .or_else(|| c.get("/spec/broker/topic"))
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The RabbitMQ vhost an EventBoundary names: `probe.vhost`, else `/`.
fn vhost_of(c: &Contract) -> String {
    c.get("/spec/probe/vhost")
        .and_then(Node::as_str)
        .unwrap_or("/")
        .to_string()
}

/// The consumer groups of an EventBoundary (their durable consumers' names).
fn groups_of(c: &Contract) -> Vec<String> {
    c.get("/spec/consumers")
        .map(|cs| {
            cs.as_seq()
                .iter()
                .filter_map(|g| g.get("group").and_then(Node::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The tables a Cluster names (`hot_tables`, then `table_rows` keys), once each.
pub fn tables_of(c: &Contract) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if c.kind != Kind::Cluster {
        return out;
    }
    let mut push = |t: &str| {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(t)) {
            out.push(t.to_string());
        }
    };
    if let Some(hot) = c.get("/spec/migrations/hot_tables") {
        for t in hot.as_seq().iter().filter_map(Node::as_str) {
            push(t);
        }
    }
    if let Some(rows) = c.get("/spec/migrations/table_rows") {
        for (k, _) in rows.entries() {
            push(&k.name);
        }
    }
    out
}
