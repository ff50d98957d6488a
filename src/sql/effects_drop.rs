//! TRUNCATE and DROP TABLE: the statements whose reach goes past the
//! tables named, to every table the server empties or drops with them
//! (FK children of a CASCADE, transitively; the partitions of a
//! partitioned table), each with its indexes and its TOAST table.
use super::effects::{Effect, names};
use super::effects_toast::toast_of;
use super::ops::Name;
use super::schema::Model;
use std::collections::BTreeSet;

/// The tables emptied or dropped with `start`, `start` left out: each
/// one's partitions, and with `cascade` the tables whose foreign keys
/// point at it (PostgreSQL 15 follows both to the end, so does this).
fn reach(model: &Model, start: &Name, cascade: bool) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![start.name.clone()];
    while let Some(t) = todo.pop() {
        let n = Name::new(t.clone());
        let mut next = model.objects.all_partitions(&t);
        if cascade {
            next.extend(model.referencing(&n));
        }
        for x in next {
            if x != start.name && seen.insert(x.clone()) {
                todo.push(x);
            }
        }
    }
    seen.into_iter().collect()
}

/// `e` locks `gone` too, their indexes and all their TOAST tables.
fn with_gone(mut e: Effect, model: &Model, owner: &Name, gone: &[String]) -> Effect {
    let mut owners = vec![owner.clone()];
    owners.extend(names(gone.to_vec()));
    for g in gone {
        e.other.extend(names(model.table_indexes(g)));
    }
    e.other.extend(names(gone.to_vec()));
    e.other.extend(names(model.table_indexes(&owner.name)));
    e.toast = toast_of(model, &owners);
    e.toast_set = true;
    e
}

pub(super) fn truncate(model: &Model, tables: &[Name], cascade: bool) -> Vec<Effect> {
    let listed = |r: &String| tables.iter().any(|x| x.name == *r);
    tables
        .iter()
        .map(|t| {
            let referencing: Vec<String> = model
                .referencing(t)
                .into_iter()
                .filter(|r| !listed(r))
                .collect();
            if !cascade && !referencing.is_empty() {
                return Effect::new("truncate_referenced", Some(t)).detail(referencing.join(", "));
            }
            // Every truncated table gets a new, empty file, and so does
            // each of its indexes and its TOAST table (and that one's
            // index), under ACCESS EXCLUSIVE.
            let gone: Vec<String> = reach(model, t, cascade)
                .into_iter()
                .filter(|r| !listed(r))
                .collect();
            with_gone(Effect::new("truncate", Some(t)), model, t, &gone)
        })
        .collect()
}

pub(super) fn drop_table(model: &Model, list: &[Name], cascade: bool) -> Vec<Effect> {
    let listed = |r: &String| list.iter().any(|x| x.name == *r);
    let mut out = Vec::new();
    for t in list {
        // A partitioned table's partitions are dropped with it.
        let parts: Vec<String> = reach(model, t, false)
            .into_iter()
            .filter(|r| !listed(r))
            .collect();
        let mut e = Effect::new("drop_table", Some(t));
        // The tables their foreign keys point at lose the FK triggers.
        let mut referenced: Vec<String> = std::iter::once(t.clone())
            .chain(names(parts.clone()))
            .flat_map(|x| model.referenced_by(&x))
            .filter(|r| !listed(r) && !parts.contains(r))
            .collect();
        referenced.sort();
        referenced.dedup();
        e.other = names(referenced);
        out.push(with_gone(e, model, t, &parts));
        let mut reach: Vec<String> = model
            .referencing(t)
            .into_iter()
            .chain(model.objects.dependent_views(&t.name))
            .filter(|r| !listed(r))
            .collect();
        reach.sort();
        reach.dedup();
        if cascade && !reach.is_empty() {
            let mut c = Effect::new("drop_table_cascade", Some(t));
            // The views it drops go with their TOAST tables; the tables
            // whose foreign keys go lose only their FK triggers.
            let views: Vec<String> = reach
                .iter()
                .filter(|r| model.objects.views.contains_key(r.as_str()))
                .cloned()
                .collect();
            c.toast = toast_of(model, &names(views));
            c.toast_set = true;
            c.other = names(reach);
            out.push(c);
        }
    }
    out
}
