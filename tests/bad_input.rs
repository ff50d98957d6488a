//! Bad input: every case gives a located PC finding (or a clear run error)
//! in bounded time and memory, the other files are still checked, and
//! nothing panics. Large and hostile inputs are generated here rather than
//! committed.
mod common;
#[path = "bad_input/config.rs"]
mod config;
#[path = "bad_input/contents.rs"]
mod contents;
#[path = "bad_input/special_files.rs"]
mod special_files;

use platcheck::{Finding, RuleId};
use std::path::Path;

const HEAD: &str =
    "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: NAME\n  owner: team\nspec:\n";

fn contract(name: &str, spec: &str) -> String {
    format!("{}{spec}", HEAD.replace("NAME", name))
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

fn at<'a>(findings: &'a [Finding], file: &str) -> Vec<&'a Finding> {
    findings.iter().filter(|f| f.file.ends_with(file)).collect()
}

fn one(findings: &[Finding], file: &str, rule: RuleId) -> Finding {
    let hits: Vec<_> = at(findings, file)
        .into_iter()
        .filter(|f| f.rule == rule)
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "{file}: expected one {rule}, got {:#?}",
        at(findings, file)
    );
    hits[0].clone()
}
