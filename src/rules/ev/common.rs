//! Shared vocabulary of the EV and XR rules: how a boundary's consumers,
//! effects and durations are read, so every rule judges them the same way.
use crate::catalog::RuleId;
use crate::contracts::units::Duration;
use crate::contracts::yaml::Node;
use crate::contracts::{Contract, leaf};
use crate::emit::Sink;
use std::cmp::Ordering;

/// Effect kinds a consumer's database transaction cannot include: they sit
/// outside the atomic domain (event-driven-architecture.md, "End-to-end
/// exactly-once illusion", clause 4).
pub const CROSS_SYSTEM: &[&str] = &[
    "external-api",
    "object-store",
    "broker-publish",
    "email",
    "sms",
    "payment",
];

/// Effect classes that may never be lost or applied twice ("Delivery
/// semantics taxonomy": source-of-truth, money, audit, regulated).
pub const CRITICAL: &[&str] = &["source-of-truth", "money", "audit", "regulated"];

pub fn is_cross_system(kind: &str) -> bool {
    CROSS_SYSTEM.contains(&kind)
}

pub fn is_critical(class: &str) -> bool {
    CRITICAL.contains(&class)
}

/// The string at `pointer`, if present and a string.
pub fn text<'a>(c: &'a Contract, pointer: &str) -> Option<&'a str> {
    c.get(pointer).and_then(Node::as_str)
}

/// Whether the boolean at `pointer` is present and `true`.
pub fn is_true(c: &Contract, pointer: &str) -> bool {
    c.get(pointer).and_then(Node::as_bool) == Some(true)
}

pub fn delivery(c: &Contract) -> Option<&str> {
    text(c, "/spec/delivery")
}

/// Consumers must be idempotent unless the boundary is declared at-most-once
/// ("Default to at-least-once unless the broker contract proves otherwise").
pub fn redelivers(c: &Contract) -> bool {
    delivery(c) != Some("at-most-once")
}

pub fn ordering_required(c: &Contract) -> bool {
    is_true(c, "/spec/ordering/required")
}

pub fn broker_kind(c: &Contract) -> Option<&str> {
    text(c, "/spec/broker/kind")
}

/// Brokers that assign partitions to group members and rebalance them.
pub fn partition_assigned(kind: Option<&str>) -> bool {
    matches!(kind, Some("kafka" | "pulsar"))
}

/// Ordered partitioned logs ("Backpressure": Kafka, Pulsar key-shared,
/// NATS JetStream ordered consumers).
pub fn partitioned_log(kind: Option<&str>) -> bool {
    matches!(kind, Some("kafka" | "pulsar" | "nats-jetstream"))
}

/// One consumer group of a boundary, with its pointer prefix.
pub struct Consumer<'a> {
    pub node: &'a Node,
    pub base: String,
    index: usize,
}

impl<'a> Consumer<'a> {
    /// The pointer of a key of this consumer (`rel` starts with `/`).
    pub fn ptr(&self, rel: &str) -> String {
        format!("{}{rel}", self.base)
    }
    pub fn get(&self, rel: &str) -> Option<&'a Node> {
        self.node.pointer(rel)
    }
    pub fn text(&self, rel: &str) -> Option<&'a str> {
        self.get(rel).and_then(Node::as_str)
    }
    pub fn is_true(&self, rel: &str) -> bool {
        self.get(rel).and_then(Node::as_bool) == Some(true)
    }
    /// The group name for messages (`consumers[2]` when it has none).
    /// The read model this consumer maintains, for messages.
    pub fn projection(&self) -> &'a str {
        self.text("/read_model/projection").unwrap_or("(unnamed)")
    }
    pub fn group(&self) -> String {
        match self.text("/group") {
            Some(g) if !g.trim().is_empty() => g.to_string(),
            _ => format!("consumers[{}]", self.index),
        }
    }
    /// Each declared effect with its pointer.
    pub fn effects(&self) -> impl Iterator<Item = Effect<'a>> + '_ {
        let items = self.get("/effects").map_or(&[][..], Node::as_seq);
        items.iter().enumerate().map(move |(i, node)| Effect {
            node,
            base: self.ptr(&format!("/effects/{i}")),
        })
    }
    pub fn has_cross_system_effect(&self) -> bool {
        self.effects()
            .any(|e| e.kind().is_some_and(is_cross_system))
    }
    /// Whether losing or repeating an effect of this consumer does harm:
    /// a critical class, or an irreversible effect outside the database.
    pub fn has_critical_effect(&self) -> bool {
        self.effects().any(|e| e.is_critical())
    }
}

/// One effect of a consumer.
pub struct Effect<'a> {
    pub node: &'a Node,
    pub base: String,
}

impl<'a> Effect<'a> {
    pub fn kind(&self) -> Option<&'a str> {
        self.node.get("kind").and_then(Node::as_str)
    }
    pub fn class(&self) -> Option<&'a str> {
        self.node.get("class").and_then(Node::as_str)
    }
    pub fn irreversible(&self) -> bool {
        self.node.get("irreversible").and_then(Node::as_bool) == Some(true)
    }
    pub fn is_critical(&self) -> bool {
        self.class().is_some_and(is_critical)
            || (self.irreversible() && self.kind().is_some_and(is_cross_system))
    }
}

/// Every consumer group of a boundary.
/// The services (sorted, distinct) of consumers other than the producer:
/// who crosses a service boundary to read this boundary's events.
pub fn other_consumer_services(c: &Contract) -> Vec<&str> {
    let producer = text(c, "/spec/producer/service");
    let mut others: Vec<&str> = consumers(c)
        .iter()
        .filter_map(|k| k.text("/service"))
        .filter(|s| Some(*s) != producer)
        .collect();
    others.sort_unstable();
    others.dedup();
    others
}

pub fn consumers(c: &Contract) -> Vec<Consumer<'_>> {
    let items = c.get("/spec/consumers").map_or(&[][..], Node::as_seq);
    items
        .iter()
        .enumerate()
        .map(|(index, node)| Consumer {
            node,
            base: format!("/spec/consumers/{index}"),
            index,
        })
        .collect()
}

/// The duration at `pointer`; unparseable values were reported by the loader.
pub fn duration(c: &Contract, pointer: &str) -> Option<Duration> {
    Duration::parse(c.get(pointer)?.as_str()?).ok()
}

/// Compares the durations at two pointers of one contract. When a calendar
/// unit makes the answer date-dependent, reports PC005 ("calendar") at the
/// calendar value and returns `None`, so the calling rule stays silent
/// rather than guess.
pub fn compare(c: &Contract, left: &str, right: &str, sink: &mut Sink) -> Option<Ordering> {
    let (l, r) = (duration(c, left)?, duration(c, right)?);
    let ord = l.compare(&r);
    if ord.is_none() {
        let at = if l.is_calendar() { left } else { right };
        let cal = if l.is_calendar() { l } else { r };
        calendar(
            c,
            at,
            format!("{} ({l})", leaf(left)),
            format!("{} ({r})", leaf(right)),
            cal,
            sink,
        );
    }
    ord
}

/// Like `compare`, for the value at `pointer` against a fixed limit of the rule.
pub fn compare_with(c: &Contract, pointer: &str, limit: &str, sink: &mut Sink) -> Option<Ordering> {
    let value = duration(c, pointer)?;
    let limit = Duration::parse(limit).ok()?;
    let ord = value.compare(&limit);
    if ord.is_none() {
        let left = format!("{} ({value})", leaf(pointer));
        calendar(c, pointer, left, format!("the limit {limit}"), value, sink);
    }
    ord
}

/// Like `compare_with`, against a duration the rule computed (`label` names
/// it in a PC005 when a calendar unit makes the answer date-dependent).
pub fn compare_with_duration(
    c: &Contract,
    pointer: &str,
    label: &str,
    limit: Duration,
    sink: &mut Sink,
) -> Option<Ordering> {
    let value = duration(c, pointer)?;
    let ord = value.compare(&limit);
    if ord.is_none() {
        let left = format!("{} ({value})", leaf(pointer));
        let cal = if value.is_calendar() { value } else { limit };
        calendar(c, pointer, left, format!("{label} ({limit})"), cal, sink);
    }
    ord
}

fn calendar(c: &Contract, at: &str, left: String, right: String, cal: Duration, sink: &mut Sink) {
    sink.push(
        c.report(RuleId::PC005, at)
            .variant("calendar")
            .var("left", left)
            .var("right", right)
            .var("calendar", cal),
    );
}

/// A scalar as written, or "not declared" when absent.
pub fn written(node: Option<&Node>) -> String {
    node.and_then(Node::scalar_text)
        .unwrap_or_else(|| "not declared".to_string())
}

/// `a, b and c` for messages.
pub fn and_list(items: &[impl AsRef<str>]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => format!(
            "{} and {}",
            init.iter()
                .map(AsRef::as_ref)
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// The strings of a sequence at `pointer` (non-strings are skipped).
pub fn strings(node: Option<&Node>) -> Vec<&str> {
    node.map_or(&[][..], Node::as_seq)
        .iter()
        .filter_map(Node::as_str)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contracts::Kind;
    use crate::contracts::yaml::parse_documents;
    use crate::source::SourceFile;

    fn boundary(spec: &str) -> Contract {
        let text = format!("metadata:\n  name: b\nspec:\n{spec}");
        let src = SourceFile::new("t.yaml", "t.yaml", &text);
        let root = parse_documents(&src).unwrap().remove(0);
        Contract::new(0, Kind::EventBoundary, "b".into(), root)
    }

    #[test]
    fn consumers_effects_and_group_names() {
        let c = boundary(
            "  consumers:\n    - group: ledger\n      effects:\n        - {kind: db-local, class: money}\n    - effects:\n        - {kind: email, class: derived, irreversible: true}\n        - {kind: db-local, class: derived}\n",
        );
        let all = consumers(&c);
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].group(), "ledger");
        assert_eq!(all[1].group(), "consumers[1]");
        assert_eq!(
            all[1].ptr("/idempotency/key"),
            "/spec/consumers/1/idempotency/key"
        );
        assert!(all[0].has_critical_effect() && !all[0].has_cross_system_effect());
        // An irreversible effect outside the database counts as critical.
        assert!(all[1].has_critical_effect() && all[1].has_cross_system_effect());
        let e: Vec<String> = all[1].effects().map(|e| e.base).collect();
        assert_eq!(
            e,
            ["/spec/consumers/1/effects/0", "/spec/consumers/1/effects/1"]
        );
    }

    #[test]
    fn absent_or_malformed_consumers_are_empty() {
        assert!(consumers(&boundary("  delivery: at-least-once\n")).is_empty());
        assert!(consumers(&boundary("  consumers: nope\n")).is_empty());
        let c = boundary("  consumers:\n    - group: g\n      effects: 3\n");
        assert_eq!(consumers(&c)[0].effects().count(), 0);
    }

    #[test]
    fn delivery_defaults_to_redelivering() {
        assert!(redelivers(&boundary("  shape: event\n")));
        assert!(redelivers(&boundary("  delivery: exactly-once\n")));
        assert!(!redelivers(&boundary("  delivery: at-most-once\n")));
        assert!(
            partitioned_log(Some("nats-jetstream")) && !partition_assigned(Some("nats-jetstream"))
        );
        assert!(!partitioned_log(Some("rabbitmq")) && !partitioned_log(None));
    }

    #[test]
    fn durations_compare_or_report_calendar_units() {
        let c = boundary("  redelivery:\n    max_interval: 1d\n  replay_window: 1mo\n  w: 36h\n");
        let mut sink = Sink::default();
        assert_eq!(
            compare(&c, "/spec/w", "/spec/redelivery/max_interval", &mut sink),
            Some(Ordering::Greater)
        );
        assert!(sink.reports.is_empty());
        assert_eq!(
            compare(&c, "/spec/w", "/spec/replay_window", &mut sink),
            None
        );
        assert_eq!(sink.reports.len(), 1);
        let r = &sink.reports[0];
        assert_eq!((r.rule, r.variant), (RuleId::PC005, Some("calendar")));
        assert_eq!(r.pointer.as_deref(), Some("/spec/replay_window"));
        assert!(r.vars.contains(&("calendar", "1mo".to_string())));
        // Absent values are not compared and not reported.
        assert_eq!(compare(&c, "/spec/w", "/spec/nope", &mut sink), None);
        assert_eq!(
            compare_with(&c, "/spec/w", "30s", &mut sink),
            Some(Ordering::Greater)
        );
        assert_eq!(
            compare_with(&c, "/spec/replay_window", "30s", &mut sink),
            None
        );
        assert_eq!(sink.reports.len(), 2);
    }

    #[test]
    fn message_helpers() {
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(and_list(&[] as &[&str]), "");
        let c = boundary("  flag: false\n  list: [x, 1, y]\n");
        assert_eq!(written(c.get("/spec/flag")), "false");
        assert_eq!(written(c.get("/spec/missing")), "not declared");
        assert_eq!(strings(c.get("/spec/list")), ["x", "y"]);
        assert!(!is_true(&c, "/spec/flag"));
    }
}
