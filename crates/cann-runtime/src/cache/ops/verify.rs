//! `verify`: a full read-only check of every entry.

use std::collections::BTreeMap;
use std::os::fd::AsFd;
use std::path::Path;

use crate::cache::entries::relpath::RelPath;
use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::ops::core::Core;
use crate::cache::scan::{self, Known, Loose};
use crate::cache::state::ledger::Ledger;
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx;
use crate::cache::sys::progress::Progress;

/// A manifest that cannot be served, as `verify` reports it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TornEntry {
    pub rel: String,
    pub why: crate::cache::scan::TornWhy,
}

/// Output of `verify`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct VerifyReport {
    pub entries: u64,
    pub bytes: u64,
    /// Errors: entries whose manifest is unreadable or whose files are missing or wrong,
    /// still so when checked again after the walk.
    pub torn: Vec<TornEntry>,
    /// Warnings: such entries changed within `VERIFY_GRACE` (a minute): probably being written.
    pub in_progress: Vec<TornEntry>,
    /// Warnings: files no manifest references.
    pub orphans: Vec<String>,
    /// Warnings: manifests whose names are not UTF-8 (CANN may write them): counted with
    /// their files, never served or indexed by us, aged by CANN's own ager.
    pub raw_manifests: Vec<String>,
    /// Warnings: leftovers of interrupted commits.
    pub temporaries: Vec<String>,
    /// Warnings: symlinks and special files (never followed).
    pub foreign: Vec<(String, String)>,
    /// The ledger as recorded, and whether it matches what is on disk.
    pub ledger: Option<Ledger>,
    pub ledger_matches: bool,
}

impl VerifyReport {
    /// True when something is at error severity.
    pub fn has_errors(&self) -> bool {
        !self.torn.is_empty()
    }
}

/// A manifest written this recently that does not parse, or names a missing file, may be
/// one CANN is writing in place right now: `verify` reports it as in progress, not torn.
pub const VERIFY_GRACE: Nanos = 60_000_000_000;

/// True when the manifest `rel` (or its directory) no longer exists.
fn vanished(kc: std::os::fd::BorrowedFd<'_>, rel: &str) -> bool {
    let (dir_rel, name) = RelPath::new(rel).split();
    let gone = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    match fsx::open_dir(kc, Path::new(dir_rel)) {
        Ok(fd) => fsx::lstat_at(fd.as_fd(), name.as_ref()).is_err_and(|e| gone(&e)),
        Err(e) => gone(&e),
    }
}

fn names(v: &[Loose]) -> Vec<String> {
    v.iter().map(|l| l.rel.clone()).collect()
}

impl Core {
    /// Full read-only check of every entry: each manifest opened (without moving its atime)
    /// and parsed, each named file sized.
    pub(crate) fn verify(&self, progress: &dyn Progress) -> Result<VerifyReport> {
        let ledger = self.read_ledger()?;
        if let Some(l) = ledger {
            progress.set_total(l.entries);
        }
        let mut sc = scan::walk(self.kc.as_fd(), &BTreeMap::new(), Known::Ignore, progress)
            .map_err(|e| CacheError::io(IoOp::Scan, self.dir.kernel_cache(), e))?;
        let recent = crate::cache::sys::clock::system_now() - VERIFY_GRACE;
        let mut torn = Vec::new();
        let mut in_progress = Vec::new();
        for t in std::mem::take(&mut sc.torn) {
            // Checked again: a writer may have finished since the walk saw it.
            let t = match scan::reinspect(self.kc.as_fd(), &t.loose.rel) {
                Ok(rec) => {
                    sc.entries.insert(t.loose.rel.clone(), rec);
                    continue;
                }
                Err(again) => again,
            };
            // Gone since the walk listed it (an ager deleting it, manifest first): not torn.
            if vanished(self.kc.as_fd(), &t.loose.rel) {
                continue;
            }
            let e = TornEntry {
                rel: t.loose.rel.clone(),
                why: t.why.clone(),
            };
            // Written recently (mtime: a writer moves it, an access stamp does not).
            let (dir_rel, name) = RelPath::new(&t.loose.rel).split();
            let written = fsx::open_dir(self.kc.as_fd(), Path::new(dir_rel))
                .and_then(|fd| fsx::lstat_at(fd.as_fd(), name.as_ref()))
                .map_or(0, |st| fsx::mtime_ns(&st));
            if written >= recent && !t.special {
                in_progress.push(e);
            } else {
                torn.push(e);
            }
            sc.torn.push(t);
        }
        let bytes = sc.total_bytes() + self.state.bytes();
        let entries = sc.entries.len() as u64;
        let mut orphans = names(&sc.orphans);
        orphans.extend(
            sc.raw
                .iter()
                .filter(|f| f.is_orphan())
                .map(scan::RawFile::shown),
        );
        let raw_manifests: Vec<String> = sc
            .raw
            .iter()
            .filter(|f| f.manifest)
            .map(scan::RawFile::shown)
            .collect();
        Ok(VerifyReport {
            entries,
            bytes,
            torn,
            in_progress,
            orphans,
            raw_manifests,
            temporaries: names(&sc.temps),
            foreign: sc
                .foreign
                .iter()
                .map(|(p, k)| (p.clone(), (*k).to_owned()))
                .collect(),
            ledger,
            ledger_matches: ledger.is_some_and(|l| l.total_bytes == bytes && l.entries == entries),
        })
    }
}
