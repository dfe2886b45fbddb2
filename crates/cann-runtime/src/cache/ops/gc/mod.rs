//! Aging (`gc`): one process at a time, never blocking puts or gets.
//!
//! 1. Try the gc lock; if another process holds it, skip (don't wait).
//! 2. Reconcile: walk the directory and `lstat` each manifest and its files
//!    ([`crate::cache::scan::Known::Check`]); only new manifests, and manifests whose inode, mtime or
//!    size moved since they were read (CANN recompiled them in place), are read again. Sizes
//!    are the ones on disk now, so a binary rewritten larger counts at its new size.
//! 3. Clean up what no reader can use, once older than the grace period: temporaries,
//!    orphans, torn entries, and entries invalidated by `force` or a version change that
//!    nobody accessed within the grace period.
//! 4. If the total reaches the limit, remove entries not accessed for 30 minutes, least
//!    recently used first, until the total is at `limit * ratio / 100`. The order comes from
//!    a min-heap keyed by each entry's known lower bound of its last access; a popped entry is
//!    `stat`-ed (never read, so no mount policy can move its atime) and re-queued if it was
//!    used since. Only the entries examined are stat-ed, not the whole cache. The decisions
//!    are made here, in that order; the unlinks of the chosen entries run on a few threads
//!    ([`crate::cache::sys::pool`]), since each may wait on the device.
//! 5. Rewrite the index (survivors with their confirmed access times, plus anything appended
//!    meanwhile) and the ledger, under the ledger lock for a moment only. The ledger records
//!    the directories' time only if every file on disk is one the pass accounted for
//!    ([`crate::cache::state::dirtime::settle`]), so a foreign write during the pass leaves "unknown".

mod evict;
mod measure;
mod pass;

use crate::cache::error::Result;
use crate::cache::ops::core::Core;
use crate::cache::settings::limits::AGING_FLOOR;
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::progress::{NoProgress, Progress};
use pass::GcPass;

/// Why something was removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Least recently used, over the limit, idle past the floor.
    Aged,
    /// Committed before a `force` or version change, idle past the floor.
    Invalidated,
    /// Not referenced by any manifest.
    Orphan,
    /// Left by an interrupted commit.
    Temporary,
    /// A manifest whose files are missing or unreadable.
    Torn,
}

/// One removal (or, in a dry run, one that would happen).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Removal {
    pub rel: String,
    pub bytes: u64,
    pub reason: Reason,
}

/// Options of a gc pass.
#[derive(Debug, Clone, Copy)]
pub struct GcOptions {
    /// Decide but do not delete or rewrite anything.
    pub dry_run: bool,
    /// Idle time below which nothing is removed (30 minutes; tests may not shorten it
    /// below the documented floor through the CLI, only through the library).
    pub floor: Nanos,
}

impl Default for GcOptions {
    fn default() -> Self {
        GcOptions {
            dry_run: false,
            floor: AGING_FLOOR,
        }
    }
}

/// Result of a completed pass.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct GcReport {
    pub dry_run: bool,
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub entries_before: u64,
    pub entries_after: u64,
    /// The limit, `None` when aging is off.
    pub limit_bytes: Option<u64>,
    /// What aging shrinks to, `None` when aging is off.
    pub target_bytes: Option<u64>,
    /// True when aging stopped because every remaining entry was used within the floor.
    pub stopped_by_floor: bool,
    /// Entries found that the index did not know.
    pub discovered: u64,
    pub removed: Vec<Removal>,
}

/// Result of [`Cache::gc`](crate::cache::Cache::gc).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum GcOutcome {
    /// Another process holds the gc lock.
    Skipped,
    Done(GcReport),
}

impl Core {
    /// Runs one gc pass (see the module docs). Never waits for another ager.
    pub(crate) fn gc(&self, opts: &GcOptions) -> Result<GcOutcome> {
        self.gc_with_progress(opts, &NoProgress)
    }

    /// [`Core::gc`] reporting walk progress.
    pub(crate) fn gc_with_progress(
        &self,
        opts: &GcOptions,
        progress: &dyn Progress,
    ) -> Result<GcOutcome> {
        // A dry run deletes and writes nothing, so a read-only handle (a read-only mount, a
        // user without write permission) may make one without the locks it cannot take.
        let _locks = if opts.dry_run && self.writable().is_err() {
            None
        } else {
            let Some(locks) = self.ager_locks()? else {
                return Ok(GcOutcome::Skipped);
            };
            Some(locks)
        };
        let report = GcPass::begin(self, opts, progress)?.run()?;
        Ok(GcOutcome::Done(report))
    }
}
