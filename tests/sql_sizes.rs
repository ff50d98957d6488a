//! The SQL analysis keeps every statement of every script until the rules
//! and fixes are done, beside a `Report` per finding: at the 100k-statement
//! bench of issue 21 (`bench/sql/gen.py`, 100,000 statements, 50,002
//! findings) that is the run's peak. A payload that grows back inline (a
//! second `Name` in `CREATE TABLE`, an unboxed schema) fails here.
use platcheck::finding::{LockFact, SqlFacts};
use platcheck::sql::analysis::Stmt;
use platcheck::sql::effects::Effect;
use platcheck::sql::ops::{Alter, ColumnDef, Constraint, Name, Op};
use std::mem::size_of;

#[test]
fn sizes() {
    // (type, size now, bound): the bound is the size this branch reached.
    let sizes = [
        ("Stmt", size_of::<Stmt>(), 240),
        ("Op", size_of::<Op>(), 104),
        ("Alter", size_of::<Alter>(), 64),
        ("Effect", size_of::<Effect>(), 160),
        ("Name", size_of::<Name>(), 40),
        ("ColumnDef", size_of::<ColumnDef>(), 304),
        ("Constraint", size_of::<Constraint>(), 168),
        ("SqlFacts", size_of::<SqlFacts>(), 64),
        ("LockFact", size_of::<LockFact>(), 48),
    ];
    println!("{sizes:?}");
    let over: Vec<_> = sizes.iter().filter(|(_, n, max)| n > max).collect();
    assert!(over.is_empty(), "larger than before: {over:?}");
}
