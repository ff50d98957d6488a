//! The TOAST relations a statement's rows lock, named as verify observes
//! them (`toast_name`, `toast_index_name`): the TOAST table under the
//! row's own mode (or ROW EXCLUSIVE where only a long value written takes
//! it) and its index under the row's `toast_index` mode. Shared by verify's
//! prediction and the messages of the lock rules.
use super::effects::Effect;
use super::locks::{self, PgMode, Toast};
use super::ops::Name;
use super::schema::{Model, toast_index_name, toast_name};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToastLock {
    pub relation: String,
    /// The table (or materialized view) the TOAST table belongs to.
    pub owner: Name,
    pub mode: PgMode,
    /// Always taken: the history says the owner has a TOAST table, the row
    /// locks it whatever the rows hold, and the lock is the statement's own
    /// (not one taken only if rows reach the table).
    pub certain: bool,
    /// The row runs in a transaction (its locks can be read before COMMIT).
    pub in_tx: bool,
}

pub fn toast_locks(effects: &[Effect]) -> Vec<ToastLock> {
    let mut out = Vec::new();
    for e in effects {
        let row = locks::pg(e.key);
        let mode = match row.toast {
            Toast::No => continue,
            Toast::Same => row.lock,
            Toast::IfWritten => PgMode::RowExclusive,
        };
        if mode == PgMode::None {
            continue;
        }
        for (owner, known) in &e.toast {
            let certain = *known && row.toast == Toast::Same && !e.conditional;
            let lock = |relation, mode| ToastLock {
                relation,
                owner: owner.clone(),
                mode,
                certain,
                in_tx: row.in_tx,
            };
            out.push(lock(toast_name(&owner.name), mode));
            if row.toast_index != PgMode::None {
                out.push(lock(toast_index_name(&owner.name), row.toast_index));
            }
        }
    }
    out
}

/// The TOAST tables of `owners` the server may lock: each one's, certain
/// where the history says it has one, a maybe where it cannot tell.
pub(super) fn toast_of(model: &Model, owners: &[Name]) -> Vec<(Name, bool)> {
    owners
        .iter()
        .filter(|o| !model.is_temp(o))
        .filter_map(|o| match model.has_toast(o) {
            Some(false) => None,
            known => Some((o.clone(), known.is_some())),
        })
        .collect()
}
