//! EV051: how consumers find the schema must match who they are.
use super::common::{text, written};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for c in ctx.ws.judged_boundaries() {
        let Some(audience) = text(c, "/spec/schema/audience") else {
            continue;
        };
        let pointer = "/spec/schema/discovery";
        let discovery = text(c, pointer);
        let value = written(c.get(pointer));
        let report = |p: &str, variant: &'static str, value: String| {
            c.report(RuleId::EV051, p)
                .variant(variant)
                .var("boundary", &c.name)
                .var("audience", audience)
                .var("value", value)
        };
        match audience {
            "multi-team" if !matches!(discovery, Some("registry" | "hybrid")) => {
                sink.push(report(pointer, "multi_team", value));
            }
            "external" | "multi-tenant" => {
                if discovery != Some("hybrid") {
                    sink.push(report(pointer, "cross_trust", value));
                }
                // Signed references are for consumers outside our trust
                // boundary; tenants of our own platform resolve the catalog.
                let signed = "/spec/schema/signed_schema_refs";
                if audience == "external" && !super::common::is_true(c, signed) {
                    sink.push(report(signed, "signed", written(c.get(signed))));
                }
            }
            _ => {}
        }
    }
}
