//! Which systems to probe and how to reach them: `--target NAME=URL` wins,
//! then the environment variable the contract names (`probe.url_env`), then
//! the one the config names (`probe.targets`). A contract none of them names
//! is not probed; one that names a variable that is unset is a finding.
use super::{Failure, redact};
use crate::contracts::yaml::Node;
use crate::contracts::{Contract, Kind};
use crate::settings::ProbeSettings;

/// What a probed system is to its contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A Cluster's database (postgres://, mysql://).
    Database,
    /// An EventBoundary's broker (nats://, amqp://, kafka://, kafkas://).
    Broker,
    /// An EventBoundary's Redis dedup tier (redis://).
    Dedup,
    /// An EventBoundary's RabbitMQ management API (http://).
    Management,
}

impl Role {
    /// The URL schemes the role accepts, for a wrong-scheme message.
    pub fn expects(self) -> &'static str {
        match self {
            Role::Database => "a Cluster probes postgres://, postgresql://, mysql:// or mariadb://",
            Role::Broker => {
                "an EventBoundary's broker probes nats://, amqp://, kafka:// or kafkas://"
            }
            Role::Dedup => "a dedup tier probes redis:// or rediss://",
            Role::Management => "a RabbitMQ management target probes http:// (not https://)",
        }
    }
}

/// One system to probe.
#[derive(Debug)]
pub struct Target {
    pub contract: usize,
    pub role: Role,
    pub name: String,
    /// The URL, or why there is none.
    pub url: Result<String, Failure>,
    /// The URL redacted, or where it should have come from.
    pub shown: String,
    pub pointer: String,
}

/// The targets of one contract (none when nothing names one).
pub fn resolve(
    index: usize,
    c: &Contract,
    settings: &ProbeSettings,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<Target> {
    let roles: &[(Role, &str, &str)] = match c.kind {
        Kind::Cluster => &[(Role::Database, "", "url_env")],
        Kind::EventBoundary => &[
            (Role::Broker, "", "url_env"),
            (Role::Dedup, ".dedup", "dedup_url_env"),
            (Role::Management, ".management", "management_url_env"),
        ],
    };
    let mut out = Vec::new();
    for &(role, suffix, key) in roles {
        let name = format!("{}{suffix}", c.name);
        let pointer = format!("/spec/probe/{key}");
        let from_flag = settings
            .targets
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, u)| u.clone());
        let contract_env = c
            .get(&pointer)
            .and_then(Node::as_str)
            .map(|v| (v.to_string(), pointer.clone()));
        let config_env = settings
            .target_envs
            .get(&name)
            .map(|v| (v.clone(), "/metadata/name".to_string()));
        let (url, pointer) = match (from_flag, contract_env.or(config_env)) {
            (Some(url), _) => (Ok(url), "/metadata/name".to_string()),
            (None, Some((var, at))) => match env(&var) {
                Some(url) => (Ok(url), at),
                None => (
                    Err(Failure::new(format!(
                        "environment variable {var} is not set"
                    ))),
                    at,
                ),
            },
            (None, None) => continue,
        };
        let shown = match &url {
            Ok(u) => redact::url(u),
            Err(_) => name.clone(),
        };
        out.push(Target {
            contract: index,
            role,
            name,
            url,
            shown,
            pointer,
        });
    }
    out
}
