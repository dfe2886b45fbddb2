//! The start-up check: is aging needed? Answered from the ledger and the listed
//! directories' times, at a cost bounded by constants whatever the number of entries.

use std::collections::BTreeMap;
use std::os::fd::AsFd;
use std::path::Path;

use crate::cache::entries::relpath::RelPath;
use crate::cache::error::Result;
use crate::cache::ops::core::Core;
use crate::cache::state::index;
use crate::cache::state::ledger::Ledger;
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx;

/// Answer of the start-up check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgingNeed {
    /// The total is below the limit, as counted at [`StartupCheck::counted_ns`] plus our
    /// own changes since (see [`StartupCheck::blind_to_rewrites`] for what it cannot see).
    No,
    /// The total reached the limit (as recorded, or as this check measured it).
    Yes,
    /// `-1`: aging is off.
    Off,
    /// The ledger is missing, damaged or was never reconciled, someone else created or
    /// removed files since it was (a directory is newer than the ledger's record), or its
    /// count is older than [`BLIND_BOUND`] in a cache too large to re-measure at start-up:
    /// a gc pass will find out.
    Unknown,
}

/// The start-up check: one read of the ledger and a `stat` of each listed directory, and in
/// a cache of at most [`SWEEP_MAX_FILES`] indexed files an `lstat` of each of them; no walk.
/// The work is bounded by constants, whatever the number of entries.
///
/// Exact limit: a file rewritten in place under the same name (CANN recompiling an entry)
/// moves no directory time. In a cache of at most [`SWEEP_MAX_FILES`] indexed files the
/// check sizes every one of them, so it sees such a rewrite. In a larger cache it cannot:
/// it then answers "no" only while its count is younger than [`BLIND_BOUND`], says so
/// ([`StartupCheck::blind_to_rewrites`]), and answers "unknown" after that, so a rewrite in
/// place is seen by the first start-up check at most [`BLIND_BOUND`] after the last count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct StartupCheck {
    pub need: AgingNeed,
    pub ledger: Option<Ledger>,
    /// A directory changed since the ledger last accounted for every file (a foreign write,
    /// or a pass that saw one): its totals are a lower bound of nothing, only a record.
    pub foreign_changes: bool,
    /// When the totals were last counted file by file (the last gc's reconcile).
    pub counted_ns: Option<Nanos>,
    /// How old that count was when the check ran.
    pub age_ns: Option<Nanos>,
    /// Files this check sized itself (0 when the cache is too large to, or it was not
    /// needed).
    pub files_checked: u64,
    /// The total as this check knows it: the ledger's, corrected by the sizes it measured.
    pub known_bytes: Option<u64>,
    /// True when a file rewritten in place since [`Self::counted_ns`] would not be seen:
    /// the cache is too large for the check to size every file.
    pub blind_to_rewrites: bool,
}

/// Up to this many indexed files (manifests and the files they name), the start-up check
/// `lstat`s every one (a few milliseconds), so a binary CANN rewrote in place is counted.
pub const SWEEP_MAX_FILES: u64 = 4096;

/// Beyond [`SWEEP_MAX_FILES`], how long a count stays good enough for a "no": a rewrite in
/// place after it is not seen, so once the count is older the check says "unknown" (and
/// [`Cache::age_in_background`](crate::cache::Cache::age_in_background) runs a pass).
pub const BLIND_BOUND: Nanos = 10 * crate::cache::sys::clock::MINUTE;

/// Bytes of index read at most by the start-up check's sweep (about 120 bytes a line).
const SWEEP_MAX_INDEX_BYTES: u64 = SWEEP_MAX_FILES * 256;

impl Core {
    /// Is aging needed? Cost does not depend on the number of entries (see [`StartupCheck`]
    /// for what it sees and the exact limit).
    pub(crate) fn startup_check(&self) -> Result<StartupCheck> {
        let ledger = self.read_ledger()?;
        // Unreadable directories cannot be vouched for.
        let newest = self.dirs_now();
        let foreign_changes =
            ledger.is_none_or(|l| l.dirs_mtime_ns == 0 || newest > l.dirs_mtime_ns);
        let counted_ns = ledger
            .filter(|l| l.reconciled_ns > 0)
            .map(|l| l.reconciled_ns);
        let age_ns = counted_ns.map(|t| self.now().saturating_sub(t).max(0));
        let mut check = StartupCheck {
            need: AgingNeed::Unknown,
            ledger,
            foreign_changes,
            counted_ns,
            age_ns,
            files_checked: 0,
            known_bytes: ledger.map(|l| l.total_bytes),
            blind_to_rewrites: true,
        };
        let limits = &self.opts.limits;
        check.need = match ledger {
            _ if !limits.aging_enabled() => AgingNeed::Off,
            Some(l) if l.reconciled_ns > 0 => {
                if limits.over_limit(l.total_bytes) {
                    AgingNeed::Yes
                } else if foreign_changes {
                    AgingNeed::Unknown
                } else if let Some((bytes, files)) = self.sweep(l.total_bytes) {
                    check.files_checked = files;
                    check.known_bytes = Some(bytes);
                    check.blind_to_rewrites = false;
                    if limits.over_limit(bytes) {
                        AgingNeed::Yes
                    } else {
                        AgingNeed::No
                    }
                } else if age_ns.is_some_and(|a| a > BLIND_BOUND) {
                    AgingNeed::Unknown
                } else {
                    AgingNeed::No
                }
            }
            _ => AgingNeed::Unknown,
        };
        Ok(check)
    }

    /// The ledger's total corrected by the sizes on disk now of every indexed file, and the
    /// number of files sized; `None` when the index is too large for the start-up check (or
    /// unreadable). A file missing now is counted at 0: its directory's time moved anyway.
    fn sweep(&self, ledger_bytes: u64) -> Option<(u64, u64)> {
        if self.state.index_len().ok()? > SWEEP_MAX_INDEX_BYTES {
            return None;
        }
        let text = self.state.read_index_from(0).ok()?;
        let mut known = BTreeMap::new();
        index::apply_index(&mut known, &text);
        let files: u64 = known.values().map(|r| 1 + r.files.len() as u64).sum();
        if files > SWEEP_MAX_FILES {
            return None;
        }
        let mut dirs: BTreeMap<&str, Option<std::os::fd::OwnedFd>> = BTreeMap::new();
        let mut total = ledger_bytes;
        for (rel, rec) in &known {
            let (dir, name) = RelPath::new(rel).split();
            let fd = dirs
                .entry(dir)
                .or_insert_with(|| fsx::open_dir(self.kc.as_fd(), Path::new(dir)).ok());
            let Some(fd) = fd else { continue };
            let mut now = 0;
            for f in std::iter::once(name).chain(rec.files.iter().map(String::as_str)) {
                if let Ok(st) = fsx::lstat_at(fd.as_fd(), f.as_ref()) {
                    if fsx::kind(&st) == rustix::fs::FileType::RegularFile {
                        now += fsx::size_of(&st);
                    }
                }
            }
            total = total.saturating_sub(rec.bytes).saturating_add(now);
        }
        Some((total, files))
    }

    /// The start-up check's answer once `bytes` were counted just now: a count at or over
    /// the limit is knowledge, whatever the ledger recorded.
    pub(crate) fn counted(&self, mut startup: StartupCheck, bytes: u64) -> StartupCheck {
        if self.opts.limits.aging_enabled() && self.opts.limits.over_limit(bytes) {
            startup.need = AgingNeed::Yes;
            startup.known_bytes = Some(bytes);
        }
        startup
    }
}
