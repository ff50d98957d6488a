//! What the server publishes and answers: workspace diagnostics with rule
//! codes and doc links, unsaved buffers, quick fixes, hover, a Cluster
//! contract changed on disk re-judging its migrations, and the lines a
//! message names as related information.
use super::client::Client;
use super::{CLUSTER, repo, uri};
use serde_json::{Value, json};
use std::path::Path;

fn has(diags: &[Value], rule: &str) -> bool {
    diags.iter().any(|d| d["code"] == json!(rule))
}

#[test]
fn diagnostics_quick_fixes_hover_and_watched_contracts() {
    let repo = repo();
    let v2 = repo.path().join("migrations/V2__idx.sql");
    let dup = repo.path().join("z-copy.yaml");
    std::fs::write(&dup, "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: orders-db\n  owner: team-orders\nspec:\n  region: eu-west-1\n").unwrap();
    let client = Client::start(repo.path(), Vec::new(), true);
    // The client is asked to watch the workspace's files.
    let reg = client.wait("registerCapability", |v| {
        v["method"] == json!("client/registerCapability")
    });
    assert_eq!(
        reg["params"]["registrations"][0]["method"],
        json!("workspace/didChangeWatchedFiles")
    );
    // Whole-workspace diagnostics without opening anything: MG001 is an
    // error because the Cluster contract (another file) says orders is hot.
    let diags = client.diagnostics_of(&v2, |d| has(d, "MG001"));
    let mg001 = diags.iter().find(|d| d["code"] == json!("MG001")).unwrap();
    assert_eq!(mg001["severity"], json!(1), "{mg001}");
    assert_eq!(mg001["source"], json!("platcheck"));
    assert_eq!(mg001["range"]["start"], json!({"line": 2, "character": 0}));
    let href = mg001["codeDescription"]["href"].as_str().unwrap();
    assert!(
        href.ends_with(&format!(
            "/v{}/rules/mg/MG001.md",
            env!("CARGO_PKG_VERSION")
        )),
        "{href}"
    );
    // (Published after the migrations: paths in order.) A secondary place is related information: the first definition.
    let pc007 = client.diagnostics_of(&dup, |d| has(d, "PC007"));
    let pc007 = pc007.iter().find(|d| d["code"] == json!("PC007")).unwrap();
    let rel = &pc007["relatedInformation"][0];
    assert_eq!(
        rel["location"]["uri"],
        json!(uri(&repo.path().join("db.yaml"))),
        "{pc007}"
    );
    assert_eq!(
        rel["location"]["range"]["start"],
        json!({"line": 3, "character": 8})
    );
    assert_eq!(
        rel["message"],
        json!("Cluster `orders-db` is first defined here")
    );
    // An unsaved buffer is what gets judged.
    let unsaved = "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nCREATE INDEX idx_c ON orders (customer_id);\nDROP INDEX idx_old;\n";
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&v2), "languageId": "sql", "version": 1, "text": unsaved}}),
    );
    client.diagnostics_of(&v2, |d| has(d, "MG002"));
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&v2), "version": 2}, "contentChanges": [{"text": "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nCREATE INDEX idx_c ON orders (customer_id);\n"}]}),
    );
    client.diagnostics_of(&v2, |d| has(d, "MG001") && !has(d, "MG002"));
    // The quick fix is the fix `platcheck fix` applies.
    client.request(
        2,
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&v2)}, "range": mg001["range"], "context": {"diagnostics": [mg001]}}),
    );
    let actions = client.response(2)["result"].clone();
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["diagnostics"][0]["code"] == json!("MG001"))
        .unwrap_or_else(|| panic!("no MG001 action in {actions}"));
    assert_eq!(action["kind"], json!("quickfix"));
    assert_eq!(action["isPreferred"], json!(true));
    let changes = action["edit"]["documentChanges"].as_array().unwrap();
    let conf = uri(&repo.path().join("migrations/V2__idx.sql.conf"));
    assert!(
        changes
            .iter()
            .any(|c| c["kind"] == json!("create") && c["uri"] == json!(conf)),
        "{action}"
    );
    let edit = changes
        .iter()
        .find(|c| c["textDocument"]["uri"] == json!(uri(&v2)))
        .unwrap();
    assert_eq!(
        edit["edits"][0],
        json!({"range": {"start": {"line": 2, "character": 12}, "end": {"line": 2, "character": 12}}, "newText": " CONCURRENTLY IF NOT EXISTS"})
    );
    // Hover: a contract key's schema description, a rule id's summary.
    client.request(
        3,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&repo.path().join("db.yaml"))}, "position": {"line": 11, "character": 6}}),
    );
    let key = client.response(3);
    let text = key["result"]["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("**spec.migrations.hot_tables**"), "{text}");
    client.request(
        4,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&repo.path().join("platcheck.yaml"))}, "position": {"line": 3, "character": 4}}),
    );
    let rule = client.response(4);
    let text = rule["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        text.starts_with("**MG031** `missing-statement-timeout`"),
        "{text}"
    );
    assert!(text.contains("/rules/mg/MG031.md)"), "{text}");
    // The Cluster contract changes on disk: its migrations are judged again
    // (orders is no longer hot but sized small, so MG001 drops to a warning;
    // an undeclared size would stay an error: the gate fails closed).
    std::fs::write(
        repo.path().join("db.yaml"),
        CLUSTER.replace(
            "hot_tables: [orders]",
            "hot_tables: []\n    table_rows: { orders: 10k }",
        ),
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&repo.path().join("db.yaml")), "type": 2}]}),
    );
    client.diagnostics_of(&v2, |d| {
        d.iter()
            .any(|x| x["code"] == json!("MG001") && x["severity"] == json!(2))
    });
    assert_eq!(client.finish(), 0);
}

/// The related information of the diagnostic of `rule`: (line, character,
/// message) of each location.
fn related_of(diags: &[Value], rule: &str, file: &Path) -> Vec<(u64, u64, String)> {
    let d = diags.iter().find(|d| d["code"] == json!(rule)).unwrap();
    d["relatedInformation"]
        .as_array()
        .unwrap_or_else(|| panic!("{rule} has no related information: {d}"))
        .iter()
        .map(|r| {
            assert_eq!(r["location"]["uri"], json!(uri(file)), "{r}");
            (
                r["location"]["range"]["start"]["line"].as_u64().unwrap(),
                r["location"]["range"]["start"]["character"]
                    .as_u64()
                    .unwrap(),
                r["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_lines_a_message_names_are_related_information() {
    let repo = repo();
    let v3 = repo.path().join("migrations/V3__two.sql");
    std::fs::write(
        &v3,
        "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nALTER TABLE orders ADD CONSTRAINT orders_cid_positive CHECK (customer_id > 0) NOT VALID;\n  ALTER TABLE orders VALIDATE CONSTRAINT orders_cid_positive;\nALTER TABLE orders ALTER COLUMN customer_id TYPE text;\nALTER TABLE orders ADD COLUMN note text;\n",
    )
    .unwrap();
    let client = Client::start(repo.path(), Vec::new(), false);
    let diags = client.diagnostics_of(&v3, |d| {
        ["MG016", "MG032", "MG033"].iter().all(|r| has(d, r))
    });
    // MG016 (`on line {line}`): the NOT VALID add, 0-based line 2.
    assert_eq!(
        related_of(&diags, "MG016", &v3),
        vec![(2, 0, "the NOT VALID add of orders_cid_positive".to_string())]
    );
    // MG032 (`lines {lines}`): every later statement, indentation left out.
    let mg032 = related_of(&diags, "MG032", &v3);
    assert_eq!(
        mg032.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(),
        vec![(3, 2), (4, 0), (5, 0)],
        "{mg032:?}"
    );
    // MG033 (`the first is on line {first}`).
    assert_eq!(related_of(&diags, "MG033", &v3)[0].0, 3);
    assert_eq!(client.finish(), 0);
}
