//! EV100: workflows with money, audit, regulatory or irreversible external
//! effects are orchestrated, with a pending/confirmed/committed state machine
//! and prevention gates.
use super::common::{and_list, strings, text, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

const CONTROLLED: [&str; 4] = ["money", "audit", "regulatory", "irreversible-external"];
const STATES: [&str; 3] = ["pending", "confirmed", "committed"];

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.boundaries() {
        let involves = strings(c.get("/spec/workflow/involves"));
        let why: Vec<&str> = involves
            .iter()
            .copied()
            .filter(|i| CONTROLLED.contains(i))
            .collect();
        if why.is_empty() {
            continue;
        }
        let report = |pointer: &str, variant: &'static str| {
            c.report(RuleId::EV100, pointer)
                .variant(variant)
                .var("boundary", &c.name)
                .var("involves", and_list(&why))
                .var("value", written(c.get(pointer)))
        };
        let coordination = "/spec/workflow/coordination";
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
