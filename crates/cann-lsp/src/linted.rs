//! Each open document's newest lint, kept by the lint thread for the requests that need
//! the document's findings (code actions), so that a request does not lint the file again
//! on its own thread.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use cann_lint::FileReport;
use lsp_types::Url;

use crate::session::Snapshot;
use crate::settings::Effective;

/// The lint of one version of a document under one resolution of its settings.
struct Linted {
    version: i32,
    settings: Arc<Effective>,
    /// `None`: no finding (or the script could not be linted, which a request treats the
    /// same way: nothing to fix).
    report: Option<Arc<FileReport>>,
}

/// The newest lint of each document, shared by the lint thread (which writes it) and the
/// request thread (which waits for the version it answers about).
#[derive(Clone, Default)]
pub struct Lints(Arc<(Mutex<HashMap<Url, Linted>>, Condvar)>);

/// How long a request waits for the lint of its version before linting it itself; the
/// lint thread is then behind by more than a lint of the largest script.
pub const WAIT: Duration = Duration::from_secs(5);

impl Lints {
    /// The lint thread linted `snap`.
    pub fn put(&self, snap: &Snapshot, report: Option<FileReport>) {
        let (lock, changed) = &*self.0;
        if let Ok(mut m) = lock.lock() {
            m.insert(
                snap.uri.clone(),
                Linted {
                    version: snap.doc.version,
                    settings: snap.settings.clone(),
                    report: report.map(Arc::new),
                },
            );
        }
        changed.notify_all();
    }

    /// Closed documents keep nothing.
    pub fn retain(&self, open: impl Fn(&Url) -> bool) {
        if let Ok(mut m) = self.0 .0.lock() {
            m.retain(|u, _| open(u));
        }
    }

    /// The findings of the lint of `snap` (its version, under its settings), waiting for
    /// the lint thread while `newest()` says that version is the document's newest:
    /// `Ok(report)`. `Err` when it does not come within `limit` or a newer version replaced
    /// it (the caller then lints the snapshot itself, or answers that the content changed).
    pub fn wait_for(
        &self,
        snap: &Snapshot,
        newest: impl Fn() -> bool,
        limit: Duration,
    ) -> Result<Option<Arc<FileReport>>, ()> {
        let (lock, changed) = &*self.0;
        let deadline = Instant::now() + limit;
        let mut m = lock.lock().map_err(|_| ())?;
        loop {
            if let Some(l) = m.get(&snap.uri) {
                if l.version == snap.doc.version && Arc::ptr_eq(&l.settings, &snap.settings) {
                    return Ok(l.report.clone());
                }
            }
            let now = Instant::now();
            if now >= deadline || !newest() {
                return Err(());
            }
            // Woken by each lint; the slice bounds the wait for a version that was replaced.
            let slice = (deadline - now).min(Duration::from_millis(50));
            m = changed.wait_timeout(m, slice).map_err(|_| ())?.0;
        }
    }
}
