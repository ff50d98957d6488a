//! Relations a file creates are new there: a lock on them blocks no one.
//! The lock model names a table's constraint indexes (`t_pkey`); those are
//! as new as the table, so MG030 does not ask for a lock_timeout when a
//! later statement of the same file rewrites the table it just created.
mod common;

use platcheck::catalog::RuleId;

fn mg030(sql: &str) -> usize {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("001_create.sql");
    std::fs::write(&file, sql).unwrap();
    common::check(&[&file])
        .findings
        .iter()
        .filter(|f| f.rule == RuleId::MG030)
        .count()
}

#[test]
fn a_new_tables_constraint_indexes_are_new() {
    assert_eq!(
        mg030(
            "CREATE TABLE t (id int PRIMARY KEY, code text UNIQUE, a int);\n\
             ALTER TABLE t ALTER COLUMN a TYPE bigint;\n"
        ),
        0
    );
}

#[test]
fn an_existing_tables_indexes_still_count() {
    // The same rewrite on a table this file did not create still needs it.
    assert_eq!(mg030("ALTER TABLE t ALTER COLUMN a TYPE bigint;\n"), 1);
}
