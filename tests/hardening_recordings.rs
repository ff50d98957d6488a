//! The offline MG900 reads `observed.json` like any input (never through a
//! link out of the repository) and matches its statements whatever the
//! line endings of the file it was recorded from or is checked now.
#![cfg(unix)]
mod common;
use common::sandbox::{Sandbox, stdout};

const FIXTURE: &str = "tests/fixtures/mg/MG900/bad";

/// The MG900 bad fixture in a sandbox, with its migration replaced by `sql`
/// and its recording's statement heads passed through `head`.
fn sandbox(sql: &str, head: impl Fn(&str) -> String) -> (Sandbox, String) {
    let dir = common::root().join(FIXTURE);
    let config = std::fs::read_to_string(dir.join("platcheck.yaml")).unwrap();
    let s = Sandbox::new(&config);
    let rec = std::fs::read_to_string(dir.join("migrations/observed.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&rec).unwrap();
    for st in doc["statements"].as_array_mut().unwrap() {
        let h = head(st["statement"].as_str().unwrap());
        st["statement"] = h.into();
    }
    s.write("migrations/V2__drop_order_ref.sql", sql);
    (s, serde_json::to_string_pretty(&doc).unwrap())
}

/// The MG900 messages of a run.
fn mg900(s: &Sandbox) -> Vec<String> {
    let o = s.run(&["check", "--format", "json", "."]);
    let doc: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "MG900")
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
}

const STATEMENT: &str = "ALTER TABLE order_items DROP CONSTRAINT order_items_order_ref";

#[test]
fn a_recording_matches_statements_with_lone_cr_line_endings() {
    // Recorded from the LF file (its head is the first line), checked now
    // with lone CRs: the head must be cut at the CR too.
    let sql = "-- legacy\rALTER TABLE order_items\rDROP CONSTRAINT order_items_order_ref;\r";
    let (s, rec) = sandbox(sql, |h| {
        if h == STATEMENT {
            "ALTER TABLE order_items".into()
        } else {
            h.into()
        }
    });
    s.write("migrations/observed.json", rec);
    let m = mg900(&s);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        m[0].starts_with("statement 1 (ALTER TABLE order_items):"),
        "{m:?}"
    );
    assert!(!m[0].contains('\r'));

    // Recorded from the lone-CR file (its head ran on past the CR),
    // checked now with LF.
    let sql = "-- legacy\nALTER TABLE order_items\nDROP CONSTRAINT order_items_order_ref;\n";
    let (s, rec) = sandbox(sql, |h| {
        if h == STATEMENT {
            "ALTER TABLE order_items\rDROP CONSTRAINT order_items_order_ref".into()
        } else {
            h.into()
        }
    });
    s.write("migrations/observed.json", rec);
    assert_eq!(mg900(&s).len(), 1);
}

#[test]
fn a_recording_linked_from_outside_the_repository_is_not_read() {
    let sql = format!("{STATEMENT};\n");
    let (mut s, rec) = sandbox(&sql, str::to_string);
    let outside = s.plant_outside("observed.json", &rec);
    s.link("migrations/observed.json", &outside);
    assert_eq!(mg900(&s), Vec::<String>::new());
    // The same recording inside is read: the link was the only difference.
    std::fs::remove_file(s.repo.join("migrations/observed.json")).unwrap();
    s.write("migrations/observed.json", &rec);
    assert_eq!(mg900(&s).len(), 1);
    s.assert_outside_unchanged();
}
