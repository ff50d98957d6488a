//! What each status fixture's items say about why they have their status:
//! the evidence, the missing fields, the waivers, the flags not passed.
use super::{facts, item, run};
use crate::common;
use platcheck::RuleId;
use platcheck::report::model::{self, Status};
use platcheck::report::{self, Format, Options};

#[test]
fn status_fixtures_say_why() {
    let build = |name: &str| {
        let dir = common::root().join("tests/report_fixtures").join(name);
        let outcome = run(&dir, None);
        let f = facts(&outcome);
        // The model borrows the outcome: keep both.
        (outcome, f)
    };
    // met: every item met or not applicable.
    let (o, f) = build("met");
    let r = model::build(&o, f);
    for i in &r.contracts[0].items {
        assert!(
            matches!(i.status, Status::Met | Status::NotApplicable),
            "{}: {:?}",
            i.item.number,
            i.status
        );
    }
    let mig = item(&r, "billing-db", 10);
    assert!(
        mig.evidence
            .iter()
            .any(|e| e.label == "migration files checked"
                && e.value == "1 SQL file under migrations"),
        "{:?}",
        mig.evidence
    );
    // not met: the migration finding sits under item 10, the cadence under 12.
    let (o, f) = build("not-met");
    let r = model::build(&o, f);
    let mig = item(&r, "billing-db", 10);
    assert!(mig.findings.iter().any(|f| f.rule == RuleId::MG001));
    assert!(r.outside.is_empty(), "{:?}", r.outside);
    let cost = item(&r, "billing-db", 12);
    assert_eq!(cost.status, Status::NotMet);
    assert_eq!(cost.short[0].label, "cost.review_cadence");
    assert_eq!(cost.short[0].expected, "at most 31d");
    assert!(
        cost.text.contains("cost review cadence 90d"),
        "{}",
        cost.text
    );
    // missing evidence: exactly which fields.
    let (o, f) = build("missing-evidence");
    let r = model::build(&o, f);
    let labels = |i: &model::ItemResult| -> Vec<String> {
        i.missing.iter().map(|m| m.label.clone()).collect()
    };
    assert_eq!(
        labels(item(&r, "billing-db", 10)),
        ["migrations.tool_version"]
    );
    assert_eq!(
        labels(item(&r, "billing-db", 12)),
        [
            "cost.archival.runbook",
            "cost.archival.last_tested",
            "cost.archival.cold_after"
        ]
    );
    // waived: inline (reason, until, author) and baseline.
    let (o, f) = build("waived");
    let r = model::build(&o, f);
    let cost = item(&r, "billing-db", 12);
    let w = &cost.waivers[0];
    assert_eq!(w.kind, model::WaiverKind::Inline);
    assert_eq!(
        w.reason,
        "the cost review moved to the quarterly close on 2026-12-15"
    );
    assert_eq!(w.until.as_deref(), Some("2026-12-31"));
    assert_eq!(
        w.author.as_deref(),
        Some("Dana Reviewer <dana@example.test>, 2026-11-02")
    );
    assert!(!w.expired);
    let ha = item(&r, "billing-db", 2);
    assert_eq!(ha.status, Status::Waived);
    assert_eq!(ha.waivers[0].kind, model::WaiverKind::Baseline);
    assert_eq!(
        (ha.waivers[0].file.as_str(), ha.waivers[0].line),
        ("baseline.json", 5)
    );
    // expired: the finding is in force and its waiver is shown.
    let (o, f) = build("expired-waiver");
    let r = model::build(&o, f);
    let cost = item(&r, "billing-db", 12);
    assert_eq!(cost.findings[0].rule, RuleId::CL110);
    assert!(cost.waivers[0].expired);
    assert!(
        r.contracts[0].other.iter().any(|f| f.rule == RuleId::PC010),
        "the PC010 of the expired suppression concerns the contract"
    );
    // not checked: which flag, which input, which rule.
    let (o, f) = build("not-checked");
    let r = model::build(&o, f);
    let how = |c: &str, n: u32| -> Vec<String> {
        item(&r, c, n)
            .unchecked
            .iter()
            .map(|u| u.how.clone())
            .collect()
    };
    assert_eq!(
        how("invoice-issued", 5),
        ["pass --base GIT-REF (the revision to compare with)"]
    );
    assert_eq!(
        how("invoice-issued", 4),
        ["it is turned off in platcheck.yaml"]
    );
    assert!(how("billing-db", 10)[0].starts_with("no SQL file under migrations was among"));
    // What the fixture is named for: nothing in it is not met (its replay
    // tool exists, so EV140 has nothing to say on item 7).
    for c in &r.contracts {
        for i in &c.items {
            assert_ne!(
                i.status,
                Status::NotMet,
                "{} item {}: {i:#?}",
                c.name,
                i.item.number
            );
        }
    }
    // not applicable: the condition from the contract's own values, and
    // excluded from the denominator.
    let (o, f) = build("not-applicable");
    let r = model::build(&o, f);
    assert_eq!(
        item(&r, "billing-db", 3).reason.as_deref(),
        Some("no read replicas (read_replicas.count is 0), so no query class reads stale data")
    );
    assert_eq!(
        item(&r, "billing-db", 4).reason.as_deref(),
        Some("the cluster is not sharded (sharding.enabled is false)")
    );
    let t = r.totals();
    assert_eq!((t.get(Status::Met), t.applicable(), t.total()), (9, 9, 12));
    let md = report::render_model(Format::Markdown, &r, &Options::default());
    assert!(md.contains("**Items:** 9 of 9 items that apply met; 3 not applicable (not counted)"));
    assert!(
        md.contains("**Contracts:** 1 (1 cluster, 0 event boundaries)"),
        "{md:.600}"
    );
}
