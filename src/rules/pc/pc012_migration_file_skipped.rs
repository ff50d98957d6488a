//! PC012: a file or part of one the migration tool does not run against this database (another dialect, a callback, a verify script), left out of the history. Found while reading the migration history
//! (`sql::history`); the rest of the directory is still analysed.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    super::history_problems(ctx, RuleId::PC012, sink);
}
