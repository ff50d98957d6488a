//! A run keeps a `Report` per finding while the rules run (beside the whole
//! SQL analysis) and a `Finding` per finding until it is printed: 50,000 of
//! each for the 100k-statement bench of issue 21. The rare parts (a fix, a
//! contract) are boxed: 336 and 344 bytes inline; a payload that grows back
//! inline fails here.
use platcheck::emit::Report;
use platcheck::finding::Finding;
use std::mem::size_of;

#[test]
fn sizes() {
    let (report, finding) = (size_of::<Report>(), size_of::<Finding>());
    println!("Report {report} B, Finding {finding} B");
    assert!(report <= 248, "Report is {report} bytes");
    assert!(finding <= 256, "Finding is {finding} bytes");
}
