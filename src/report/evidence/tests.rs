use super::*;
use crate::contracts::Kind;
use crate::contracts::yaml::parse_documents;
use crate::report::checklist::FieldSpec;
use crate::source::SourceFile;

fn contract(text: &str) -> (SourceFile, Contract) {
    let src = SourceFile::new("c.yaml", "c.yaml", text);
    let root = parse_documents(&src).unwrap().remove(0);
    let c = Contract::new(0, Kind::Cluster, "x".into(), root);
    (src, c)
}

fn field(yaml: &str) -> Field {
    serde_saphyr::from_str::<FieldSpec>(yaml).unwrap().field()
}

fn run(src: &SourceFile, c: &Contract, f: &str) -> Found {
    let line = |n: &Node| src.line_col(n.span.start).line;
    let ctx = Ctx {
        today: units::parse_date("2026-11-30").unwrap(),
        line_of: &line,
        placeholder: &|v| v == "docs/todo.md",
    };
    check(c, &field(f), &ctx)
}

const POOLS: &str = "spec:\n  connections:\n    pools:\n      - service: api\n        pool_size: 20\n      - pool_size: 5\n      - service: worker\n  capacity:\n    dimensions:\n      storage: {limit: 2TiB}\n      iops: {alert_at: [70, 80]}\n";

#[test]
fn wildcards_name_elements_and_list_each_missing_one() {
    let (src, c) = contract(POOLS);
    let pools = run(&src, &c, "/spec/connections/pools/*/pool_size");
    let labels: Vec<(&str, &str, usize)> = pools
        .present
        .iter()
        .map(|e| (e.label.as_str(), e.value.as_str(), e.line))
        .collect();
    assert_eq!(
        labels,
        [
            ("connections.pools[api].pool_size", "20", 5),
            ("connections.pools[1].pool_size", "5", 6)
        ]
    );
    assert_eq!(
        pools.present[1].pointer,
        "/spec/connections/pools/1/pool_size"
    );
    assert_eq!(pools.missing.len(), 1);
    assert_eq!(
        pools.missing[0].label,
        "connections.pools[worker].pool_size"
    );
    assert_eq!(
        pools.missing[0].pointer,
        "/spec/connections/pools/2/pool_size"
    );
    let alerts = run(&src, &c, "/spec/capacity/dimensions/*/alert_at");
    assert_eq!(alerts.present[0].label, "capacity.dimensions.iops.alert_at");
    assert_eq!(alerts.present[0].value, "[70, 80]");
    assert_eq!(
        alerts.missing[0].label,
        "capacity.dimensions.storage.alert_at"
    );
    let absent = run(&src, &c, "/spec/ha/failover_test/last");
    assert_eq!(absent.missing[0].label, "ha.failover_test.last");
    let none = run(&src, &c, "/spec/consumers/*/lag/slo");
    assert_eq!(none.missing[0].label, "consumers");
    assert_eq!(none.missing[0].why.as_deref(), Some("no elements"));
}

#[test]
fn conditions_decide_whether_a_field_is_required() {
    let (src, c) = contract(
        "spec:\n  delivery: at-least-once\n  consumers:\n    - group: a\n      effects: [{kind: email}]\n    - group: b\n      effects: [{kind: db-local}]\n",
    );
    let f = "{field: /spec/consumers/*/external_effects/pattern, when: {field: effects/*/kind, in: [email, payment]}}";
    let found = run(&src, &c, f);
    let missing: Vec<&str> = found.missing.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(missing, ["consumers[a].external_effects.pattern"]);
    let f = "{field: /spec/at_most_once/repair, when: {field: /spec/delivery, in: [at-most-once]}}";
    assert!(run(&src, &c, f).missing.is_empty());
    let f = "{field: /spec/redelivery/max_interval, when: {field: /spec/delivery, not_in: [at-most-once]}}";
    assert_eq!(run(&src, &c, f).missing.len(), 1);
    let f = "{field: /spec/x, when: {any: [{field: /spec/delivery, in: [exactly-once]}, {field: /spec/consumers, present: true}]}}";
    assert_eq!(run(&src, &c, f).missing.len(), 1);
}

#[test]
fn values_that_fall_short_say_what_would_satisfy() {
    let (src, c) = contract(
        "spec:\n  broker: {replication_factor: 1, acks: leader}\n  cost:\n    review_cadence: 90d\n    right_sizing: {last_review: 2026-05-01, cadence: 3mo}\n",
    );
    let short = |f: &str| {
        let found = run(&src, &c, f);
        found.short.first().map(|s| s.expected.clone())
    };
    assert_eq!(
        short("{field: /spec/broker/replication_factor, min: 3}").as_deref(),
        Some("at least 3")
    );
    assert_eq!(
        short("{field: /spec/broker/acks, in: [all]}").as_deref(),
        Some("all")
    );
    assert_eq!(
        short("{field: /spec/cost/review_cadence, at_most: 31d}").as_deref(),
        Some("at most 31d")
    );
    assert_eq!(
        short("{field: /spec/cost/review_cadence, at_most: 3mo}"),
        None
    );
    assert_eq!(
        short("{field: /spec/cost/right_sizing/last_review, fresh_within: cadence}").as_deref(),
        Some("no older than 3mo before 2026-11-30: it was due 2026-08-01")
    );
    assert_eq!(
        short("{field: /spec/cost/right_sizing/cadence, at_most: 92d}"),
        None
    );
}

#[test]
fn item_text_shows_the_contracts_own_values() {
    let (_, c) = contract("spec:\n  cost:\n    review_cadence: 90d\n");
    assert_eq!(
        render_text(
            "Cost is reviewed monthly (cadence: {/spec/cost/review_cadence}); right-sizing quarterly (cadence: {/spec/cost/right_sizing/cadence}).",
            &c
        ),
        "Cost is reviewed monthly (cadence: 90d); right-sizing quarterly (cadence: not declared)."
    );
}

#[test]
fn long_values_are_shortened_on_one_line() {
    let long = "x".repeat(300);
    assert_eq!(shorten(&long).chars().count(), MAX_VALUE);
    assert_eq!(shorten("a\nb"), "a b");
}

#[test]
fn pointers_match_patterns_at_or_below() {
    assert!(under_pattern("/spec/ha/rpo", "/spec/ha/rpo"));
    assert!(under_pattern("/spec/backup/types", "/spec/backup/types/1"));
    assert!(under_pattern(
        "/spec/consumers/*/retry/jitter",
        "/spec/consumers/2/retry/jitter"
    ));
    assert!(!under_pattern("/spec/ha/rpo", "/spec/ha"));
    assert!(!under_pattern("/spec/ha/rpo", "/spec/ha/rto"));
}
