//! The PC family: inputs, config and suppressions. Most of these findings
//! come from the engine while it loads inputs, so their entries carry no
//! check of their own; PC009 reads the run's SQL analysis like the MG rules,
//! and PC012–PC016 the problems found while reading the migration history.
use crate::catalog::RuleId;
use crate::emit::{Report, Sink};
use crate::registry::{Check, Entry, RuleCtx};

mod pc009_sql_statement_not_parsed;
mod pc012_migration_file_skipped;
mod pc013_down_without_up;
mod pc014_duplicate_migration_version;
mod pc015_migration_not_recognised;
mod pc016_sqitch_plan_missing_script;

pub fn entries() -> Vec<Entry> {
    [
        RuleId::PC000,
        RuleId::PC001,
        RuleId::PC002,
        RuleId::PC003,
        RuleId::PC004,
        RuleId::PC005,
        RuleId::PC006,
        RuleId::PC007,
        RuleId::PC008,
        RuleId::PC010,
        RuleId::PC011,
        RuleId::PC017,
    ]
    .into_iter()
    .map(|id| Entry {
        id,
        check: Check::Engine,
    })
    .chain([
        Entry {
            id: RuleId::PC009,
            check: Check::Workspace(pc009_sql_statement_not_parsed::check),
        },
        Entry {
            id: RuleId::PC012,
            check: Check::Workspace(pc012_migration_file_skipped::check),
        },
        Entry {
            id: RuleId::PC013,
            check: Check::Workspace(pc013_down_without_up::check),
        },
        Entry {
            id: RuleId::PC014,
            check: Check::Workspace(pc014_duplicate_migration_version::check),
        },
        Entry {
            id: RuleId::PC015,
            check: Check::Workspace(pc015_migration_not_recognised::check),
        },
        Entry {
            id: RuleId::PC016,
            check: Check::Workspace(pc016_sqitch_plan_missing_script::check),
        },
    ])
    .collect()
}

/// The history problems of one rule (PC012–PC016), as findings.
fn history_problems(ctx: &RuleCtx, rule: RuleId, sink: &mut Sink) {
    for p in ctx.sql().problems.iter().filter(|p| p.rule == rule) {
        sink.push(Report::new(rule, p.file, p.span).var("detail", &p.detail));
    }
}
