//! MG901 offline: a recorded `platcheck verify` run (`observed.json`)
//! in which verify withheld a statement because it acts outside the
//! scratch database. The live form is `platcheck verify` itself, whose
//! gate (`sql::verify::gate`) decides; here today's gate locates the
//! offending token again, and the statement's first line stands in when
//! it no longer finds one.
use super::common as c;
use super::mg900_lock_prediction_disagrees::recorded;
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;
use crate::source::Span;
use crate::sql::verify::gate::{self, Verdict};

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    recorded(ctx, |fa, st, rec, _| {
        let Some(withheld) = &rec.observed.withheld else {
            return;
        };
        let text = c::text(ctx, fa, st);
        let policy = gate::Policy::new(fa.ctx.dialect, "", &[]);
        let mut report = c::report(ctx, RuleId::MG901, fa, st)
            .var("sql", crate::sql::verify::head(text))
            .var("detail", &withheld.reason);
        if let Verdict::Withhold(e) = gate::judge(text, st.op.as_ref(), &policy) {
            let at = st.span.start + e.at;
            let end = ctx.ws.files[fa.file].text[at..]
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '\\'))
                .map_or(at + 1, |n| at + n.max(1));
            report.span = Span::new(at, end);
        }
        sink.push(report);
    });
}
