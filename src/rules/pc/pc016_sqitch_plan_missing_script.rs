//! PC016: a change in sqitch.plan without its deploy script. Found while reading the migration history
//! (`sql::history`); the rest of the directory is still analysed.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    super::history_problems(ctx, RuleId::PC016, sink);
}
