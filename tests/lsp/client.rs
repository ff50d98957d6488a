//! The server on an in-memory connection, where every message can be
//! queued before the server reads any, so cancellation is deterministic.
use super::{initialize, repo, uri};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

/// The client end of an in-memory server running in a thread.
pub(crate) struct Client {
    conn: Connection,
    server: std::thread::JoinHandle<Result<u8, String>>,
}

impl Client {
    pub(crate) fn start(root: &Path, queued: Vec<Message>, watch: bool) -> Client {
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
    pub(crate) fn send(&self, m: impl Into<Message>) {
        self.conn.sender.send(m.into()).unwrap();
    }
    pub(crate) fn request(&self, id: i32, method: &str, params: Value) {
        self.send(Request::new(RequestId::from(id), method.into(), params));
    }
    pub(crate) fn notify(&self, method: &str, params: Value) {
        self.send(Notification::new(method.into(), params));
    }
    /// The first message matching `pred` (others are skipped).
    pub(crate) fn wait(&self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
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
    pub(crate) fn response(&self, id: i32) -> Value {
        self.wait(&format!("response {id}"), |v| {
            v["id"] == json!(id) && v.get("method").is_none()
        })
    }
    pub(crate) fn diagnostics_of(
        &self,
        file: &Path,
        pred: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let u = uri(file);
        let v = self.wait(&format!("diagnostics of {u}"), |v| {
            v["method"] == json!("textDocument/publishDiagnostics")
                && v["params"]["uri"] == json!(u)
                && pred(v["params"]["diagnostics"].as_array().unwrap())
        });
        v["params"]["diagnostics"].as_array().unwrap().clone()
    }
    pub(crate) fn finish(self) -> u8 {
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
