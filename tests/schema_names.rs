//! The schema model names unnamed constraints as PostgreSQL does: each form
//! runs on the real server inside a transaction that is rolled back, and
//! the names in `pg_constraint` must be the ones the model keeps. A wrong
//! name made `DROP CONSTRAINT t_pkey` miss the model's primary key (it was
//! stored as `t_<cols>_pkey`).
#[path = "verify_oracle/servers.rs"]
mod servers;

use platcheck::sql::analysis::analyze_file;
use platcheck::sql::ops::ConstraintKind;
use platcheck::sql::schema::Model;
use platcheck::sql::verify::file_ctx;
use platcheck::sql::{Dialect, Version};
use std::collections::BTreeSet;

/// The forms, `@` standing for a table name unique to this run.
const FORMS: &[&str] = &[
    "CREATE TABLE @ (a int, b int, PRIMARY KEY (a, b));",
    "CREATE TABLE @ (a int, b int, PRIMARY KEY (a, b));\nALTER TABLE @ DROP CONSTRAINT @_pkey;",
    "CREATE TABLE @ (id int PRIMARY KEY, a int, b int, UNIQUE (a, b));",
    "CREATE TABLE @ (id int PRIMARY KEY, p int REFERENCES @ (id), a int UNIQUE);",
    "CREATE TABLE @ (id int, a int, b int);\nALTER TABLE @ ADD PRIMARY KEY (id, a);\n\
     ALTER TABLE @ ADD UNIQUE (b);\nALTER TABLE @ ADD FOREIGN KEY (a, b) REFERENCES @ (id, a);",
    "CREATE TABLE @ (id int, a int);\nALTER TABLE @ ADD CONSTRAINT @_own PRIMARY KEY (id);\n\
     ALTER TABLE @ DROP CONSTRAINT @_own;\nALTER TABLE @ ADD PRIMARY KEY (a);",
    // CHECK: one column named in the expression gives `t_col_check`, none
    // or several `t_check`, a taken name a number (`t_check1`).
    "CREATE TABLE @ (a int CHECK (a > 0), b int, c int, CHECK (b > c), CHECK (b > 0), \
     CHECK (1 > 0), CHECK (a + b > c));",
    "CREATE TABLE @ (a int CHECK (a > 0) CHECK (a < 10), c int);\nALTER TABLE @ ADD CHECK (c > 0);\n\
     ALTER TABLE @ ADD CHECK (a > c);\nALTER TABLE @ ADD COLUMN e int CHECK (e > 0);",
    // A column CHECK is named after what its expression references, not
    // after the column it is written on.
    "CREATE TABLE @ (a int CHECK (b > 0), b int CHECK (a > b), c int CHECK (1 > 0), \
     d text CHECK (length(d) > 0), e int CHECK (e > 0 AND e < 9));\n\
     ALTER TABLE @ ADD COLUMN f int CHECK (c > 0);\nALTER TABLE @ ADD COLUMN g int CHECK (g > a);",
    // EXCLUDE: its elements' column names; an expression element is named
    // by its function (`lower`) or `expr`.
    "CREATE TABLE @ (r int4range, d tstzrange, x text, y text, a int, \
     EXCLUDE USING gist (r WITH &&, d WITH &&));\nALTER TABLE @ ADD EXCLUDE USING gist (d WITH &&);\n\
     ALTER TABLE @ ADD EXCLUDE ((lower(x)) WITH =);\nALTER TABLE @ ADD EXCLUDE ((x || y) WITH =);\n\
     ALTER TABLE @ ADD EXCLUDE (x WITH =) WHERE (a > 0);",
];

/// Primary key, unique, foreign key, CHECK and EXCLUDE names the model keeps for `table`:
/// its constraints, and the indexes a constraint made (a column-level
/// PRIMARY KEY or UNIQUE is kept as its index only).
fn model_names(sql: &str, table: &str) -> BTreeSet<String> {
    let mut m = Model::default();
    let fa = analyze_file(
        sql,
        0,
        file_ctx(Dialect::Postgres, Version(15, 0, 0)),
        &mut m,
    );
    assert!(
        fa.stmts.iter().all(|s| s.op.is_some()),
        "not all classified: {sql}"
    );
    let tb = m
        .tables
        .get(table)
        .unwrap_or_else(|| panic!("no table {table}: {sql}"));
    let keys = tb
        .constraints
        .iter()
        .filter(|(_, c)| {
            matches!(
                c.kind,
                ConstraintKind::PrimaryKey
                    | ConstraintKind::Unique
                    | ConstraintKind::ForeignKey
                    | ConstraintKind::Check
                    | ConstraintKind::Exclude
            )
        })
        .map(|(n, _)| n.clone());
    let indexes = m
        .table_indexes(table)
        .into_iter()
        .filter(|i| m.constraint_indexes.contains(i));
    keys.chain(indexes).collect()
}

fn server_names(client: &mut postgres::Client, sql: &str, table: &str) -> BTreeSet<String> {
    let mut tx = client.transaction().expect("BEGIN");
    tx.batch_execute(sql)
        .unwrap_or_else(|e| panic!("the server refused {sql}: {e}"));
    let rows = tx
        .query(
            "SELECT conname::text FROM pg_constraint \
             WHERE conrelid = $1::text::regclass AND contype IN ('p', 'u', 'f', 'c', 'x')",
            &[&table],
        )
        .expect("pg_constraint");
    let names = rows.iter().map(|r| r.get::<_, String>(0)).collect();
    tx.rollback().expect("ROLLBACK");
    names
}

#[test]
fn unnamed_constraints_are_named_as_postgresql_names_them() {
    let Some(mut client) = servers::postgres_client() else {
        return;
    };
    let table = format!("pc_schema_names_{}", std::process::id());
    for form in FORMS {
        let sql = form.replace('@', &table);
        let server = server_names(&mut client, &sql, &table);
        assert!(
            !server.is_empty() || form.contains("DROP CONSTRAINT @_pkey"),
            "the form makes no key: {sql}"
        );
        assert_eq!(model_names(&sql, &table), server, "{sql}");
    }
}

/// Column lists whose TOAST table the model must judge as the server
/// does (`pg_class.reltoastrelid`): unbounded types alone, bounded ones by
/// the widest row (varchar(n): 4 bytes a character in UTF8), partitioned
/// tables never.
const TOAST_FORMS: &[&str] = &[
    "CREATE TABLE @ (a int, b bigint, c timestamptz, d uuid, f boolean, g date, h interval, i double precision);",
    "CREATE TABLE @ (id int, a varchar(10));",
    "CREATE TABLE @ (id int, a varchar(500));",
    "CREATE TABLE @ (a varchar(507));",
    "CREATE TABLE @ (id int, a varchar(255), b varchar(255));",
    "CREATE TABLE @ (a numeric(12,2), b char(10), c bit(100), d varbit(10));",
    "CREATE TABLE @ (a numeric);",
    "CREATE TABLE @ (a int[]);",
    "CREATE TABLE @ (a inet);",
    "CREATE TABLE @ (id bigint PRIMARY KEY, a jsonb);",
    "CREATE TABLE @ (a bytea);",
    "CREATE TABLE @ (a varchar);",
    "CREATE TABLE @ (a text) PARTITION BY RANGE (a);",
    "CREATE TABLE @ (id int, a int);\nALTER TABLE @ ADD COLUMN b text;",
    "CREATE TABLE @ (id int, a text);\nALTER TABLE @ ALTER COLUMN a TYPE int USING 0;",
];

#[test]
fn toast_tables_are_predicted_as_postgresql_makes_them() {
    let Some(mut client) = servers::postgres_client() else {
        return;
    };
    let table = format!("pc_toast_{}", std::process::id());
    let (mut with, mut without) = (0, 0);
    for form in TOAST_FORMS {
        let sql = form.replace('@', &table);
        let mut tx = client.transaction().expect("BEGIN");
        tx.batch_execute(&sql)
            .unwrap_or_else(|e| panic!("the server refused {sql}: {e}"));
        let server: bool = tx
            .query_one(
                "SELECT reltoastrelid <> 0 FROM pg_class WHERE oid = $1::text::regclass",
                &[&table],
            )
            .expect("pg_class")
            .get(0);
        tx.rollback().expect("ROLLBACK");
        let mut m = Model::default();
        analyze_file(
            &sql,
            0,
            file_ctx(Dialect::Postgres, Version(15, 0, 0)),
            &mut m,
        );
        let model = m.has_toast(&platcheck::sql::ops::Name::new(table.clone()));
        assert_eq!(model, Some(server), "{sql}");
        if server {
            with += 1;
        } else {
            without += 1;
        }
    }
    assert!(with >= 5 && without >= 5, "{with} with, {without} without");
}
