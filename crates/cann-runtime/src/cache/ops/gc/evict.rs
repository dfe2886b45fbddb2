//! The deleting side of a gc pass: directory descriptors reached without following any
//! symlink, and the eviction of chosen entries on background threads ([`crate::cache::sys::pool`]).

use std::collections::{HashMap, HashSet};
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::Arc;

use crate::cache::entries::relpath::RelPath;
use crate::cache::error::CommitStep;
use crate::cache::ops::core::FaultHook;
use crate::cache::ops::gc::{Reason, Removal};
use crate::cache::state::index::IndexRec;
use crate::cache::sys::fsx;

/// Directory descriptors opened during a pass, so each unlink is relative to a descriptor
/// that was reached without following any symlink. Shared with the eviction threads.
pub(crate) struct Dirs<'a> {
    pub kc: std::os::fd::BorrowedFd<'a>,
    pub open: HashMap<String, Arc<OwnedFd>>,
    /// Everything this pass unlinked.
    pub gone: HashSet<String>,
}

impl Dirs<'_> {
    pub fn fd(&mut self, dir: &str) -> std::io::Result<Arc<OwnedFd>> {
        if let Some(fd) = self.open.get(dir) {
            return Ok(Arc::clone(fd));
        }
        let fd = Arc::new(fsx::open_dir(self.kc, Path::new(dir))?);
        self.open.insert(dir.to_owned(), Arc::clone(&fd));
        Ok(fd)
    }

    pub fn unlink(&mut self, rel: &str) -> std::io::Result<bool> {
        let (dir, name) = RelPath::new(rel).split();
        let done = fsx::unlink_at(self.fd(dir)?.as_fd(), name.as_ref())?;
        if done {
            self.gone.insert(rel.to_owned());
        }
        Ok(done)
    }

    /// Unlinks a file by its raw (non-UTF-8) name in `dir`.
    pub fn unlink_raw(&mut self, dir: &str, name: &[u8]) -> std::io::Result<bool> {
        fsx::unlink_at(
            self.fd(dir)?.as_fd(),
            std::os::unix::ffi::OsStrExt::from_bytes(name),
        )
    }

    pub fn stat(&mut self, rel: &str) -> std::io::Result<rustix::fs::Stat> {
        let (dir, name) = RelPath::new(rel).split();
        fsx::lstat_at(self.fd(dir)?.as_fd(), name.as_ref())
    }
}

/// One entry to delete: its manifest first (the entry disappears in one step), then its
/// files, each with the descriptor of its directory and the bytes it was measured at.
pub(crate) struct Eviction {
    pub rel: String,
    pub reason: Reason,
    /// The record, handed back when the manifest could not be removed (it stays indexed).
    pub rec: IndexRec,
    pub unlinks: Vec<(Arc<OwnedFd>, String, String, u64)>,
    /// Told [`CommitStep::Evicting`] between the manifest's unlink and the files' (tests
    /// stop or kill the pass there).
    pub hook: Option<FaultHook>,
}

/// What became of an [`Eviction`].
pub(crate) enum Evicted {
    Removed(Removal, Vec<String>),
    /// Someone else removed the manifest first: the entry is gone, not by us.
    Vanished,
    /// The manifest is still there (no permission, say): the entry stays.
    Kept(String, IndexRec),
}

/// Runs on a [`pool::Background`] thread (see [`crate::cache::sys::pool`] for why evictions overlap).
pub(crate) fn evict(job: Eviction) -> Evicted {
    let mut steps = job.unlinks.into_iter();
    let Some((dir, name, _, mbytes)) = steps.next() else {
        return Evicted::Vanished;
    };
    match fsx::unlink_at(dir.as_fd(), name.as_ref()) {
        Ok(true) => {}
        Ok(false) => return Evicted::Vanished,
        Err(_) => return Evicted::Kept(job.rel, job.rec),
    }
    let mut gone = vec![job.rel.clone()];
    let mut freed = mbytes;
    let stop = job.hook.is_some_and(|h| !h(CommitStep::Evicting));
    for (dir, name, rel, bytes) in steps.filter(|_| !stop) {
        if fsx::unlink_at(dir.as_fd(), name.as_ref()).unwrap_or(false) {
            freed += bytes;
            gone.push(rel);
        }
    }
    Evicted::Removed(
        Removal {
            rel: job.rel,
            bytes: freed,
            reason: job.reason,
        },
        gone,
    )
}
