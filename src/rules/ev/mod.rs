//! The EV family: event-boundary contracts (delivery semantics, idempotency,
//! outbox, ordering, schema, retry/DLQ, backpressure, sagas, CQRS sync).
pub mod common;
mod ev001_delivery_undeclared;
mod ev002_at_most_once_critical;
mod ev003_at_most_once_repair;
mod ev010_exactly_once_clauses;
mod ev011_no_transactional_offsets;
mod ev012_effect_outside_atomic_domain;
mod ev020_no_idempotency;
mod ev021_redis_only_authority;
mod ev022_redis_on_durable_path;
mod ev023_dedup_window;
mod ev024_dedup_outside_transaction;
mod ev025_cross_system_effects;
mod ev030_post_commit_publish;
mod ev031_skip_locked_ordering;
mod ev032_ordering_prerequisites;
mod ev033_outbox_abandon;
mod ev034_outbox_cluster_unknown;
mod ev040_partition_key;
mod ev041_hot_key;
mod ev042_rekey_unshardable;
mod ev043_repartition_plan;
mod ev050_compatibility_mode;
mod ev051_schema_discovery;
mod ev052_public_alias;
pub mod ev053_schema_compat;
mod ev054_pii_retraction;
mod ev060_retry_policy;
mod ev061_retry_budget_scope;
mod ev062_inline_sleep;
mod ev070_dlq;
mod ev071_replay_fixtures;
mod ev072_dlq_provenance;
mod ev080_consumer_lag;
mod ev090_shared_pool_ordered;
mod ev091_producer_blocks;
mod ev092_rebalance;
mod ev100_workflow_orchestration;
mod ev101_irreversible_step;
mod ev110_event_contract;
mod ev111_group_two_owners;
mod ev112_shape_name;
mod ev120_kafka_producer_durability;
mod ev121_offset_commit;
mod ev122_read_uncommitted;
mod ev130_read_model_dedup;
mod ev131_read_model_bootstrap;
mod ev132_read_model_triggers;
mod ev140_referenced_plan;
mod ev141_outbox_order;
mod ev142_cross_partition_order;
mod ev143_message_shape;
mod ev144_consumers_partitions;

use crate::catalog::RuleId;
use crate::registry::{Check, CheckFn, Entry};

pub fn entries() -> Vec<Entry> {
    let all: &[(RuleId, CheckFn)] = &[
        (RuleId::EV001, ev001_delivery_undeclared::check),
        (RuleId::EV002, ev002_at_most_once_critical::check),
        (RuleId::EV003, ev003_at_most_once_repair::check),
        (RuleId::EV010, ev010_exactly_once_clauses::check),
        (RuleId::EV011, ev011_no_transactional_offsets::check),
        (RuleId::EV012, ev012_effect_outside_atomic_domain::check),
        (RuleId::EV020, ev020_no_idempotency::check),
        (RuleId::EV021, ev021_redis_only_authority::check),
        (RuleId::EV022, ev022_redis_on_durable_path::check),
        (RuleId::EV023, ev023_dedup_window::check),
        (RuleId::EV024, ev024_dedup_outside_transaction::check),
        (RuleId::EV025, ev025_cross_system_effects::check),
        (RuleId::EV030, ev030_post_commit_publish::check),
        (RuleId::EV031, ev031_skip_locked_ordering::check),
        (RuleId::EV032, ev032_ordering_prerequisites::check),
        (RuleId::EV033, ev033_outbox_abandon::check),
        (RuleId::EV034, ev034_outbox_cluster_unknown::check),
        (RuleId::EV040, ev040_partition_key::check),
        (RuleId::EV041, ev041_hot_key::check),
        (RuleId::EV042, ev042_rekey_unshardable::check),
        (RuleId::EV043, ev043_repartition_plan::check),
        (RuleId::EV050, ev050_compatibility_mode::check),
        (RuleId::EV051, ev051_schema_discovery::check),
        (RuleId::EV052, ev052_public_alias::check),
        (RuleId::EV053, ev053_schema_compat::check),
        (RuleId::EV054, ev054_pii_retraction::check),
        (RuleId::EV060, ev060_retry_policy::check),
        (RuleId::EV061, ev061_retry_budget_scope::check),
        (RuleId::EV062, ev062_inline_sleep::check),
        (RuleId::EV070, ev070_dlq::check),
        (RuleId::EV071, ev071_replay_fixtures::check),
        (RuleId::EV072, ev072_dlq_provenance::check),
        (RuleId::EV080, ev080_consumer_lag::check),
        (RuleId::EV090, ev090_shared_pool_ordered::check),
        (RuleId::EV091, ev091_producer_blocks::check),
        (RuleId::EV092, ev092_rebalance::check),
        (RuleId::EV100, ev100_workflow_orchestration::check),
        (RuleId::EV101, ev101_irreversible_step::check),
        (RuleId::EV110, ev110_event_contract::check),
        (RuleId::EV111, ev111_group_two_owners::check),
        (RuleId::EV112, ev112_shape_name::check),
        (RuleId::EV120, ev120_kafka_producer_durability::check),
        (RuleId::EV121, ev121_offset_commit::check),
        (RuleId::EV122, ev122_read_uncommitted::check),
        (RuleId::EV130, ev130_read_model_dedup::check),
        (RuleId::EV131, ev131_read_model_bootstrap::check),
        (RuleId::EV132, ev132_read_model_triggers::check),
        (RuleId::EV140, ev140_referenced_plan::check),
        (RuleId::EV141, ev141_outbox_order::check),
        (RuleId::EV142, ev142_cross_partition_order::check),
        (RuleId::EV143, ev143_message_shape::check),
        (RuleId::EV144, ev144_consumers_partitions::check),
    ];
    all.iter()
        .map(|&(id, check)| Entry {
            id,
            check: Check::Workspace(check),
        })
        .collect()
}
