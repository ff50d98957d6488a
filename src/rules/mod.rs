//! One folder per rule family, one file per rule; `entries()` is the one
//! table from rule id to the code that checks it.
use crate::registry::Entry;

pub mod cl;
pub mod ev;
pub mod mg;
pub mod mr;
pub mod pc;
pub mod policy;
pub mod pr;
pub mod xr;

/// Every rule's entry, in id order: each family lists its own.
pub fn entries() -> Vec<Entry> {
    let mut all = pc::entries();
    all.extend(cl::entries());
    all.extend(ev::entries());
    all.extend(mr::entries());
    all.extend(xr::entries());
    all.extend(mg::entries());
    all.extend(pr::entries());
    all.sort_by_key(|e| e.id);
    all
}
