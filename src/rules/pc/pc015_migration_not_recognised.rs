//! PC015: a file the migration tool would not read as a migration (bad version, name outside the layout, missing directive). Found while reading the migration history
//! (`sql::history`); the rest of the directory is still analysed.
use crate::catalog::RuleId;
use crate::emit::Sink;
use crate::registry::RuleCtx;

pub fn check(ctx: &RuleCtx, sink: &mut Sink) {
    super::history_problems(ctx, RuleId::PC015, sink);
}
