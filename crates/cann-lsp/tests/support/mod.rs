//! A client for the tests: the server runs in-process on lsp-server's memory connection;
//! the test sends what an editor sends and reads what comes back.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::{Diagnostic, Url};
use serde_json::{json, Value};

pub const WAIT: Duration = Duration::from_secs(30);

pub struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next: i32,
    /// Notifications read while waiting for something else.
    pending: Vec<Notification>,
    /// Requests the server sent (registrations).
    pub server_requests: Vec<Request>,
}

impl Client {
    /// Starts a server and initializes it with `options` and `locale`.
    pub fn start(options: Value, locale: Option<&str>) -> Client {
        Client::start_with(json!({
            "processId": null,
            "rootUri": null,
            "capabilities": {
                "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } }
            },
            "initializationOptions": options,
            "locale": locale,
        }))
    }

    pub fn start_with(init: Value) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || {
            cann_lsp::run(server).unwrap();
        });
        let mut c = Client {
            conn,
            server: Some(handle),
            next: 0,
            pending: Vec::new(),
            server_requests: Vec::new(),
        };
        let r = c.request("initialize", init);
        assert!(r.get("capabilities").is_some(), "{r}");
        c.notify("initialized", json!({}));
        c
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))
            .unwrap();
    }

    /// The id the next request will have.
    pub fn next_id(&self) -> RequestId {
        RequestId::from(self.next + 1)
    }

    /// Sends a request and returns its id, without waiting.
    pub fn send(&mut self, method: &str, params: Value) -> RequestId {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.into(),
                params,
            )))
            .unwrap();
        id
    }

    /// The response to `id`.
    pub fn response(&mut self, id: &RequestId) -> Response {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self
                .conn
                .receiver
                .recv_timeout(left)
                .expect("no response in time")
            {
                Message::Response(r) if &r.id == id => return r,
                Message::Response(_) => {}
                Message::Notification(n) => self.pending.push(n),
                Message::Request(r) => self.server_requests.push(r),
            }
        }
    }

    /// Sends a request and returns its result (panics on an error response).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        let r = self.response(&id);
        if let Some(e) = r.error {
            panic!("{method}: {} {}", e.code, e.message);
        }
        r.result.unwrap_or(Value::Null)
    }

    pub fn open(&self, uri: &Url, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": uri, "languageId": language, "version": 1, "text": text
            }}),
        );
    }

    /// One incremental edit: `(line, character)` to `(line, character)` becomes `text`.
    pub fn edit(&self, uri: &Url, version: i32, from: (u32, u32), to: (u32, u32), text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{
                    "range": {
                        "start": { "line": from.0, "character": from.1 },
                        "end": { "line": to.0, "character": to.1 },
                    },
                    "text": text,
                }],
            }),
        );
    }

    /// The diagnostics published for `uri` at `version`.
    pub fn diagnostics(&mut self, uri: &Url, version: i32) -> Vec<Diagnostic> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(i) = self.pending.iter().position(|n| {
                n.method == "textDocument/publishDiagnostics"
                    && n.params["uri"] == json!(uri)
                    && n.params["version"] == json!(version)
            }) {
                let n = self.pending.remove(i);
                return serde_json::from_value(n.params["diagnostics"].clone()).unwrap();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.conn.receiver.recv_timeout(left).unwrap_or_else(|_| {
                panic!("no diagnostics for {uri} v{version}: {:?}", self.pending)
            }) {
                Message::Notification(n) => self.pending.push(n),
                Message::Request(r) => self.server_requests.push(r),
                Message::Response(_) => {}
            }
        }
    }

    pub fn hover(&mut self, uri: &Url, line: u32, character: u32) -> Value {
        self.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
        )
    }

    pub fn complete(&mut self, uri: &Url, line: u32, character: u32) -> Vec<Value> {
        let r = self.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
        );
        r.as_array().cloned().unwrap_or_default()
    }

    /// Shuts the server down and waits for it to end.
    pub fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(h) = self.server.take() {
            h.join().unwrap();
        }
    }
}

/// A `file:` URI for a path in a directory.
pub fn uri(dir: &std::path::Path, name: &str) -> Url {
    Url::from_file_path(dir.join(name)).unwrap()
}

/// The (line, character) of the first occurrence of `needle` in `text`, in UTF-16 units,
/// plus `extra` characters.
pub fn at(text: &str, needle: &str, extra: u32) -> (u32, u32) {
    let i = text.find(needle).unwrap();
    let before = &text[..i];
    let line = before.matches('\n').count() as u32;
    let col: usize = before[before.rfind('\n').map_or(0, |j| j + 1)..]
        .chars()
        .map(char::len_utf16)
        .sum();
    (line, col as u32 + extra)
}

pub const SCRIPT: &str = include_str!("../../../cann-lint/tests/fixtures/session_bert.py");
