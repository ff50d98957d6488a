//! Words: the vendor names a document's "Sanitization boundary" header lists
//! (MR006), and whether a forbidden token is a plain English word that
//! ordinary prose will hit (MR007).
use super::doc::{Doc, Para};

/// The names in the first parenthesised list of the Sanitization boundary
/// paragraph: "(Kafka, Pulsar, RabbitMQ, …, etc.)".
pub fn vendors(para: &Para) -> Vec<String> {
    let Some(open) = para.text.find('(') else {
        return Vec::new();
    };
    let rest = &para.text[open + 1..];
    let inner = rest.find(')').map_or(rest, |c| &rest[..c]);
    inner
        .split([',', ';'])
        .map(|v| {
            v.trim()
                .trim_start_matches("and ")
                .trim_start_matches("or ")
                .trim_matches(['`', '*', '_'])
                .trim()
        })
        .filter(|v| !v.is_empty() && !v.starts_with("etc") && v.len() <= 40)
        .map(str::to_string)
        .collect()
}

/// Every mirrored-region line naming `vendor` as a whole word, outside the
/// Sanitization boundary paragraph itself: `(line, byte start, byte end)`.
pub fn mentions(doc: &Doc, para: &Para, vendor: &str) -> Vec<(usize, usize, usize)> {
    let Some(re) = super::whole_word(vendor) else {
        return Vec::new();
    };
    doc.region()
        .filter(|(n, _)| *n < para.first || *n > para.last)
        .filter_map(|(n, l)| {
            re.find(l.text)
                .map(|m| (n, l.start + m.start(), l.start + m.end()))
        })
        .collect()
}

/// A token that is nothing but a lowercase English word, without anchors:
/// `databases` also matches "the databases we run" in prose.
pub fn plain_english(token: &str) -> bool {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_lowercase()) {
        return false;
    }
    let stems = [
        Some(token),
        token.strip_suffix('s'),
        token.strip_suffix("es"),
        token.strip_suffix("ing"),
        token.strip_suffix("ed"),
        token.strip_suffix("ed").map(|_| &token[..token.len() - 1]),
    ];
    stems
        .into_iter()
        .flatten()
        .any(|s| WORDS.binary_search(&s).is_ok())
        || token
            .strip_suffix("ies")
            .is_some_and(|s| WORDS.binary_search(&format!("{s}y").as_str()).is_ok())
}

/// Common English words of architecture prose, and English words that are
/// also library names (the likely false hits). Sorted for binary search.
const WORDS: &[&str] = &[
    "access",
    "account",
    "action",
    "adapter",
    "agent",
    "alert",
    "apply",
    "archive",
    "arrow",
    "atlas",
    "attempt",
    "audit",
    "backend",
    "backoff",
    "backup",
    "balance",
    "batch",
    "black",
    "block",
    "boundary",
    "broker",
    "buffer",
    "build",
    "bundle",
    "cache",
    "call",
    "celery",
    "change",
    "channel",
    "check",
    "click",
    "client",
    "clock",
    "cluster",
    "column",
    "command",
    "commit",
    "config",
    "connect",
    "connection",
    "consumer",
    "context",
    "contract",
    "control",
    "cursor",
    "data",
    "database",
    "deadline",
    "delay",
    "deploy",
    "driver",
    "engine",
    "error",
    "event",
    "exchange",
    "export",
    "fabric",
    "failover",
    "fence",
    "fetch",
    "field",
    "filter",
    "flask",
    "flow",
    "format",
    "gate",
    "goose",
    "graph",
    "guard",
    "handler",
    "health",
    "hook",
    "import",
    "index",
    "job",
    "journal",
    "key",
    "lease",
    "ledger",
    "limit",
    "listener",
    "lock",
    "log",
    "logger",
    "loop",
    "mapper",
    "marshmallow",
    "message",
    "migration",
    "model",
    "monitor",
    "mutex",
    "node",
    "offset",
    "order",
    "outbox",
    "package",
    "partition",
    "peewee",
    "pendulum",
    "pipeline",
    "plan",
    "pool",
    "primary",
    "process",
    "producer",
    "proxy",
    "publish",
    "query",
    "queue",
    "rate",
    "reader",
    "record",
    "region",
    "registry",
    "replay",
    "replica",
    "request",
    "requests",
    "retry",
    "rich",
    "router",
    "rule",
    "runner",
    "schedule",
    "scheduler",
    "schema",
    "service",
    "session",
    "shard",
    "signal",
    "sink",
    "snapshot",
    "socket",
    "source",
    "spanner",
    "stream",
    "subscriber",
    "table",
    "task",
    "tenacity",
    "tenant",
    "thread",
    "timeout",
    "timer",
    "token",
    "topic",
    "tortoise",
    "trace",
    "tracer",
    "transaction",
    "trigger",
    "typer",
    "version",
    "view",
    "wait",
    "worker",
    "writer",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_sorted_and_found() {
        assert!(WORDS.windows(2).all(|w| w[0] < w[1]), "keep WORDS sorted");
        assert!(plain_english("databases"));
        assert!(plain_english("tenacity"));
        assert!(plain_english("queries"));
        assert!(!plain_english("asyncpg"));
        assert!(!plain_english(r"\bgoose\b"));
        assert!(!plain_english("GORM"));
    }
}
