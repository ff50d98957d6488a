//! `platcheck lsp`: JSON-RPC conformance over the real binary's stdio
//! (initialize, shutdown, exit, requests out of order) and the server's
//! behaviour on an in-memory connection, where every message can be queued
//! before the server reads any (so cancellation is deterministic):
//! workspace diagnostics with rule codes and doc links, unsaved buffers,
//! quick fixes, hover, and a Cluster contract changed on disk re-judging
//! its migrations.
#[path = "lsp/client.rs"]
mod client;
#[path = "lsp/diagnostics.rs"]
mod diagnostics;
#[path = "lsp/stdio.rs"]
mod stdio;

use serde_json::{Value, json};
use std::path::Path;

const CLUSTER: &str = "apiVersion: platcheck/v1\nkind: Cluster\nmetadata:\n  name: orders-db\n  owner: team-orders\nspec:\n  engine:\n    product: postgresql\n    version: \"16\"\n  migrations:\n    path: migrations\n    hot_tables: [orders]\n";

fn repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::create_dir_all(d.join("migrations")).unwrap();
    std::fs::write(
        d.join("platcheck.yaml"),
        "version: 1\ntoday: 2026-11-30\nrules:\n  MG031: warning\n",
    )
    .unwrap();
    std::fs::write(d.join("db.yaml"), CLUSTER).unwrap();
    std::fs::write(
        d.join("migrations/V1__base.sql"),
        "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint);\n",
    )
    .unwrap();
    std::fs::write(
        d.join("migrations/V2__idx.sql"),
        "SET lock_timeout = '2s';\nSET statement_timeout = '15min';\nCREATE INDEX idx_c ON orders (customer_id);\n",
    )
    .unwrap();
    tmp
}

fn uri(p: &Path) -> String {
    platcheck::lsp::path_to_uri(p).unwrap().as_str().to_string()
}

fn initialize(root: &Path, id: i64, watch: bool) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "processId": null,
        "rootUri": uri(root),
        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": watch}}}
    }})
}
