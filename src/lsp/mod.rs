//! `platcheck lsp`: a language server over stdio. Every check sees the
//! whole workspace (the editor's unsaved buffers laid over the disk), so
//! cross-file rules — a migration judged against its Cluster's hot tables —
//! are as in `platcheck check`. Checks are debounced while typing and run at
//! once on open, save and watched-file changes; diagnostics carry the rule
//! id and its versioned doc link, quick fixes are the fixes `platcheck fix`
//! applies, and hover shows a rule's summary or a contract key's schema
//! description.
mod convert;
mod hover;
mod lines;

use crate::engine;
use crate::outcome::Outcome;
use crate::settings::Overrides;
use crate::source::normalize;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use convert::{path_to_uri, uri_to_path};

/// How long typing must pause before a check runs.
const DEBOUNCE: Duration = Duration::from_millis(300);

/// Serves on stdin/stdout until `exit`; the exit code is 0 after a
/// `shutdown` request, 1 without one (as the protocol asks).
pub fn run_stdio(overrides: Overrides, cwd: PathBuf) -> Result<u8, String> {
    let (conn, io) = Connection::stdio();
    let code = serve(conn, overrides, cwd)?;
    io.join().map_err(|e| format!("language server I/O: {e}"))?;
    Ok(code)
}

/// The server on any connection (`Connection::memory()` in tests).
pub fn serve(conn: Connection, overrides: Overrides, cwd: PathBuf) -> Result<u8, String> {
    let (id, params) = conn.initialize_start().map_err(|e| e.to_string())?;
    let init: lsp::InitializeParams =
        serde_json::from_value(params).map_err(|e| format!("initialize params: {e}"))?;
    let root = root_of(&init).unwrap_or(cwd);
    let caps = lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::FULL),
                save: Some(lsp::TextDocumentSyncSaveOptions::SaveOptions(
                    lsp::SaveOptions {
                        include_text: Some(true),
                    },
                )),
                ..Default::default()
            },
        )),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        ..Default::default()
    };
    let result = serde_json::json!({
        "capabilities": caps,
        "serverInfo": { "name": "platcheck", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)
        .map_err(|e| e.to_string())?;
    let watch = init
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|d| d.dynamic_registration)
        .unwrap_or(false);
    let mut server = Server {
        conn,
        root,
        overrides,
        open: BTreeMap::new(),
        published: BTreeSet::new(),
        outcome: None,
        deadline: Some(Instant::now()),
        queue: VecDeque::new(),
        cancelled: HashSet::new(),
        shutdown: false,
    };
    if watch {
        server.register_watchers();
    }
    server.run()
}

fn root_of(init: &lsp::InitializeParams) -> Option<PathBuf> {
    if let Some(folder) = init.workspace_folders.as_ref().and_then(|f| f.first()) {
        return uri_to_path(&folder.uri);
    }
    #[allow(deprecated)]
    init.root_uri.as_ref().and_then(uri_to_path)
}

struct Server {
    conn: Connection,
    root: PathBuf,
    overrides: Overrides,
    /// The editor's buffers, by normalised path.
    open: BTreeMap<PathBuf, String>,
    /// Files that have diagnostics in the editor now.
    published: BTreeSet<PathBuf>,
    outcome: Option<Outcome>,
    /// When the next check is due (`None`: nothing changed).
    deadline: Option<Instant>,
    /// Messages read ahead while looking for cancellations.
    queue: VecDeque<Message>,
    cancelled: HashSet<RequestId>,
    shutdown: bool,
}

impl Server {
    fn run(&mut self) -> Result<u8, String> {
        loop {
            if self.deadline.is_some_and(|d| d <= Instant::now()) {
                self.check();
            }
            let msg = match self.queue.pop_front() {
                Some(m) => m,
                None => {
                    let wait = self.deadline.map_or(Duration::from_secs(3600), |d| {
                        d.saturating_duration_since(Instant::now())
                    });
                    match self.conn.receiver.recv_timeout(wait) {
                        Ok(m) => m,
                        Err(crossbeam_channel::RecvTimeoutError::Timeout) => continue,
                        // The client went away without `exit`.
                        Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(1),
                    }
                }
            };
            match msg {
                Message::Request(req) => self.request(req),
                Message::Notification(n) if n.method == lsp::notification::Exit::METHOD => {
                    return Ok(if self.shutdown { 0 } else { 1 });
                }
                Message::Notification(n) => self.notification(n),
                Message::Response(_) => {}
            }
        }
    }

    fn send(&self, msg: impl Into<Message>) {
        // A closed channel means the client is gone; `run` sees it next.
        let _ = self.conn.sender.send(msg.into());
    }

    fn request(&mut self, req: Request) {
        if self.shutdown {
            return self.send(Response::new_err(
                req.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".into(),
            ));
        }
        // Read what has arrived since: a cancellation of this request
        // behind it in the stream is honoured before the work is done.
        while let Ok(m) = self.conn.receiver.try_recv() {
            if let Message::Notification(n) = &m
                && n.method == lsp::notification::Cancel::METHOD
            {
                if let Ok(p) = serde_json::from_value::<lsp::CancelParams>(n.params.clone()) {
                    self.cancelled.insert(cancel_id(p.id));
                }
                continue;
            }
            self.queue.push_back(m);
        }
        if self.cancelled.remove(&req.id) {
            return self.send(Response::new_err(
                req.id,
                ErrorCode::RequestCanceled as i32,
                "cancelled".into(),
            ));
        }
        let id = req.id.clone();
        let result = match req.method.as_str() {
            "shutdown" => {
                self.shutdown = true;
                Ok(serde_json::Value::Null)
            }
            "textDocument/codeAction" => parse(req).map(|p| self.code_actions(p)),
            "textDocument/hover" => parse(req).map(|p| self.hover(p)),
            other => Err((
                ErrorCode::MethodNotFound,
                format!("unsupported request {other}"),
            )),
        };
        match result {
            Ok(v) => self.send(Response::new_ok(id, v)),
            Err((code, m)) => self.send(Response::new_err(id, code as i32, m)),
        }
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification as N;
        let now = Instant::now();
        match n.method.as_str() {
            N::Cancel::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::CancelParams>(n.params) {
                    self.cancelled.insert(cancel_id(p.id));
                }
            }
            N::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidOpenTextDocumentParams>(n.params)
                    && let Some(path) = uri_to_path(&p.text_document.uri)
                {
                    self.open.insert(normalize(&path), p.text_document.text);
                    self.deadline = Some(now);
                }
            }
            N::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidChangeTextDocumentParams>(n.params)
                    && let Some(path) = uri_to_path(&p.text_document.uri)
                    && let Some(change) = p.content_changes.into_iter().last()
                {
                    self.open.insert(normalize(&path), change.text);
                    self.deadline = Some(now + DEBOUNCE);
                }
            }
            N::DidSaveTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidSaveTextDocumentParams>(n.params)
                    && let Some(path) = uri_to_path(&p.text_document.uri)
                {
                    if let Some(text) = p.text {
                        self.open.insert(normalize(&path), text);
                    }
                    self.deadline = Some(now);
                }
            }
            N::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp::DidCloseTextDocumentParams>(n.params)
                    && let Some(path) = uri_to_path(&p.text_document.uri)
                {
                    self.open.remove(&normalize(&path));
                    self.deadline = Some(now);
                }
            }
            // A contract edited outside the editor (or a migration added):
            // the whole workspace is judged again.
            N::DidChangeWatchedFiles::METHOD => self.deadline = Some(now),
            _ => {}
        }
    }

    fn register_watchers(&self) {
        let options = lsp::DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![lsp::FileSystemWatcher {
                glob_pattern: lsp::GlobPattern::String(
                    "**/*.{yaml,yml,sql,md,json,conf,avsc,proto}".into(),
                ),
                kind: None,
            }],
        };
        let params = lsp::RegistrationParams {
            registrations: vec![lsp::Registration {
                id: "platcheck-watched-files".into(),
                method: lsp::notification::DidChangeWatchedFiles::METHOD.into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        self.send(Request::new(
            RequestId::from("platcheck-register-watchers".to_string()),
            "client/registerCapability".into(),
            params,
        ));
    }

    /// Checks the workspace and publishes every file's diagnostics,
    /// clearing the files that have none any more.
    fn check(&mut self) {
        self.deadline = None;
        let outcome = match engine::run_overlay(
            std::slice::from_ref(&self.root),
            &self.root,
            &self.overrides,
            &self.open,
        ) {
            Ok(o) => o,
            Err(engine::RunError::Usage(m)) => {
                let params = lsp::ShowMessageParams {
                    typ: lsp::MessageType::ERROR,
                    message: format!("platcheck: {m}"),
                };
                return self.send(Notification::new(
                    lsp::notification::ShowMessage::METHOD.into(),
                    params,
                ));
            }
        };
        let diags = convert::diagnostics(&outcome);
        let now: BTreeSet<PathBuf> = diags.keys().map(|p| normalize(p)).collect();
        let stale: Vec<PathBuf> = self.published.difference(&now).cloned().collect();
        for path in stale {
            self.publish(&path, Vec::new());
        }
        for (path, d) in diags {
            self.publish(&normalize(&path), d);
        }
        self.published = now;
        self.outcome = Some(outcome);
    }

    fn publish(&self, path: &std::path::Path, diagnostics: Vec<lsp::Diagnostic>) {
        let Some(uri) = path_to_uri(path) else { return };
        let params = lsp::PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        };
        self.send(Notification::new(
            lsp::notification::PublishDiagnostics::METHOD.into(),
            params,
        ));
    }

    fn code_actions(&mut self, p: lsp::CodeActionParams) -> serde_json::Value {
        if self.deadline.is_some() || self.outcome.is_none() {
            self.check();
        }
        let (Some(outcome), Some(path)) = (&self.outcome, uri_to_path(&p.text_document.uri)) else {
            return serde_json::Value::Null;
        };
        let path = normalize(&path);
        let files = lines::Files::of(outcome);
        let Some(lines) = files.get(&path) else {
            return serde_json::Value::Null;
        };
        let (from, to) = (lines.offset(p.range.start), lines.offset(p.range.end));
        let display = outcome
            .files
            .iter()
            .find(|s| normalize(&s.path) == path)
            .map(|s| s.display.clone());
        let actions: Vec<lsp::CodeActionOrCommand> = outcome
            .findings
            .iter()
            .filter(|f| Some(&f.file) == display.as_ref())
            .filter(|f| f.start <= to && from <= f.end.max(f.start))
            .filter_map(|f| {
                let fix = f.fix.as_ref()?;
                if fix.effective(f.rule) == crate::catalog::FixSafety::None {
                    return None;
                }
                let diag = convert::diagnostic(f, lines);
                convert::code_action(f, fix, diag, &files).map(lsp::CodeActionOrCommand::CodeAction)
            })
            .collect();
        serde_json::to_value(actions).unwrap_or(serde_json::Value::Null)
    }

    fn hover(&mut self, p: lsp::HoverParams) -> serde_json::Value {
        let doc = &p.text_document_position_params;
        let Some(path) = uri_to_path(&doc.text_document.uri) else {
            return serde_json::Value::Null;
        };
        let text = match self.open.get(&normalize(&path)) {
            Some(t) => t.clone(),
            None => match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(_) => return serde_json::Value::Null,
            },
        };
        let at = lines::LineIndex::new(&text).offset(doc.position);
        match hover::at(&path, &text, at) {
            Some(md) => serde_json::to_value(lsp::Hover {
                contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value: md,
                }),
                range: None,
            })
            .unwrap_or(serde_json::Value::Null),
            None => serde_json::Value::Null,
        }
    }
}

fn cancel_id(id: lsp::NumberOrString) -> RequestId {
    match id {
        lsp::NumberOrString::Number(n) => RequestId::from(n),
        lsp::NumberOrString::String(s) => RequestId::from(s),
    }
}

fn parse<P: serde::de::DeserializeOwned>(req: Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(req.params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}
