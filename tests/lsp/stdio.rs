//! JSON-RPC conformance over the real binary's stdio: a request before
//! initialize, unknown methods, requests after shutdown, and the exit code
//! with and without shutdown.
use super::{initialize, repo};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

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

/// `platcheck lsp` of the built binary in `dir`: the child, its stdin and
/// its stdout ready for framed reads.
fn spawn(dir: &Path, stderr: Stdio) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_platcheck"))
        .arg("lsp")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    (child, stdin, out)
}

fn send(stdin: &mut impl Write, v: &Value) {
    stdin.write_all(&frame(v)).unwrap();
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

#[test]
fn stdio_initialize_shutdown_exit() {
    let repo = repo();
    let (mut child, mut stdin, mut out) = spawn(repo.path(), Stdio::piped());
    // A request before initialize is refused, and the server waits on.
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}}),
    );
    let early = response(&mut out, 1);
    assert_eq!(early["error"]["code"], json!(-32002), "{early}");
    send(&mut stdin, &initialize(repo.path(), 2, false));
    let init = response(&mut out, 2);
    let caps = &init["result"]["capabilities"];
    assert_eq!(caps["hoverProvider"], json!(true), "{init}");
    assert_eq!(
        caps["codeActionProvider"]["codeActionKinds"],
        json!(["quickfix"])
    );
    assert_eq!(caps["textDocumentSync"]["change"], json!(1));
    assert_eq!(init["result"]["serverInfo"]["name"], json!("platcheck"));
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    // An unknown method is an error, not a crash.
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "platcheck/nothing", "params": {}}),
    );
    assert_eq!(response(&mut out, 3)["error"]["code"], json!(-32601));
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}),
    );
    assert_eq!(response(&mut out, 4)["result"], Value::Null);
    // After shutdown every request is refused as invalid.
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {}}),
    );
    assert_eq!(response(&mut out, 5)["error"]["code"], json!(-32600));
    send(&mut stdin, &json!({"jsonrpc": "2.0", "method": "exit"}));
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "exit after shutdown is 0");
}

#[test]
fn stdio_exit_without_shutdown_is_exit_code_1() {
    let repo = repo();
    let (mut child, mut stdin, mut out) = spawn(repo.path(), Stdio::null());
    send(&mut stdin, &initialize(repo.path(), 1, false));
    response(&mut out, 1);
    send(
        &mut stdin,
        &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    send(&mut stdin, &json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(child.wait().unwrap().code(), Some(1));
}
