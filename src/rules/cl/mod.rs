//! The CL family: Cluster contracts, judged against the reasoning of the
//! data-platform reference (engine choice, HA, replicas, sharding, regions,
//! backup and restore, lifecycle, capacity, connections, migrations, cost).
use crate::catalog::RuleId;
use crate::registry::{Check, Entry};

mod budget;
mod common;

mod cl001_engine_choice;
mod cl002_engine_class_mismatch;
mod cl010_ha_incomplete;
mod cl011_rpo_zero_async;
mod cl012_failover_untested;
mod cl013_failover_test_conditions;
mod cl014_quorum;
mod cl015_manual_promotion;
mod cl016_fencing;
mod cl020_query_class_incomplete;
mod cl021_idle_replicas;
mod cl022_replica_lag_alert;
pub(crate) mod cl030_sharding_incomplete;
mod cl031_shards_vs_nodes;
mod cl032_hot_shard;
mod cl033_cross_shard_transactions;
mod cl040_cross_region_mode;
mod cl041_cross_region_sync;
mod cl042_failover_target;
mod cl050_backup_incomplete;
mod cl051_backup_same_region;
mod cl052_backup_rpo;
mod cl053_backup_retention;
mod cl054_backup_unencrypted;
mod cl060_restore_drill_missing;
mod cl061_restore_drill_stale;
mod cl062_restore_vs_rto;
mod cl063_restore_not_validated;
mod cl070_manual_provisioning;
mod cl071_lifecycle_runbooks;
pub(crate) mod cl080_capacity_incomplete;
mod cl081_alert_steps;
mod cl090_connection_budget;
mod cl091_connection_headroom;
mod cl092_proxy_spof;
mod cl093_transaction_pooling;
mod cl094_connection_storm;
mod cl100_migration_registry;
mod cl110_cost_review;
mod cl120_analytics_on_primary;
mod cl121_quorum_overlap;

pub fn entries() -> Vec<Entry> {
    let rules: [(RuleId, crate::registry::CheckFn); 41] = [
        (RuleId::CL001, cl001_engine_choice::check),
        (RuleId::CL002, cl002_engine_class_mismatch::check),
        (RuleId::CL010, cl010_ha_incomplete::check),
        (RuleId::CL011, cl011_rpo_zero_async::check),
        (RuleId::CL012, cl012_failover_untested::check),
        (RuleId::CL013, cl013_failover_test_conditions::check),
        (RuleId::CL014, cl014_quorum::check),
        (RuleId::CL015, cl015_manual_promotion::check),
        (RuleId::CL016, cl016_fencing::check),
        (RuleId::CL020, cl020_query_class_incomplete::check),
        (RuleId::CL021, cl021_idle_replicas::check),
        (RuleId::CL022, cl022_replica_lag_alert::check),
        (RuleId::CL030, cl030_sharding_incomplete::check),
        (RuleId::CL031, cl031_shards_vs_nodes::check),
        (RuleId::CL032, cl032_hot_shard::check),
        (RuleId::CL033, cl033_cross_shard_transactions::check),
        (RuleId::CL040, cl040_cross_region_mode::check),
        (RuleId::CL041, cl041_cross_region_sync::check),
        (RuleId::CL042, cl042_failover_target::check),
        (RuleId::CL050, cl050_backup_incomplete::check),
        (RuleId::CL051, cl051_backup_same_region::check),
        (RuleId::CL052, cl052_backup_rpo::check),
        (RuleId::CL053, cl053_backup_retention::check),
        (RuleId::CL054, cl054_backup_unencrypted::check),
        (RuleId::CL060, cl060_restore_drill_missing::check),
        (RuleId::CL061, cl061_restore_drill_stale::check),
        (RuleId::CL062, cl062_restore_vs_rto::check),
        (RuleId::CL063, cl063_restore_not_validated::check),
        (RuleId::CL070, cl070_manual_provisioning::check),
        (RuleId::CL071, cl071_lifecycle_runbooks::check),
        (RuleId::CL080, cl080_capacity_incomplete::check),
        (RuleId::CL081, cl081_alert_steps::check),
        (RuleId::CL090, cl090_connection_budget::check),
        (RuleId::CL091, cl091_connection_headroom::check),
        (RuleId::CL092, cl092_proxy_spof::check),
        (RuleId::CL093, cl093_transaction_pooling::check),
        (RuleId::CL094, cl094_connection_storm::check),
        (RuleId::CL100, cl100_migration_registry::check),
        (RuleId::CL110, cl110_cost_review::check),
        (RuleId::CL120, cl120_analytics_on_primary::check),
        (RuleId::CL121, cl121_quorum_overlap::check),
    ];
    rules
        .into_iter()
        .map(|(id, check)| Entry {
            id,
            check: Check::Workspace(check),
        })
        .collect()
}
