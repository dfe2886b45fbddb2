//! `info`: size and entry count, from the ledger when nothing changed, and after a foreign
//! write at the cost of what changed: only the directories whose times moved past the
//! ledger's record are read again.
//!
//! A directory whose modification time is not newer than the record holds the names it held
//! when the ledger last accounted for them (see [`crate::cache::state::dirtime`]): creating, renaming or
//! removing a name moves its directory's time. So the ledger's totals stand for every such
//! directory, and only the moved ones (with any new directories inside them) are listed:
//! the answer is the ledger's total, minus what it counted in the moved directories (their
//! entries in the index, and the loose files gc kept there, recorded per directory in
//! [`LOOSE`]), plus what those directories hold now. Whatever cannot be vouched for (a
//! listed directory unreadable, a record missing or from another pass, a name the index
//! cannot hold) sends `info` back to the whole walk.
//!
//! The start-up check's limits hold here too: a file rewritten in place under the same name
//! moves no directory, so its new size is seen by the next gc, not here. gc itself still
//! walks everything: only its `lstat` of every entry catches such rewrites, and only its
//! listing finds the loose files that have aged since.

use std::collections::{BTreeMap, HashSet};
use std::os::fd::AsFd;

use crate::cache::entries::relpath::RelPath;
use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::ops::core::Core;
use crate::cache::ops::startup::StartupCheck;
use crate::cache::scan::{self, Known};
use crate::cache::state::dirtime;
use crate::cache::state::index;
use crate::cache::state::ledger::Ledger;
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::progress::Progress;

/// Where `info`'s numbers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InfoSource {
    /// The ledger, exact as of the last reconcile; nothing was created or removed since.
    Ledger,
    /// The ledger for the directories nobody changed, and a walk of the ones whose times
    /// moved since the last reconcile (see `state::dirtime`).
    Changed,
    /// A walk of every directory (index records for entries it knows, new manifests read),
    /// because the ledger is unreconciled or the changed directories cannot be told apart.
    Walk,
}

/// Output of `info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct InfoReport {
    pub bytes: u64,
    pub entries: u64,
    pub source: InfoSource,
    /// Access range of the entries (known after a walk only).
    pub oldest_access_ns: Option<Nanos>,
    pub newest_access_ns: Option<Nanos>,
    pub startup: StartupCheck,
    pub epoch_ns: Nanos,
    /// Directories whose names were read (0 from the ledger alone).
    pub dirs_listed: u64,
    /// Directories the walk could not open (no permission, say): their files are not in
    /// `bytes` or `entries`, which are then lower bounds.
    pub skipped_dirs: Vec<String>,
}

impl Core {
    /// Size and entry count: from the ledger when no directory changed since it was
    /// reconciled (cost independent of the cache's size), else from a walk that takes the
    /// index's word for the entries it knows and reads only the new ones.
    pub(crate) fn info(&self, progress: &dyn Progress) -> Result<InfoReport> {
        let startup = self.startup_check()?;
        let epoch_ns = startup.ledger.map_or(0, |l| l.epoch_ns);
        match startup.ledger {
            Some(l) if l.reconciled_ns > 0 && !startup.foreign_changes => {
                return Ok(InfoReport {
                    bytes: l.total_bytes,
                    entries: l.entries,
                    source: InfoSource::Ledger,
                    oldest_access_ns: None,
                    newest_access_ns: None,
                    startup,
                    epoch_ns,
                    dirs_listed: 0,
                    skipped_dirs: Vec::new(),
                })
            }
            Some(l) => {
                if let Some(r) = self.info_changed(&l, startup, progress)? {
                    return Ok(r);
                }
                progress.set_total(l.entries)
            }
            None => {}
        }
        let mut known = BTreeMap::new();
        // An unreadable index only costs speed: every manifest is read instead.
        if let Ok(text) = self.state.read_index_from(0) {
            index::apply_index(&mut known, &text);
        }
        let sc = scan::walk(self.kc.as_fd(), &known, Known::Trust, progress)
            .map_err(|e| CacheError::io(IoOp::Scan, self.dir.kernel_cache(), e))?;
        let bytes = sc.total_bytes() + self.state.bytes();
        Ok(InfoReport {
            bytes,
            entries: sc.entries.len() as u64,
            source: InfoSource::Walk,
            oldest_access_ns: sc.entries.values().map(|r| r.access_ns).min(),
            newest_access_ns: sc.entries.values().map(|r| r.access_ns).max(),
            startup: self.counted(startup, bytes),
            epoch_ns,
            dirs_listed: sc.dirs.len() as u64,
            skipped_dirs: sc.unreadable_dirs(),
        })
    }

    /// `info` from the ledger plus a walk of the moved directories; `None` when that cannot
    /// be vouched for (the caller walks everything).
    pub(crate) fn info_changed(
        &self,
        l: &Ledger,
        startup: StartupCheck,
        progress: &dyn Progress,
    ) -> Result<Option<InfoReport>> {
        if l.reconciled_ns <= 0 || l.dirs_mtime_ns <= 0 || l.dirs_mtime_ns == Nanos::MAX {
            return Ok(None);
        }
        let Some(listed) = self.state.read_dirs() else {
            return Ok(None);
        };
        let Some((pass, loose)) = self.state.read_loose() else {
            return Ok(None);
        };
        if pass != l.reconciled_ns {
            return Ok(None);
        }
        let Some((moved, gone)) = dirtime::moved_since(self.kc.as_fd(), &listed, l.dirs_mtime_ns)
        else {
            return Ok(None);
        };
        let utf8 = |v: Vec<Vec<u8>>| -> Option<Vec<String>> {
            v.into_iter().map(|d| String::from_utf8(d).ok()).collect()
        };
        let (Some(moved), Some(gone)) = (utf8(moved), utf8(gone)) else {
            return Ok(None);
        };
        let listed: HashSet<String> = listed
            .iter()
            .map(|d| String::from_utf8_lossy(d).into_owned())
            .collect();
        // Directories whose names are as the ledger counted them.
        let mut unchanged: HashSet<&str> = listed.iter().map(String::as_str).collect();
        unchanged.insert("");
        for d in moved.iter().chain(&gone) {
            unchanged.remove(d.as_str());
        }
        let mut known = BTreeMap::new();
        // An unreadable index: what the ledger counted in the moved directories is unknown.
        let Ok(text) = self.state.read_index_from(0) else {
            return Ok(None);
        };
        index::apply_index_where(&mut known, &text, &|rel: &str| {
            !unchanged.contains(RelPath::new(rel).dir())
        });
        drop(text);
        // Below a moved directory, only the directories nobody listed are new; a listed
        // one is judged by its own time.
        let descend = |sub: &str| !listed.contains(sub);
        let Ok(sc) = scan::walk_from(
            self.kc.as_fd(),
            &moved,
            &descend,
            &known,
            Known::Trust,
            progress,
        ) else {
            return Ok(None);
        };
        let walked: HashSet<&str> = sc.dirs.iter().chain(&gone).map(String::as_str).collect();
        // An indexed entry in a directory neither walked nor gone (one nobody listed, under
        // a directory that did not move), or a manifest the index cannot hold (counted in
        // the ledger, absent from the index): the difference would be wrong.
        if known
            .keys()
            .any(|rel| !walked.contains(RelPath::new(rel).dir()))
            || sc.entries.keys().any(|rel| !index::indexable(rel))
        {
            return Ok(None);
        }
        let old_bytes: u64 = known.values().map(|r| r.bytes).sum::<u64>()
            + walked.iter().filter_map(|d| loose.get(*d)).sum::<u64>();
        let bytes = (i128::from(l.total_bytes) - i128::from(old_bytes)
            + i128::from(sc.total_bytes()))
        .max(0);
        let entries =
            (i128::from(l.entries) - known.len() as i128 + sc.entries.len() as i128).max(0);
        Ok(Some(InfoReport {
            bytes: u64::try_from(bytes).unwrap_or(u64::MAX),
            entries: u64::try_from(entries).unwrap_or(u64::MAX),
            source: InfoSource::Changed,
            oldest_access_ns: None,
            newest_access_ns: None,
            startup: self.counted(startup, u64::try_from(bytes).unwrap_or(u64::MAX)),
            epoch_ns: l.epoch_ns,
            dirs_listed: sc.dirs.len() as u64,
            skipped_dirs: sc.unreadable_dirs(),
        }))
    }
}
