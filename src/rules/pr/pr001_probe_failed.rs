//! PR001: a target could not be probed (no URL, wrong scheme, connection,
//! login or query failure), on the field that names its URL.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    let Some(obs) = ctx.probe() else { return };
    // A probe run that compared nothing must say so, not look clean.
    if obs.probes.is_empty() {
        sink.notes.push(
            "no contract names a probe target (spec.probe.url_env, --target NAME=URL or the config's probe.targets): nothing was compared with a running system".into(),
        );
    }
    for p in &obs.probes {
        if let Err(f) = &p.result {
            let c = &ctx.ws.contracts[p.contract];
            sink.push(
                c.report(RuleId::PR001, &p.pointer)
                    .var("target", &p.shown)
                    .var("detail", &f.detail),
            );
        }
    }
}
