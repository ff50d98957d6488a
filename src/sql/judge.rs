//! One statement judged against the schema so far and the lock table:
//! its effects (the rows it triggers), the locks per relation (certain,
//! and those taken only if rows reach the relation), rewrite, scan, a
//! refusal, or the MySQL/MariaDB plan.
use super::analysis::{Rare, Stmt};
use super::context::FileCtx;
use super::effects::{self, SessionFacts};
use super::effects_my;
use super::locks::{self, Algorithm, MyPlan, PgMode};
use super::ops::{Name, Op};
use super::schema::Model;

/// `pg_catalog.x`, or an unqualified `pg_…` name (the prefix is reserved
/// for system catalogs, which resolve first).
fn is_catalog(n: &Name) -> bool {
    match n.schema.as_deref() {
        Some(s) => s == "pg_catalog" || s == "information_schema",
        None => n.name.starts_with("pg_"),
    }
}

pub fn judge(st: &mut Stmt, op: &Op, model: &Model, ctx: &FileCtx, sess: &SessionFacts) {
    // Every statement of every file is kept until the rules have run: the
    // lists are stored as boxed slices (a list grown by `push` keeps room
    // for four, which at 100k statements is tens of megabytes of nothing).
    judge_lists(st, op, model, ctx, sess);
}

fn judge_lists(st: &mut Stmt, op: &Op, model: &Model, ctx: &FileCtx, sess: &SessionFacts) {
    if ctx.dialect.is_mysql() {
        st.effects =
            effects_my::effects(op, model, st.fk_checks_off, ctx.dialect).into_boxed_slice();
        let plans: Vec<MyPlan> = st
            .effects
            .iter()
            .map(|e| locks::mysql(e.key).plan(ctx.dialect, ctx.version))
            .collect();
        if let Some(worst) = plans.iter().map(|p| p.algorithm).max() {
            let plan = MyPlan {
                algorithm: worst,
                concurrent_dml: plans.iter().all(|p| p.concurrent_dml),
                exclusive: plans.iter().any(|p| p.exclusive),
                rebuild: plans.iter().any(|p| p.rebuild),
            };
            st.rewrite = plan.rebuild;
            st.scan = plan.rebuild || worst == Algorithm::Copy;
            st.plan = Some(plan);
        }
        return;
    }
    st.effects = effects::pg(op, model, ctx, sess).into_boxed_slice();
    let mut locks: Vec<(Name, PgMode)> = Vec::new();
    let mut maybe: Vec<(Name, PgMode)> = Vec::new();
    let mut refused = None;
    fn put(list: &mut Vec<(Name, PgMode)>, n: &Name, m: PgMode) {
        match list.iter_mut().find(|(x, _)| x.name == n.name) {
            Some((_, old)) => *old = (*old).max(m),
            None => list.push((n.clone(), m)),
        }
    }
    // A temporary table is this session's alone, a system catalog is the
    // server's: neither is a lock anyone waits on.
    let counts = |n: &Name, m: PgMode| m != PgMode::None && !model.is_temp(n) && !is_catalog(n);
    let mut add = |n: &Name, m: PgMode| {
        if counts(n, m) {
            put(&mut locks, n, m);
        }
    };
    for e in &st.effects {
        let row = locks::pg(e.key);
        if row.refused && refused.is_none() {
            refused = Some(row.notes.clone());
        }
        let mode = if e.key == "lock_table" {
            PgMode::parse(&e.detail)
        } else {
            row.lock
        };
        if e.conditional {
            if let Some(t) = e.table.as_ref().filter(|t| counts(t, mode)) {
                put(&mut maybe, t, mode);
            }
            // A trigger's REFRESH rewrites the view whenever it fires.
            st.rewrite |= row.rewrites(ctx.version);
            continue;
        }
        if let Some(t) = &e.table {
            add(t, mode);
        }
        for o in &e.other {
            add(o, row.other_lock);
        }
        st.rewrite |= row.rewrites(ctx.version);
        st.scan |= row.scan && !e.covered;
    }
    // A relation locked for certain is not also a maybe.
    maybe.retain(|(n, _)| !locks.iter().any(|(x, _)| x.name == n.name));
    let secondary = locks
        .iter()
        .filter(|(n, _)| {
            let stored = super::schema::stored_name(&n.name);
            model.indexes.contains_key(&stored)
                || model
                    .objects
                    .views
                    .get(&n.name)
                    .is_some_and(|v| !v.materialized)
                || st.effects.iter().any(|e| {
                    e.key == "alter_sequence" && e.table.as_ref().is_some_and(|t| t.name == n.name)
                })
        })
        .map(|(n, _)| n.name.clone())
        .collect();
    st.locks = locks.into_boxed_slice();
    st.set_rare(Rare {
        maybe_locks: maybe,
        secondary,
        refused,
    });
}
