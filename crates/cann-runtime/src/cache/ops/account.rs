//! Accounting for our own commits: the ledger's totals, the directory list and the index,
//! under the ledger lock, one write for a whole batch.

use std::os::fd::AsFd;
use std::path::Path;

use crate::cache::entries::relpath::RelPath;
use crate::cache::error::{IoOp, Result};
use crate::cache::ops::core::{io_err, Core};
use crate::cache::state::index::{self, IndexRec};
use crate::cache::sys::clock::Nanos;

/// One of our own commits, as [`Cache::account_many`] records it.
pub(crate) struct Accounted<'a> {
    /// The manifest, relative to `kernel_cache/`.
    pub rel: &'a str,
    pub rec: &'a IndexRec,
    /// Bytes of the entry it replaced, which leave the total.
    pub minus: u64,
    /// It replaced an entry (the count stays).
    pub replaced: bool,
}

impl Core {
    pub(crate) fn account(
        &self,
        rel: &str,
        rec: &IndexRec,
        minus: u64,
        replaced: bool,
        dirs: (Nanos, Nanos),
    ) -> Result<u64> {
        self.account_many(
            &[Accounted {
                rel,
                rec,
                minus,
                replaced,
            }],
            dirs,
        )
    }

    /// Accounts for several of our own commits made between two readings of the directories'
    /// time, under one lock: one ledger write and one index append for the lot.
    pub(crate) fn account_many(&self, done: &[Accounted<'_>], dirs: (Nanos, Nanos)) -> Result<u64> {
        let guard = self
            .state
            .lock()
            .map_err(io_err(IoOp::LockLedgerIn, &self.dir.base))?;
        // A missing or damaged ledger stays marked unreconciled (reconciled_ns = 0), so the
        // start-up check keeps reporting "unknown" until a gc has rebuilt it.
        let mut l = self.read_ledger()?.unwrap_or_default();
        // Directories these commits created join the list, so writes into them are seen.
        let mut dirs = dirs;
        if let Some(mut listed) = self.state.read_dirs() {
            let mut add_all = Vec::new();
            let mut seen = std::collections::BTreeSet::new();
            for a in done {
                let dir_rel = RelPath::new(a.rel).dir();
                if !seen.insert(dir_rel) {
                    continue;
                }
                let (t, add) = crate::cache::state::dirtime::unlisted(
                    self.kc.as_fd(),
                    &listed,
                    Path::new(dir_rel),
                );
                if !add.is_empty() {
                    dirs.1 = dirs.1.max(t);
                    listed.extend(add.iter().cloned());
                    add_all.extend(add);
                }
            }
            if !add_all.is_empty() {
                self.state
                    .append_dirs(&guard, &add_all)
                    .map_err(io_err(IoOp::RecordDirectoriesIn, &self.dir.base))?;
                // The list lives where CANN's ager counts it, like the index.
                let listed: usize = add_all.iter().map(|d| d.len() + 1).sum();
                l.total_bytes = l.total_bytes.saturating_add(listed as u64);
            }
        }
        l.advance_dirs(dirs);
        let mut lines = String::new();
        for a in done {
            l.total_bytes = l
                .total_bytes
                .saturating_add(a.rec.bytes)
                .saturating_sub(a.minus);
            if !a.replaced {
                l.entries += 1;
            }
            if index::indexable(a.rel) {
                lines.push_str(&index::put_line(a.rel, a.rec));
            }
        }
        if !lines.is_empty() {
            self.state
                .append_index(&guard, &lines)
                .map_err(io_err(IoOp::AppendIndexIn, &self.dir.base))?;
            // The index lives where CANN's ager counts it (see `State::bytes`).
            l.total_bytes = l.total_bytes.saturating_add(lines.len() as u64);
        }
        self.state
            .write_ledger(&guard, &l)
            .map_err(io_err(IoOp::WriteLedgerIn, &self.dir.base))?;
        Ok(l.total_bytes)
    }
}
