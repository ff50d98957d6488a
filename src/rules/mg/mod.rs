//! The MG family: migration SQL. Every rule reads the one cached analysis
//! of the workspace's SQL files (`crate::sql::analysis`).
use crate::catalog::RuleId;
use crate::registry::{Check, Entry};

mod common;
mod mg001_create_index_blocks_writes;
mod mg002_drop_index_blocking;
mod mg003_concurrently_in_transaction;
mod mg004_reindex_blocking;
mod mg005_detach_partition_blocking;
mod mg006_table_rebuild;
mod mg007_refresh_matview_blocking;
mod mg010_add_column_default_rewrite;
mod mg011_add_column_serial_identity;
mod mg012_column_type_rewrite;
mod mg013_set_not_null_scan;
mod mg014_check_without_not_valid;
mod mg015_foreign_key_without_not_valid;
mod mg016_validate_in_same_transaction;
mod mg017_unique_constraint_builds_index;
mod mg018_primary_key_using_index_nullable;
mod mg019_exclude_constraint;
mod mg020_storage_rewrite;
mod mg021_truncate;
mod mg022_drop_foreign_key_locks_referenced;
mod mg023_partition_attach_scan;
mod mg024_enum_add_value_transaction;
mod mg025_brief_lock_without_timeout;
mod mg030_missing_lock_timeout;
mod mg031_missing_statement_timeout;
mod mg032_statements_after_access_exclusive;
mod mg033_several_scanning_alters;
mod mg034_backfill_with_ddl;
mod mg040_drop_column;
mod mg041_drop_table;
mod mg042_rename;
mod mg043_add_not_null_column_without_default;
mod mg044_column_type_smells;
mod mg045_non_idempotent_ddl;
mod mg046_identifier_too_long;
mod mg050_statement_refused;
mod mg100_mysql_explicit_copy_or_lock;
mod mg101_mysql_copy_alter;
mod mg102_mysql_inplace_rebuild;
mod mg103_mysql_alter_without_guard;
mod mg104_mysql_missing_lock_wait_timeout;
mod mg105_mariadb_expression_default_once;
mod mg106_mysql_column_references_ignored;
mod mg107_mysql_add_auto_increment;
mod mg108_mysql_version_without_patch;
mod mg900_lock_prediction_disagrees;
mod mg901_statement_acts_outside;

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            id: RuleId::MG001,
            check: Check::Workspace(mg001_create_index_blocks_writes::check),
        },
        Entry {
            id: RuleId::MG002,
            check: Check::Workspace(mg002_drop_index_blocking::check),
        },
        Entry {
            id: RuleId::MG003,
            check: Check::Workspace(mg003_concurrently_in_transaction::check),
        },
        Entry {
            id: RuleId::MG004,
            check: Check::Workspace(mg004_reindex_blocking::check),
        },
        Entry {
            id: RuleId::MG005,
            check: Check::Workspace(mg005_detach_partition_blocking::check),
        },
        Entry {
            id: RuleId::MG006,
            check: Check::Workspace(mg006_table_rebuild::check),
        },
        Entry {
            id: RuleId::MG007,
            check: Check::Workspace(mg007_refresh_matview_blocking::check),
        },
        Entry {
            id: RuleId::MG010,
            check: Check::Workspace(mg010_add_column_default_rewrite::check),
        },
        Entry {
            id: RuleId::MG011,
            check: Check::Workspace(mg011_add_column_serial_identity::check),
        },
        Entry {
            id: RuleId::MG012,
            check: Check::Workspace(mg012_column_type_rewrite::check),
        },
        Entry {
            id: RuleId::MG013,
            check: Check::Workspace(mg013_set_not_null_scan::check),
        },
        Entry {
            id: RuleId::MG014,
            check: Check::Workspace(mg014_check_without_not_valid::check),
        },
        Entry {
            id: RuleId::MG015,
            check: Check::Workspace(mg015_foreign_key_without_not_valid::check),
        },
        Entry {
            id: RuleId::MG016,
            check: Check::Workspace(mg016_validate_in_same_transaction::check),
        },
        Entry {
            id: RuleId::MG017,
            check: Check::Workspace(mg017_unique_constraint_builds_index::check),
        },
        Entry {
            id: RuleId::MG018,
            check: Check::Workspace(mg018_primary_key_using_index_nullable::check),
        },
        Entry {
            id: RuleId::MG019,
            check: Check::Workspace(mg019_exclude_constraint::check),
        },
        Entry {
            id: RuleId::MG020,
            check: Check::Workspace(mg020_storage_rewrite::check),
        },
        Entry {
            id: RuleId::MG021,
            check: Check::Workspace(mg021_truncate::check),
        },
        Entry {
            id: RuleId::MG022,
            check: Check::Workspace(mg022_drop_foreign_key_locks_referenced::check),
        },
        Entry {
            id: RuleId::MG023,
            check: Check::Workspace(mg023_partition_attach_scan::check),
        },
        Entry {
            id: RuleId::MG024,
            check: Check::Workspace(mg024_enum_add_value_transaction::check),
        },
        Entry {
            id: RuleId::MG025,
            check: Check::Workspace(mg025_brief_lock_without_timeout::check),
        },
        Entry {
            id: RuleId::MG030,
            check: Check::Workspace(mg030_missing_lock_timeout::check),
        },
        Entry {
            id: RuleId::MG031,
            check: Check::Workspace(mg031_missing_statement_timeout::check),
        },
        Entry {
            id: RuleId::MG032,
            check: Check::Workspace(mg032_statements_after_access_exclusive::check),
        },
        Entry {
            id: RuleId::MG033,
            check: Check::Workspace(mg033_several_scanning_alters::check),
        },
        Entry {
            id: RuleId::MG034,
            check: Check::Workspace(mg034_backfill_with_ddl::check),
        },
        Entry {
            id: RuleId::MG040,
            check: Check::Workspace(mg040_drop_column::check),
        },
        Entry {
            id: RuleId::MG041,
            check: Check::Workspace(mg041_drop_table::check),
        },
        Entry {
            id: RuleId::MG042,
            check: Check::Workspace(mg042_rename::check),
        },
        Entry {
            id: RuleId::MG043,
            check: Check::Workspace(mg043_add_not_null_column_without_default::check),
        },
        Entry {
            id: RuleId::MG044,
            check: Check::Workspace(mg044_column_type_smells::check),
        },
        Entry {
            id: RuleId::MG045,
            check: Check::Workspace(mg045_non_idempotent_ddl::check),
        },
        Entry {
            id: RuleId::MG046,
            check: Check::Workspace(mg046_identifier_too_long::check),
        },
        Entry {
            id: RuleId::MG050,
            check: Check::Workspace(mg050_statement_refused::check),
        },
        Entry {
            id: RuleId::MG100,
            check: Check::Workspace(mg100_mysql_explicit_copy_or_lock::check),
        },
        Entry {
            id: RuleId::MG101,
            check: Check::Workspace(mg101_mysql_copy_alter::check),
        },
        Entry {
            id: RuleId::MG102,
            check: Check::Workspace(mg102_mysql_inplace_rebuild::check),
        },
        Entry {
            id: RuleId::MG103,
            check: Check::Workspace(mg103_mysql_alter_without_guard::check),
        },
        Entry {
            id: RuleId::MG104,
            check: Check::Workspace(mg104_mysql_missing_lock_wait_timeout::check),
        },
        Entry {
            id: RuleId::MG105,
            check: Check::Workspace(mg105_mariadb_expression_default_once::check),
        },
        Entry {
            id: RuleId::MG106,
            check: Check::Workspace(mg106_mysql_column_references_ignored::check),
        },
        Entry {
            id: RuleId::MG107,
            check: Check::Workspace(mg107_mysql_add_auto_increment::check),
        },
        Entry {
            id: RuleId::MG108,
            check: Check::Workspace(mg108_mysql_version_without_patch::check),
        },
        Entry {
            id: RuleId::MG900,
            check: Check::Workspace(mg900_lock_prediction_disagrees::check),
        },
        Entry {
            id: RuleId::MG901,
            check: Check::Workspace(mg901_statement_acts_outside::check),
        },
    ]
}
