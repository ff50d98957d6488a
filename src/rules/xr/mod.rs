//! The XR family: rules that need a Cluster and an EventBoundary together.
mod xr001_outbox_async_cluster;
mod xr002_db_as_queue;

use crate::catalog::RuleId;
use crate::registry::{Check, Entry};

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            id: RuleId::XR001,
            check: Check::Workspace(xr001_outbox_async_cluster::check),
        },
        Entry {
            id: RuleId::XR002,
            check: Check::Workspace(xr002_db_as_queue::check),
        },
    ]
}
