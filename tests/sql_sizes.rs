//! The per-statement facts the SQL analysis keeps for every statement of a
//! run (100,000 of them for a big migration): their sizes are part of the
//! memory budget of issue 21, so a payload that grows back inline fails here.
use platcheck::sql::analysis::Stmt;
use platcheck::sql::ops::{Alter, Op};
use std::mem::size_of;

#[test]
fn sizes() {
    let (alter, op, stmt) = (size_of::<Alter>(), size_of::<Op>(), size_of::<Stmt>());
    println!("Alter {alter} B, Op {op} B, Stmt {stmt} B");
    // An ALTER action was 344 bytes with `ColumnDef` inline.
    assert!(alter <= 64, "Alter is {alter} bytes");
    assert!(op <= 152, "Op is {op} bytes");
    assert!(stmt <= 304, "Stmt is {stmt} bytes");
}
