//! The main loop: initialize, then each message to its handler (see [`crate::api`]), until
//! shutdown and exit, or until the client goes away.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crossbeam_channel::Sender;
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::{InitializeParams, Url};

use crate::session::Session;
use crate::settings::{locale_lang, ClientSettings};
use crate::workers::{self, Cancelled, Versions};

/// Why the server stopped other than by shutdown and exit.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("{0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl ServerError {
    /// What went wrong, in `lang`: the client gone, an I/O error by its kind, or the
    /// protocol library's own words for a client that broke the protocol.
    pub fn message(&self, lang: cann_config::meta::Lang) -> String {
        use cann_i18n::catalog::server as msg;
        match self {
            ServerError::Protocol(e) if e.channel_is_disconnected() => msg::client_gone(lang),
            ServerError::Protocol(e) => msg::stopped(lang, &e.to_string()),
            ServerError::Io(e) => msg::stopped(lang, &cann_input::io_reason(e, lang)),
        }
    }
}

/// The state the main loop's handlers work on.
pub struct Server {
    pub session: Session,
    pub sender: Sender<Message>,
    /// The newest version of each open document, shared with the workers, which drop
    /// results computed for an older one.
    pub versions: Versions,
    pub cancelled: Cancelled,
    pub lint: Sender<crate::session::Snapshot>,
    pub jobs: Sender<workers::Job>,
    /// Ids of requests the server sent the client.
    next_id: i32,
    /// The client can watch files for us (dynamic registration).
    pub watch_files: bool,
}

impl Server {
    fn new(sender: Sender<Message>, init: &InitializeParams) -> Self {
        let client = init
            .initialization_options
            .as_ref()
            .map(ClientSettings::from_json)
            .unwrap_or_default();
        let locale = init.locale.as_deref().and_then(locale_lang);
        #[allow(deprecated)] // root_uri: older clients send only it
        let root = init
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .map(|f| f.uri.clone())
            .or_else(|| init.root_uri.clone())
            .and_then(|u| u.to_file_path().ok())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let versions: Versions = Arc::new(Mutex::new(HashMap::new()));
        let cancelled: Cancelled = Arc::default();
        let lint = workers::spawn_lint(sender.clone(), versions.clone());
        let jobs = workers::spawn_jobs();
        let watch_files = init
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        Server {
            session: Session::new(client, locale, root),
            sender,
            versions,
            cancelled,
            lint,
            jobs,
            next_id: 0,
            watch_files,
        }
    }

    /// Queues a lint of `uri` at its current version; the result is published when it is
    /// still current.
    pub fn relint(&mut self, uri: &Url) {
        if let Some(s) = self.session.snapshot(uri) {
            let _ = self.lint.send(s);
        }
    }

    pub fn relint_all(&mut self) {
        for uri in self.session.uris() {
            self.relint(&uri);
        }
    }

    pub fn notify(&self, method: &str, params: impl serde::Serialize) {
        let _ = self.sender.send(Message::Notification(Notification::new(
            method.into(),
            params,
        )));
    }

    pub fn request_client(&mut self, method: &str, params: impl serde::Serialize) {
        self.next_id += 1;
        let id = RequestId::from(format!("cannctl-{}", self.next_id));
        let _ = self
            .sender
            .send(Message::Request(Request::new(id, method.into(), params)));
    }

    pub fn respond(&self, r: Response) {
        let _ = self.sender.send(Message::Response(r));
    }
}

/// Runs the server on standard input and output.
pub fn run_stdio() -> Result<(), ServerError> {
    let (sender, receiver, threads) = crate::transport::stdio();
    run(Connection { sender, receiver })?;
    threads.join()?;
    Ok(())
}

/// Runs the server on `conn` until shutdown and exit, or until the client hangs up.
pub fn run(conn: Connection) -> Result<(), ServerError> {
    let (id, params) = conn.initialize_start()?;
    // Parameters that do not read as InitializeParams are taken as empty: the server still
    // starts, with defaults.
    let init: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let result = serde_json::json!({
        "capabilities": crate::api::capabilities(),
        "serverInfo": { "name": "cannctl", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)?;
    let mut server = Server::new(conn.sender.clone(), &init);
    // lsp-server's handshake took the client's `initialized` notification already.
    crate::api::initialized(&mut server);
    for msg in &conn.receiver {
        match msg {
            Message::Request(req) => {
                match conn.handle_shutdown(&req) {
                    Ok(true) => return Ok(()),
                    Ok(false) => crate::api::request(&mut server, req),
                    // Shut down, and the client left without `exit`: done all the same.
                    Err(e) if e.channel_is_disconnected() => return Ok(()),
                    Err(e) => return Err(e.into()),
                }
            }
            Message::Notification(n) if n.method == "exit" => return Ok(()),
            Message::Notification(n) => crate::api::notification(&mut server, n),
            Message::Response(_) => {}
        }
    }
    Ok(())
}
