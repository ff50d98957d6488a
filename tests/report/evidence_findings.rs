//! Findings land on the contract they concern, and an item with a finding
//! is not met even when evidence is missing too.
use super::{item, violations};
use platcheck::RuleId;
use platcheck::report::model::{self, RunFacts, Status};

#[test]
fn findings_land_on_the_contract_they_concern() {
    let outcome = violations();
    let r = model::build(&outcome, RunFacts::of(&outcome));
    // Migrations: the Cluster whose migrations.path holds the file.
    let mig = item(&r, "legacy-shop-db", 10);
    assert!(
        mig.findings
            .iter()
            .any(|f| f.rule == RuleId::MG001 && f.file.contains("migrations/legacy-shop-db/")),
        "{:?}",
        mig.findings
    );
    // Cross-file: both sides.
    assert!(
        item(&r, "ledger-entry-posted", 3)
            .findings
            .iter()
            .any(|f| f.rule == RuleId::XR001)
    );
    assert!(
        item(&r, "ev-ledger-db", 2)
            .findings
            .iter()
            .any(|f| f.rule == RuleId::XR001)
    );
    assert!(
        item(&r, "ev-ledger-db", 11)
            .findings
            .iter()
            .any(|f| f.rule == RuleId::XR002)
    );
    // Offsets committed before processing: delivery semantics.
    let delivery = item(&r, "shipment-dispatched", 1);
    assert_eq!(delivery.status, Status::NotMet);
    for rule in [RuleId::EV120, RuleId::EV121] {
        assert!(delivery.findings.iter().any(|f| f.rule == rule), "{rule}");
    }
    // A payload schema finding: its boundary's schema item.
    let stock = r
        .contracts
        .iter()
        .find(|c| c.name == "stock-reserved" && c.file.contains("ev053-"))
        .unwrap();
    assert!(
        stock.items[4]
            .findings
            .iter()
            .any(|f| f.rule == RuleId::EV053)
    );
    // Nothing outside concerns a contract.
    let contract_files: Vec<&str> = r.contracts.iter().map(|c| c.file.as_str()).collect();
    for f in &r.outside {
        assert!(f.contract.is_none(), "{f:?}");
        assert!(
            !contract_files.contains(&f.file.as_str()),
            "{} {} is in a contract's file",
            f.rule,
            f.file
        );
        assert!(
            !(f.rule.as_str().starts_with("MG") && f.file.contains("legacy-shop-db")),
            "{f:?}"
        );
    }
    // Waivers in the example: inline, expired, baseline.
    let drills = item(&r, "ev-ledger-db", 7);
    assert_eq!(drills.status, Status::Waived);
    assert_eq!(drills.waivers[0].until.as_deref(), Some("2026-12-31"));
    let lifecycle = item(&r, "ev-ledger-db", 8);
    assert!(lifecycle.waivers.iter().any(|w| w.expired));
    assert_eq!(item(&r, "search-shards", 2).status, Status::Waived);
}

#[test]
fn a_finding_is_never_hidden_behind_missing_evidence() {
    let o = violations();
    let r = model::build(&o, RunFacts::of(&o));
    let mut both = 0;
    for c in &r.contracts {
        for i in &c.items {
            if i.status == Status::NotApplicable {
                continue;
            }
            if !i.findings.is_empty() {
                assert_eq!(
                    i.status,
                    Status::NotMet,
                    "{} item {}: {:?} with findings {:?}",
                    c.name,
                    i.item.number,
                    i.status,
                    i.findings
                );
                both += usize::from(!i.missing.is_empty());
            }
        }
    }
    // The case the precedence is about exists in the example: an item with
    // a finding and an absent field is not met and still lists the field.
    assert!(both > 0, "no item with both a finding and missing evidence");
}
