//! Contract and config fixes: an unknown key (PC003) or rule id (PC008)
//! with one unambiguous did-you-mean is renamed; an enum value (PC004) with
//! a single close allowed value is replaced. Only the scalar's characters
//! change: its quotes, the comment after it and the line stay as written.
//! A block a rule needs and the contract lacks is inserted from the rule's
//! own example (`block`).
use super::fix;
use crate::catalog::{FixSafety, RuleId};
use crate::contracts::schema::suggest_unique;
use crate::emit::Report;
use crate::finding::{Edit, Fix};
use crate::registry::RuleCtx;

pub fn compute(ctx: &RuleCtx, r: &Report) -> Option<Fix> {
    let var = |name: &str| {
        r.vars
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    };
    let src = &ctx.ws.files[r.file];
    let (from, to, what) = match r.rule {
        RuleId::PC003 => (
            var("key")?,
            var("suggestion")?.to_string(),
            "rename the key",
        ),
        RuleId::PC008 => (
            src.text
                .get(r.span.start..r.span.end)?
                .trim_matches(['"', '\'']),
            var("suggestion")?.to_string(),
            "correct the rule id",
        ),
        RuleId::PC004 if r.variant == Some("enum") => {
            let value = var("value")?;
            let allowed: Vec<&str> = var("allowed")?.split(", ").collect();
            let to = suggest_unique(value, &allowed)?;
            (value, to.to_string(), "replace the value")
        }
        _ => return super::block::missing_block(ctx, r),
    };
    let written = src.text.get(r.span.start..r.span.end)?;
    // The span covers the scalar as written: bare, or inside its quotes.
    let inner = written.find(from)?;
    if written.len() != from.len() && written.trim_matches(['"', '\'']) != from {
        return None;
    }
    if to.contains(['"', '\'', '\\', ':', '#', '\n']) {
        return None;
    }
    let start = r.span.start + inner;
    Some(fix(
        format!("{what}: `{from}` → `{to}`"),
        FixSafety::Safe,
        vec![Edit {
            path: src.path.clone(),
            start,
            end: start + from.len(),
            text: to,
            create: false,
        }],
    ))
}
