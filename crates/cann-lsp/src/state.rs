//! The state the main loop's handlers work on (see [`crate::api`]): the session, the
//! connection's sender, and the workers' shared bookkeeping. The main loop
//! ([`crate::server`]) owns one and hands it to the handlers, which never call back into
//! the loop.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crossbeam_channel::Sender;
use lsp_server::{Message, Notification, Request, RequestId, Response};
use lsp_types::{InitializeParams, Url};

use crate::session::Session;
use crate::settings::{locale_lang, ClientSettings};
use crate::workers::{self, Cancelled, Versions};

/// The state the main loop's handlers work on.
pub struct Server {
    pub session: Session,
    pub sender: Sender<Message>,
    /// The newest version of each open document, shared with the workers, which drop
    /// results computed for an older one.
    pub versions: Versions,
    pub cancelled: Cancelled,
    pub lint: Sender<crate::session::Snapshot>,
    /// Each document's newest lint, for requests that need its findings.
    pub lints: crate::linted::Lints,
    pub jobs: Sender<workers::Job>,
    /// Ids of requests the server sent the client.
    next_id: i32,
    /// The client can watch files for us (dynamic registration).
    pub watch_files: bool,
}

impl Server {
    pub(crate) fn new(sender: Sender<Message>, init: &InitializeParams) -> Self {
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
        let lints = crate::linted::Lints::default();
        let lint = workers::spawn_lint(sender.clone(), versions.clone(), lints.clone());
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
            lints,
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
