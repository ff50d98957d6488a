//! PC014: two migrations of one directory with the same version, as the tool compares them. Found while reading the migration history
//! (`sql::history`); the rest of the directory is still analysed.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    super::history_problems(ctx, RuleId::PC014, sink);
}
