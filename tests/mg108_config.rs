//! MG108 where the engine version comes from the config's `sql.version`
//! (migrations no Cluster owns), not only from a Cluster's
//! `engine.version`: the built binary on the two config fixtures.
mod common;
use std::path::Path;

fn run(which: &str) -> String {
    let dir = common::root().join(Path::new("tests/fixtures/mg/MG108").join(which));
    let out = common::run_in(&dir, &["check", "--format", "json", "."]);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn sql_version_without_patch_is_reported_at_the_config_line() {
    let json: serde_json::Value = serde_json::from_str(&run("config_bad")).expect("json output");
    let hits: Vec<_> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "MG108")
        .collect();
    assert_eq!(hits.len(), 1, "{json:#}");
    let f = hits[0];
    assert_eq!(f["file"], "platcheck.yaml", "{f:#}");
    assert_eq!(f["line"], 5, "{f:#}");
    assert_eq!(
        f["message"],
        "sql.version \"10.11\" names no patch release: the MySQL/MariaDB lock rules judge the migrations no Cluster owns as 10.11.10, the newest 10.11 platcheck knows"
    );
}

#[test]
fn a_full_sql_version_is_quiet() {
    let json: serde_json::Value = serde_json::from_str(&run("config_good")).expect("json output");
    let findings = json["findings"].as_array().expect("findings");
    assert!(findings.iter().all(|f| f["rule"] != "MG108"), "{json:#}");
    // The fixture is otherwise clean: the migration itself was judged.
    assert!(findings.is_empty(), "{json:#}");
}
