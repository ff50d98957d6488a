//! EV101: an irreversible step has no compensation, only a corrective
//! workflow, and that workflow must exist.
use crate::catalog::RuleId;
use crate::contracts::yaml::Node;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let steps = c
            .get("/spec/workflow/irreversible_steps")
            .map_or(&[][..], Node::as_seq);
        for (i, step) in steps.iter().enumerate() {
            let corrective = step.get("corrective_workflow").and_then(Node::as_str);
            if corrective.is_some_and(|p| !p.trim().is_empty()) {
                continue;
            }
            let name = step
                .get("name")
                .and_then(Node::as_str)
                .map_or_else(|| format!("irreversible_steps[{i}]"), str::to_string);
            sink.push(
                c.report(
                    RuleId::EV101,
                    &format!("/spec/workflow/irreversible_steps/{i}/corrective_workflow"),
                )
                .var("boundary", &c.name)
                .var("step", name),
            );
        }
    }
}
