//! `clear`: removes every entry and loose file, then resets the totals.

use std::collections::BTreeMap;
use std::os::fd::AsFd;
use std::path::Path;

use crate::cache::entries::relpath::RelPath;
use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::ops::core::Core;
use crate::cache::scan::{self, Known};
use crate::cache::state::dirtime;
use crate::cache::state::files::Reconciled;
use crate::cache::sys::fsx;
use crate::cache::sys::progress::Progress;

/// Output of `clear`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClearReport {
    pub files_removed: u64,
    pub bytes_removed: u64,
    pub links_removed: u64,
    pub dirs_removed: u64,
    /// Loose files younger than a minute, left for the put that is writing them.
    pub in_flight_kept: u64,
}

impl Core {
    /// Removes every entry and loose file, unlinks symlinks without following them, removes
    /// emptied directories and resets the ledger and index. Fails (without deleting) when
    /// another process is aging.
    pub(crate) fn clear(&self, progress: &dyn Progress) -> Result<ClearReport> {
        let base = &self.dir.base;
        let Some(_locks) = self.ager_locks()? else {
            return Err(CacheError::Busy(base.clone()));
        };
        let mut sc = scan::walk(self.kc.as_fd(), &BTreeMap::new(), Known::Ignore, progress)
            .map_err(|e| CacheError::io(IoOp::Scan, self.dir.kernel_cache(), e))?;
        let mut rep = ClearReport::default();
        let mut files: Vec<(String, u64)> = Vec::new();
        for (rel, rec) in &sc.entries {
            files.push((rel.clone(), 0));
            let manifest = RelPath::new(rel);
            files.extend(rec.files.iter().map(|f| (manifest.sibling(f), 0)));
            rep.bytes_removed += rec.bytes;
        }
        for t in &sc.torn {
            files.push((t.loose.rel.clone(), t.loose.bytes));
            let manifest = RelPath::new(&t.loose.rel);
            files.extend(t.present.iter().map(|(f, b)| (manifest.sibling(f), *b)));
        }
        // A put in flight has written its binary (a temporary, then an unreferenced name)
        // and not yet renamed its manifest: removing that binary now would leave the entry
        // torn when the manifest lands. Young loose files are kept; gc takes them once they
        // are old, if no manifest ever claimed them.
        let in_flight_from =
            crate::cache::sys::clock::system_now() - crate::cache::settings::limits::IN_FLIGHT;
        for l in sc.orphans.iter().chain(&sc.temps) {
            if l.changed_ns >= in_flight_from {
                rep.in_flight_kept += 1;
            } else {
                files.push((l.rel.clone(), l.bytes));
            }
        }
        for (rel, bytes) in files {
            if self.unlink_rel(&rel)? {
                rep.files_removed += 1;
                rep.bytes_removed += bytes;
                sc.seen.remove(&rel);
            }
        }
        for f in &sc.raw {
            let Ok(dfd) = fsx::open_dir(self.kc.as_fd(), Path::new(&f.dir)) else {
                continue;
            };
            let name = std::os::unix::ffi::OsStrExt::from_bytes(f.name.as_slice());
            if fsx::unlink_at(dfd.as_fd(), name).unwrap_or(false) {
                rep.files_removed += 1;
                rep.bytes_removed += f.bytes;
                sc.seen.remove(&f.shown());
            }
        }
        for (rel, _) in &sc.foreign {
            // lstat says what it is; unlinkat never follows, so a link to a directory
            // elsewhere loses only the link. Real directories are left to rmdir below.
            if self.unlink_rel(rel).unwrap_or(false) {
                rep.links_removed += 1;
                sc.seen.remove(rel);
            }
        }
        let mut dirs: Vec<&String> = sc.dirs.iter().filter(|d| !d.is_empty()).collect();
        dirs.sort_by_key(|d| std::cmp::Reverse(RelPath::new(d).depth()));
        for d in dirs {
            let (parent, name) = RelPath::new(d).split();
            if let Ok(pfd) = fsx::open_dir(self.kc.as_fd(), Path::new(parent)) {
                if fsx::rmdir_at(pfd.as_fd(), name.as_ref()).unwrap_or(false) {
                    rep.dirs_removed += 1;
                    sc.seen.remove(d.as_str());
                }
            }
        }
        let guard = self
            .state
            .lock()
            .map_err(|e| CacheError::io(IoOp::LockLedgerIn, base, e))?;
        self.state
            .replace_index(&guard, b"", self.opts.durable)
            .map_err(|e| CacheError::io(IoOp::RewriteIndexIn, base, e))?;
        // What is left (a put racing the clear, a file we could not remove) is unaccounted:
        // the directory time is then not recorded and the start-up check says "unknown".
        let settled = dirtime::settle(self.kc.as_fd(), &sc.seen).ok();
        let dirs_mtime_ns = settled
            .as_ref()
            .map(|s| s.mtime_ns)
            .filter(|_| sc.seen.iter().all(|p| sc.dirs.contains(p)))
            .unwrap_or(0);
        let cleared = Reconciled::empty(
            settled.as_ref().map(|s| s.dirs.as_slice()),
            dirs_mtime_ns,
            self.now(),
        );
        self.state
            .reconcile(&guard, cleared, self.opts.durable, base)?;
        Ok(rep)
    }

    fn unlink_rel(&self, rel: &str) -> Result<bool> {
        let (dir, name) = RelPath::new(rel).split();
        let fd = match fsx::open_dir(self.kc.as_fd(), Path::new(dir)) {
            Ok(fd) => fd,
            Err(_) => return Ok(false),
        };
        fsx::unlink_at(fd.as_fd(), name.as_ref())
            .map_err(|e| CacheError::io(IoOp::Remove, self.dir.kernel_cache().join(rel), e))
    }
}
