//! `platcheck lsp`: JSON-RPC conformance over the real binary's stdio
//! (initialize, shutdown, exit, requests out of order) and the server's
//! behaviour on an in-memory connection, where every message can be queued
//! before the server reads any (so cancellation is deterministic):
//! workspace diagnostics with rule codes and doc links, unsaved buffers,
//! quick fixes, hover, and a Cluster contract changed on disk re-judging
//! its migrations.
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

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

fn frame(v: &Value) -> Vec<u8> {
    let body = v.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut buf = vec![0; len?];
    r.read_exact(&mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

/// The response to request `id`, skipping notifications and other ids.
fn response(r: &mut impl BufRead, id: i64) -> Value {
    loop {
        let v = read_frame(r).expect("the server closed stdout before answering");
        if v.get("id") == Some(&json!(id)) && v.get("method").is_none() {
            return v;
        }
    }
}

fn initialize(root: &Path, id: i64, watch: bool) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "processId": null,
        "rootUri": uri(root),
        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": watch}}}
    }})
}

#[test]
fn stdio_initialize_shutdown_exit() {
    let repo = repo();
    let mut child = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .arg("lsp")
        .current_dir(repo.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    // A request before initialize is refused, and the server waits on.
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}}),
        ))
        .unwrap();
    let early = response(&mut out, 1);
    assert_eq!(early["error"]["code"], json!(-32002), "{early}");
    stdin
        .write_all(&frame(&initialize(repo.path(), 2, false)))
        .unwrap();
    let init = response(&mut out, 2);
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["hoverProvider"], json!(true), "{init}");
    assert_eq!(
        caps["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    assert_eq!(caps["textDocumentSync"]["change"], json!(1));
    assert_eq!(init["result"]["serverInfo"]["name"], json!("platcheck"));
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        ))
        .unwrap();
    // An unknown method is an error, not a crash.
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "id": 3, "method": "platcheck/nothing", "params": {}}),
        ))
        .unwrap();
    assert_eq!(response(&mut out, 3)["error"]["code"], json!(-32601));
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}),
        ))
        .unwrap();
    assert_eq!(response(&mut out, 4)["result"], Value::Null);
    // After shutdown every request is refused as invalid.
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {}}),
        ))
        .unwrap();
    assert_eq!(response(&mut out, 5)["error"]["code"], json!(-32600));
    stdin
        .write_all(&frame(&json!({"jsonrpc": "2.0", "method": "exit"})))
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "exit after shutdown is 0");
}

#[test]
fn stdio_exit_without_shutdown_is_exit_code_1() {
    let repo = repo();
    let mut child = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .arg("lsp")
        .current_dir(repo.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    stdin
        .write_all(&frame(&initialize(repo.path(), 1, false)))
        .unwrap();
    response(&mut out, 1);
    stdin
        .write_all(&frame(
            &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        ))
        .unwrap();
    stdin
        .write_all(&frame(&json!({"jsonrpc": "2.0", "method": "exit"})))
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

/// The client end of an in-memory server running in a thread.
struct Client {
    conn: Connection,
    server: std::thread::JoinHandle<Result<u8, String>>,
}

impl Client {
    fn start(root: &Path, queued: Vec<Message>, watch: bool) -> Client {
        let (server, client) = Connection::memory();
        let init: Request = serde_json::from_value(initialize(root, 1, watch)).unwrap();
        client.sender.send(init.into()).unwrap();
        client
            .sender
            .send(Notification::new("initialized".into(), json!({})).into())
            .unwrap();
        for m in queued {
            client.sender.send(m).unwrap();
        }
        let cwd = root.to_path_buf();
        let server = std::thread::spawn(move || {
            platcheck::lsp::serve(server, platcheck::settings::Overrides::default(), cwd)
        });
        Client {
            conn: client,
            server,
        }
    }
    fn send(&self, m: impl Into<Message>) {
        self.conn.sender.send(m.into()).unwrap();
    }
    fn request(&self, id: i32, method: &str, params: Value) {
        self.send(Request::new(RequestId::from(id), method.into(), params));
    }
    fn notify(&self, method: &str, params: Value) {
        self.send(Notification::new(method.into(), params));
    }
    /// The first message matching `pred` (others are skipped).
    fn wait(&self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self
                .conn
                .receiver
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|e| panic!("no message for {what}: {e}"));
            let v = serde_json::to_value(&m).unwrap();
            if pred(&v) {
                return v;
            }
        }
    }
    fn response(&self, id: i32) -> Value {
        self.wait(&format!("response {id}"), |v| {
            v["id"] == json!(id) && v.get("method").is_none()
        })
    }
    fn diagnostics_of(&self, file: &Path, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let u = uri(file);
        let v = self.wait(&format!("diagnostics of {u}"), |v| {
            v["method"] == json!("textDocument/publishDiagnostics")
                && v["params"]["uri"] == json!(u)
                && pred(v["params"]["diagnostics"].as_array().unwrap())
        });
        v["params"]["diagnostics"].as_array().unwrap().clone()
    }
    fn finish(self) -> u8 {
        self.request(99, "shutdown", Value::Null);
        self.response(99);
        self.notify("exit", Value::Null);
        self.server.join().unwrap().unwrap()
    }
}

#[test]
fn a_request_cancelled_before_it_is_handled_is_answered_cancelled() {
    let repo = repo();
    let hover = |id: i32| -> Message {
        Request::new(
            RequestId::from(id),
            "textDocument/hover".into(),
            json!({"textDocument": {"uri": uri(&repo.path().join("db.yaml"))}, "position": {"line": 11, "character": 6}}),
        )
        .into()
    };
    let cancel = Notification::new("$/cancelRequest".into(), json!({"id": 7})).into();
    let client = Client::start(repo.path(), vec![hover(7), cancel, hover(8)], false);
    let cancelled = client.response(7);
    assert_eq!(cancelled["error"]["code"], json!(-32800), "{cancelled}");
    let answered = client.response(8);
    assert!(
        answered["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("hot_tables"),
        "{answered}"
    );
    // A cancellation of a request already answered is ignored.
    client.notify("$/cancelRequest", json!({"id": 8}));
    assert_eq!(client.finish(), 0);
}

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
