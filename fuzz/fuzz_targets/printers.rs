//! Random findings through every printer: none panics, and each output is
//! well formed for its reader — JSON parses, SARIF URIs are encoded, the
//! line formats keep one line per finding, no raw control character reaches
//! a terminal or CI log, GitHub's 10-per-level cap holds, XML has only the
//! characters XML 1.0 allows. The generator and the checks are the property
//! test's (tests/printer_props.rs), shared in one file.
#![no_main]
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/printer_checks.rs"]
mod printer_checks;
use printer_checks::{Files, RawFinding, check, outcome};

/// At most 3 files and 40 findings, as the property test draws them.
fn raw(u: &mut Unstructured) -> Result<(Files, Vec<RawFinding>)> {
    let mut files: Files = u.arbitrary()?;
    files.truncate(3);
    let mut findings: Vec<RawFinding> = u.arbitrary()?;
    findings.truncate(40);
    Ok((files, findings))
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok((files, findings)) = raw(&mut u) {
        check(&outcome(files, findings));
    }
});
