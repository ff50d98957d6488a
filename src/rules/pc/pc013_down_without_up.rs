//! PC013: a down, undo, revert or rollback script with no up step to undo. Found while reading the migration history
//! (`sql::history`); the rest of the directory is still analysed.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    super::history_problems(ctx, RuleId::PC013, sink);
}
