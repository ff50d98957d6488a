//! MG104: DDL on an existing table with no `SET lock_wait_timeout` before
//! it: the metadata lock waits a year by default, and every query queues
//! behind it. Reported once per file.
use super::common::{self as c};
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    for fa in c::my_files(ctx) {
        let first = fa
            .stmts
            .iter()
            .find(|st| !st.lock_timeout && st.effects.iter().any(|e| c::existing(fa, st, e)));
        let Some(st) = first else { continue };
        sink.push(c::report(ctx, RuleId::MG104, fa, st).var("kind", &st.kind));
    }
}
