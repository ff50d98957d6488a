//! EV100: workflows with money, audit, regulatory or irreversible external
//! effects are orchestrated, with a pending/confirmed/committed state machine
//! and prevention gates.
use super::common::{and_list, consumers, is_cross_system, strings, text, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::rules::policy;

const CONTROLLED: [&str; 4] = ["money", "audit", "regulatory", "irreversible-external"];
const STATES: [&str; 3] = ["pending", "confirmed", "committed"];

/// What the consumers' declared effects say the flow involves, whatever
/// `involves` lists: the invariants are facts of the effects, not a label.
fn from_effects(c: &crate::contracts::Contract) -> Vec<&'static str> {
    let mut out = Vec::new();
    for k in consumers(c) {
        for e in k.effects() {
            let found = match e.class() {
                Some("money") => Some("money"),
                Some("audit") => Some("audit"),
                Some("regulated") => Some("regulatory"),
                _ if e.irreversible() && e.kind().is_some_and(is_cross_system) => {
                    Some("irreversible-external")
                }
                _ => None,
            };
            if let Some(f) = found
                && !out.contains(&f)
            {
                out.push(f);
            }
        }
    }
    out
}

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    // event-driven reference: by invariants; handbook 4.5: above ~4-5 steps.
    let by_steps = policy::switch(ctx, "orchestration", "invariants") == "invariants-or-steps";
    let max_steps = policy::number(ctx, "orchestration_max_steps", 5);
    for c in ctx.ws.judged_boundaries() {
        if c.get("/spec/workflow").is_none() {
            continue;
        }
        let involves = strings(c.get("/spec/workflow/involves"));
        let mut why: Vec<&str> = involves
            .iter()
            .copied()
            .filter(|i| CONTROLLED.contains(i))
            .collect();
        for f in from_effects(c) {
            if !why.contains(&f) {
                why.push(f);
            }
        }
        let steps = c
            .get("/spec/workflow/steps")
            .map_or(0, |n| n.as_seq().len());
        let long = by_steps && i64::try_from(steps).unwrap_or(i64::MAX) > max_steps;
        if why.is_empty() && !long {
            continue;
        }
        let coordination = "/spec/workflow/coordination";
        if why.is_empty() {
            if text(c, coordination) != Some("orchestration") {
                sink.push(
                    c.report(RuleId::EV100, coordination)
                        .variant("steps")
                        .var("boundary", &c.name)
                        .var("steps", steps)
                        .var("max", max_steps)
                        .var("value", written(c.get(coordination))),
                );
            }
            continue;
        }
        let report = |pointer: &str, variant: &'static str| {
            c.report(RuleId::EV100, pointer)
                .variant(variant)
                .var("boundary", &c.name)
                .var("involves", and_list(&why))
                .var("value", written(c.get(pointer)))
        };
        if text(c, coordination) != Some("orchestration") {
            sink.push(report(coordination, "orchestration"));
        }
        let states = strings(c.get("/spec/workflow/states"));
        let missing: Vec<&str> = STATES
            .iter()
            .copied()
            .filter(|s| !states.contains(s))
            .collect();
        if !missing.is_empty() {
            sink.push(report("/spec/workflow/states", "states").var("missing", and_list(&missing)));
        }
        if strings(c.get("/spec/workflow/prevention_gates")).is_empty() {
            sink.push(report("/spec/workflow/prevention_gates", "gates"));
        }
    }
}
