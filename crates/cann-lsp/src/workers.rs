//! Work off the main loop: lints on one thread, requests on another, each on a snapshot,
//! so a hover never waits for a lint. Results for a document version that is no longer
//! the newest are dropped; requests the client cancelled are answered as cancelled.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Message, Notification, RequestId};
use lsp_types::{PublishDiagnosticsParams, Url};

use crate::linted::Lints;
use crate::session::Snapshot;

pub type Versions = Arc<Mutex<HashMap<Url, i32>>>;
pub type Cancelled = Arc<Mutex<HashSet<RequestId>>>;
pub type Job = Box<dyn FnOnce() + Send>;

/// Whether `version` is still the newest of `uri`.
pub fn current(versions: &Versions, uri: &Url, version: i32) -> bool {
    versions
        .lock()
        .map(|v| v.get(uri) == Some(&version))
        .unwrap_or(false)
}

pub fn spawn_lint(sender: Sender<Message>, versions: Versions, lints: Lints) -> Sender<Snapshot> {
    let (tx, rx) = crossbeam_channel::unbounded::<Snapshot>();
    std::thread::Builder::new()
        .name("cannctl-lint".into())
        .spawn(move || lint_loop(&rx, &sender, &versions, &lints))
        .ok();
    tx
}

fn lint_loop(
    rx: &Receiver<Snapshot>,
    sender: &Sender<Message>,
    versions: &Versions,
    lints: &Lints,
) {
    // What each open document's last lint kept: the next one costs what the edit changed.
    let mut memos: HashMap<Url, cann_lint::Incremental> = HashMap::new();
    while let Ok(first) = rx.recv() {
        // Edits come faster than lints: of what is queued, only each document's newest
        // snapshot is linted.
        let mut newest: HashMap<Url, Snapshot> = HashMap::new();
        for s in std::iter::once(first).chain(rx.try_iter()) {
            newest.insert(s.uri.clone(), s);
        }
        for (uri, snap) in newest {
            if !current(versions, &uri, snap.doc.version) {
                continue;
            }
            let memo = memos.entry(uri.clone()).or_default();
            // A panic here is a bug; it costs this document's diagnostics (and what its
            // lints kept), not the server.
            let Ok((diagnostics, report)) = catch_unwind(AssertUnwindSafe(|| {
                crate::diagnose::diagnose(&snap, Some(memo))
            })) else {
                memos.remove(&uri);
                continue;
            };
            // Kept for code actions on this version, current or not: a request waiting for
            // it learns that way that it was linted.
            lints.put(&snap, report);
            if !current(versions, &uri, snap.doc.version) {
                continue;
            }
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: Some(snap.doc.version),
            };
            let n = Notification::new("textDocument/publishDiagnostics".into(), params);
            let _ = sender.send(Message::Notification(n));
        }
        // Closed documents keep nothing.
        if let Ok(open) = versions.lock() {
            memos.retain(|u, _| open.contains_key(u));
            lints.retain(|u| open.contains_key(u));
        }
    }
}

pub fn spawn_jobs() -> Sender<Job> {
    let (tx, rx) = crossbeam_channel::unbounded::<Job>();
    std::thread::Builder::new()
        .name("cannctl-requests".into())
        .spawn(move || {
            while let Ok(job) = rx.recv() {
                let _ = catch_unwind(AssertUnwindSafe(job));
            }
        })
        .ok();
    tx
}
