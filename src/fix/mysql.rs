//! MySQL / MariaDB: state the online path the lock table says the server
//! takes for this ALTER (`ALGORITHM=INSTANT`, or `ALGORITHM=INPLACE,
//! LOCK=NONE` when it allows concurrent writes), so the server refuses
//! instead of silently copying. Nothing is written when the plan is a copy
//! or blocks writes: there is no guard the server would accept.
use super::{Site, fix};
use crate::catalog::{FixSafety, RuleId};
use crate::finding::Fix;
use crate::sql::locks::Algorithm;
use crate::sql::ops::{Alter, Op};
use regex::Regex;
use std::sync::LazyLock;

static CLAUSE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s*,\s*(?:ALGORITHM|LOCK)\s*=?\s*[A-Z]+").unwrap());

pub fn compute(site: &Site, rule: RuleId) -> Option<Fix> {
    if !site.fa.ctx.dialect.is_mysql() {
        return None;
    }
    let Some(Op::AlterTable { actions, .. }) = &site.st.op else {
        return None;
    };
    let plan = site.st.plan?;
    let guard = match plan.algorithm {
        Algorithm::Instant => "ALGORITHM=INSTANT".to_string(),
        a @ (Algorithm::Inplace | Algorithm::Nocopy) if plan.concurrent_dml => {
            format!("ALGORITHM={}, LOCK=NONE", a.as_str())
        }
        _ => return None,
    };
    let blocking = actions.iter().any(|a| match a {
        Alter::Algorithm(v) => v == "COPY",
        Alter::LockClause(v) => v == "SHARED" || v == "EXCLUSIVE",
        _ => false,
    });
    let clauses = actions
        .iter()
        .any(|a| matches!(a, Alter::Algorithm(_) | Alter::LockClause(_)));
    // A forced COPY or LOCK is MG100's to lift (unsafe: it may be on purpose).
    if rule == RuleId::MG103 && blocking {
        return None;
    }
    let text = site.stmt_text();
    let start = site.st.span.start;
    let mut edits = Vec::new();
    if clauses {
        let found: Vec<_> = CLAUSE.find_iter(text).collect();
        // Every clause must be one we can see (after a comma) to replace them.
        let written = actions
            .iter()
            .filter(|a| matches!(a, Alter::Algorithm(_) | Alter::LockClause(_)))
            .count();
        if found.len() != written {
            return None;
        }
        for m in found {
            edits.push(site.edit(start + m.start(), start + m.end(), ""));
        }
    }
    edits.push(site.insert(site.st.span.end, format!(", {guard}")));
    Some(fix(
        format!("state the online path the server takes: {guard}"),
        FixSafety::Safe,
        edits,
    ))
}
