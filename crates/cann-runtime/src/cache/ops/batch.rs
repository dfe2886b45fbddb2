//! Committing entries brought from elsewhere, many at a time, with grouped flushes.
//!
//! A durable commit of one entry alone costs three `fsync`s (binary, manifest, directory);
//! a pull of 10,000 entries spent most of its time in them. A batch keeps the same order with
//! two flushes for the whole batch:
//!
//! 1. every entry's files are written (to temporary names, renamed to their final names) and
//!    its manifest is written to a temporary name; each file's write-back starts as soon as
//!    it is written (see `flush`);
//! 2. **flush 1**: each file the batch wrote is `fdatasync`ed, then each directory holding
//!    one is `fsync`ed (the binaries' final names), so every binary, its directory entry and
//!    every manifest's bytes are on disk;
//! 3. each manifest is renamed into place (the commit point, never replacing one);
//! 4. **flush 2**: each directory holding a new manifest is `fsync`ed.
//!
//! So a binary is durable before any manifest naming it can be visible (CANN reads the
//! directory, and after a crash sees either no manifest or a whole entry), exactly as with
//! one entry at a time. A crash anywhere leaves whole entries, temporaries and unreferenced
//! files that gc reclaims, never a torn entry.
//!
//! Flush 1 waits for our own files only: other writers on the same file system (a job's
//! checkpoints beside the cache) are not flushed with them, as a `syncfs` would. A file
//! that fails to flush fails its own entry (its manifest is never renamed), not the batch.

use std::collections::{BTreeMap, BTreeSet};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::PathBuf;

use rustix::fs::RenameFlags;

use crate::cache::entries::files;
use crate::cache::entries::key::Key;
use crate::cache::entries::manifest;
use crate::cache::entries::manifest::{read_small, Manifest};
use crate::cache::error::CommitStep;
use crate::cache::error::{CacheError, IoOp, KeyProblem, Result};
use crate::cache::ops::account::Accounted;
use crate::cache::ops::core::Core;
use crate::cache::ops::export::{named_files, ExactCommit, ExactEntry};
use crate::cache::scan;
use crate::cache::state::index::{IndexRec, Stamp};
use crate::cache::sys::flush::Flusher;
use crate::cache::sys::fsx;

/// An entry whose files are in place and whose manifest waits under a temporary name.
struct Staged<'e> {
    /// Position in the batch.
    at: usize,
    key: Key,
    entry: &'e ExactEntry,
    dir: OwnedFd,
    mname: String,
    mtmp: String,
    stale: Option<Stale>,
    bytes: u64,
}

impl Core {
    /// Commits entries brought from elsewhere, each with exactly these names and bytes, with
    /// two flushes for the whole batch (see the module text). Per entry: each file to a
    /// temporary name and renamed into place, then the manifest renamed into place only if
    /// no manifest of its key exists (never replacing one, so a concurrent commit of the same
    /// key leaves one whole entry). A local entry that is stale (invalidated) or unusable is
    /// removed first, manifest before files; one that serves is never touched
    /// ([`ExactCommit::Present`]). The files must be exactly those the manifest names. Our
    /// own manifest's commit time becomes the local one (see [`manifest::restamp`]).
    ///
    /// The outer error is a failure of the batch (a flush, the ledger); an entry refused on
    /// its own (bad names, a write that failed) is an inner error, and the others still land.
    pub(crate) fn commit_exact_batch(
        &self,
        entries: &[(&str, &ExactEntry)],
    ) -> Result<Vec<Result<ExactCommit>>> {
        self.writable()?;
        let mut out: Vec<Result<ExactCommit>> = Vec::with_capacity(entries.len());
        let dirs_before = self.dirs_snapshot();
        let now = self.now();
        let durable = self.opts.durable;
        let mut staged = Vec::new();
        let mut flush = Flusher::new(durable);
        for (at, (key, entry)) in entries.iter().enumerate() {
            out.push(Ok(ExactCommit::Present));
            match self.stage(key, entry, now, at, &mut flush) {
                Ok(Some(s)) => staged.push(s),
                Ok(None) => {}
                Err(CacheError::Aborted(step)) => {
                    return Err(CacheError::Aborted(step));
                }
                Err(e) => out[at] = Err(e),
            }
        }
        if staged.is_empty() {
            return Ok(out);
        }
        let kcp = self.dir.kernel_cache();
        let io = |op: IoOp| {
            let p = kcp.clone();
            move |e: std::io::Error| CacheError::io(op, p, e)
        };
        if durable {
            let mut failed = flush.finish();
            staged.retain(|s| match failed.remove(&s.at) {
                None => true,
                Some(e) => {
                    let _ = fsx::unlink_at(s.dir.as_fd(), s.mtmp.as_ref());
                    out[s.at] = Err(io(IoOp::SyncFileIn)(e));
                    false
                }
            });
            let mut dirs: BTreeSet<&PathBuf> = BTreeSet::new();
            for s in &staged {
                if !dirs.insert(&s.key.dir) {
                    continue;
                }
                if let Err(e) = rustix::fs::fsync(s.dir.as_fd()) {
                    for s in &staged {
                        let _ = fsx::unlink_at(s.dir.as_fd(), s.mtmp.as_ref());
                    }
                    return Err(io(IoOp::SyncDirectoryIn)(e.into()));
                }
            }
        }
        self.hook(CommitStep::ManifestWritten)?;
        let written: BTreeSet<PathBuf> = staged.iter().map(|s| s.key.dir.clone()).collect();
        let mut committed = Vec::new();
        let mut synced: BTreeSet<PathBuf> = BTreeSet::new();
        for s in staged {
            let d = s.dir.as_fd();
            match rustix::fs::renameat_with(
                d,
                s.mtmp.as_str(),
                d,
                s.mname.as_str(),
                RenameFlags::NOREPLACE,
            ) {
                Ok(()) => {}
                Err(rustix::io::Errno::EXIST) => {
                    let _ = fsx::unlink_at(d, s.mtmp.as_ref());
                    continue;
                }
                Err(e) => {
                    let _ = fsx::unlink_at(d, s.mtmp.as_ref());
                    out[s.at] = Err(io(IoOp::CommitManifestIn)(e.into()));
                    continue;
                }
            }
            self.hook(CommitStep::Committed)?;
            committed.push(s);
        }
        if durable {
            for s in &committed {
                if synced.insert(s.key.dir.clone()) {
                    rustix::fs::fsync(s.dir.as_fd())
                        .map_err(|e| io(IoOp::SyncDirectoryIn)(e.into()))?;
                }
            }
        }
        let mut recs = Vec::with_capacity(committed.len());
        for s in &committed {
            let d = s.dir.as_fd();
            // The stale entry's files this one does not reuse are nobody's now.
            let minus = s
                .stale
                .as_ref()
                .map_or(0, |old| old.reclaim(d, &s.entry.files));
            let rec = IndexRec {
                committed_ns: now,
                access_ns: now,
                bytes: s.bytes,
                files: s.entry.files.keys().cloned().collect(),
                stamp: fsx::lstat_at(d, s.mname.as_ref())
                    .map(|st| Stamp::of(&st))
                    .unwrap_or_default(),
            };
            recs.push((rec, minus));
            out[s.at] = Ok(ExactCommit::Committed(s.bytes));
        }
        // Every staged entry's directory, committed or not, is one we wrote.
        let dirs = self.dirs_span(&dirs_before, written.iter().map(PathBuf::as_path));
        let done: Vec<Accounted<'_>> = committed
            .iter()
            .zip(&recs)
            .map(|(s, (rec, minus))| Accounted {
                rel: &s.key.manifest_rel,
                rec,
                minus: *minus,
                replaced: s.stale.is_some(),
            })
            .collect();
        self.account_many(&done, dirs)?;
        Ok(out)
    }

    /// Step 1 for one entry: checks it, removes a stale local entry of its key, puts its files
    /// in place and its manifest under a temporary name. `None` when a local entry serves.
    fn stage<'e>(
        &self,
        key: &str,
        entry: &'e ExactEntry,
        now: crate::cache::sys::clock::Nanos,
        at: usize,
        flush: &mut Flusher,
    ) -> Result<Option<Staged<'e>>> {
        let key = Key::parse(key)?;
        let bad = |why: KeyProblem| CacheError::BadKey {
            key: key.manifest_rel.clone(),
            why,
        };
        let names = named_files(&entry.manifest, |n| {
            entry
                .files
                .get(n)
                .cloned()
                .ok_or_else(|| format!("{n} is missing"))
        })
        .map_err(|_| bad(KeyProblem::ManifestNamesMissing))?;
        let named: BTreeSet<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
        let mname = format!("{}{}", key.stem, manifest::MANIFEST_SUFFIX);
        if named.len() != entry.files.len()
            || entry.files.keys().any(|n| !named.contains(n.as_str()))
        {
            return Err(bad(KeyProblem::UnnamedFiles));
        }
        if named
            .iter()
            .any(|n| n.starts_with('.') || *n == mname || !manifest::is_plain_name(n))
        {
            return Err(bad(KeyProblem::BadNamedFile));
        }
        let kcp = self.dir.kernel_cache();
        let io = |op: IoOp| {
            let p = kcp.clone();
            move |e: std::io::Error| CacheError::io(op, p, e)
        };
        let dirfd =
            fsx::make_dirs(self.kc.as_fd(), &key.dir).map_err(io(IoOp::CreateDirectoryIn))?;
        let d = dirfd.as_fd();
        // A local entry of this key that serves is kept; a stale one (committed before the
        // last `force` or toolkit change) or an unusable one (torn, a special file) would
        // block every pull until a local gc, so it is replaced.
        let stale = match fsx::lstat_at(d, mname.as_ref()) {
            Err(_) => None,
            Ok(_) if self.serves(&key.manifest_rel) => return Ok(None),
            Ok(st) => Some(Stale::measure(d, &mname, &st)),
        };
        if let Some(old) = &stale {
            // Another commit replaced it since we judged it: that one is not ours to remove.
            if !fsx::lstat_at(d, mname.as_ref()).is_ok_and(|st| st.st_ino == old.ino) {
                return Ok(None);
            }
            // Gone first: a crash from here on leaves no manifest and only files gc reclaims,
            // never the old manifest beside the new files.
            fsx::unlink_at(d, mname.as_ref()).map_err(io(IoOp::RemoveStaleManifestIn))?;
        }
        // The entry is committed here and now: our own manifest's commit time says so, so
        // the local epoch and aging treat it as the fresh write it is (CANN sees the same).
        let mbytes = manifest::restamp(&entry.manifest, now);
        let mut bytes = mbytes.len() as u64;
        // Flushed by the batch's first flush, before any manifest shows.
        for (name, data) in &entry.files {
            let (tmp, fd) = fsx::write_tmp_open(d, name, data).map_err(io(IoOp::WriteFileIn))?;
            flush.wrote(at, fd);
            if let Err(e) = rustix::fs::renameat(d, tmp.as_str(), d, name.as_str()) {
                let _ = fsx::unlink_at(d, tmp.as_ref());
                return Err(io(IoOp::RenameFileIn)(e.into()));
            }
            bytes += data.len() as u64;
        }
        self.hook(CommitStep::BinRenamed)?;
        let (mtmp, mfd) =
            fsx::write_tmp_open(d, &mname, &mbytes).map_err(io(IoOp::WriteManifestIn))?;
        flush.wrote(at, mfd);
        Ok(Some(Staged {
            at,
            key,
            entry,
            dir: dirfd,
            mname,
            mtmp,
            stale,
            bytes,
        }))
    }

    /// True when the entry at `manifest_rel` is whole and the current epoch serves it.
    fn serves(&self, manifest_rel: &str) -> bool {
        scan::reinspect(self.kc.as_fd(), manifest_rel)
            .is_ok_and(|rec| rec.committed_ns >= self.epoch_ns())
    }
}

/// A local entry being replaced: what its manifest named, and the bytes it held.
struct Stale {
    /// Files its manifest named that exist, with their sizes.
    files: Vec<(String, u64)>,
    /// The manifest's size plus those files'.
    bytes: u64,
    /// The manifest judged stale.
    ino: u64,
}

impl Stale {
    /// What the entry at `mname` names now, listed before anything of the new entry lands
    /// (a part manifest the new entry reuses by name would then name the new part's files).
    fn measure(d: BorrowedFd<'_>, mname: &str, st: &rustix::fs::Stat) -> Stale {
        let files = read_small(d, mname)
            .and_then(|t| Manifest::parse(&t).ok())
            .map(|m| files::named_present(d, &m))
            .unwrap_or_default();
        let bytes = fsx::size_of(st) + files.iter().map(|f| f.1).sum::<u64>();
        Stale {
            files,
            bytes,
            ino: st.st_ino,
        }
    }

    /// Unlinks the old files the new entry does not name (those it names were replaced by
    /// rename); returns the bytes the old entry held, which leave the totals.
    fn reclaim(&self, d: BorrowedFd<'_>, keep: &BTreeMap<String, Vec<u8>>) -> u64 {
        files::reclaim(d, &self.files, &|n| keep.contains_key(n));
        self.bytes
    }
}
#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::cache::sys::clock::ManualClock;
    use crate::cache::Cache;
    use crate::cache::{CacheDir, GcOptions, Lookup, Miss, NoProgress, OpenOptions};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    fn entry(stem: &str, fill: u8) -> ExactEntry {
        ExactEntry {
            manifest: format!(
                r#"{{"binFileName":"{stem}","binFileSuffix":".o","kernelName":"{stem}"}}"#
            )
            .into_bytes(),
            files: BTreeMap::from([(format!("{stem}.o"), vec![fill; 3000])]),
        }
    }

    fn batch(n: usize) -> (Vec<String>, Vec<ExactEntry>) {
        let keys = (0..n).map(|i| format!("soc/m{}/k{i}", i % 3)).collect();
        let es = (0..n).map(|i| entry(&format!("k{i}"), i as u8)).collect();
        (keys, es)
    }

    #[test]
    fn a_batch_lands_every_entry_and_keeps_the_totals() {
        let t = tempfile::tempdir().unwrap();
        let c = Cache::open(
            &CacheDir::explicit(t.path()).unwrap(),
            OpenOptions::default(),
        )
        .unwrap();
        let (keys, es) = batch(10);
        let mut refs: Vec<(&str, &ExactEntry)> =
            keys.iter().map(String::as_str).zip(es.iter()).collect();
        // One entry refused on its own: the others still land.
        let bad = ExactEntry {
            files: BTreeMap::new(),
            ..entry("bad", 0)
        };
        refs.push(("soc/m0/bad", &bad));
        let out = c.commit_exact_batch(&refs).unwrap();
        assert!(out[..10]
            .iter()
            .all(|r| matches!(r, Ok(ExactCommit::Committed(_)))));
        assert!(out[10].is_err(), "{out:?}");
        for (i, k) in keys.iter().enumerate() {
            match c.get(k).unwrap() {
                Lookup::Hit(e) => assert_eq!(e.binaries[0].1, vec![i as u8; 3000]),
                other => panic!("{k}: {other:?}"),
            }
        }
        let again = c.commit_exact_batch(&refs[..10]).unwrap();
        assert!(again.iter().all(|r| matches!(r, Ok(ExactCommit::Present))));
        let v = c.verify(&NoProgress).unwrap();
        assert!(!v.has_errors() && v.temporaries.is_empty() && v.orphans.is_empty());
        assert!(v.ledger_matches, "{v:?}");
        assert_eq!(v.entries, 10);
    }

    #[test]
    fn a_batch_stopped_between_manifest_renames_leaves_whole_entries_only() {
        let t = tempfile::tempdir().unwrap();
        let dir = CacheDir::explicit(t.path()).unwrap();
        let renamed = Arc::new(AtomicUsize::new(0));
        let r2 = Arc::clone(&renamed);
        let c = Cache::open(
            &dir,
            OpenOptions {
                // Stops like a crash right after the third manifest became visible.
                fault_hook: Some(Arc::new(move |s| {
                    s != CommitStep::Committed || r2.fetch_add(1, Ordering::SeqCst) < 2
                })),
                ..OpenOptions::default()
            },
        )
        .unwrap();
        let (keys, es) = batch(8);
        let refs: Vec<(&str, &ExactEntry)> =
            keys.iter().map(String::as_str).zip(es.iter()).collect();
        assert!(matches!(
            c.commit_exact_batch(&refs),
            Err(CacheError::Aborted(CommitStep::Committed))
        ));
        drop(c);
        let clock = ManualClock::new(crate::cache::sys::clock::system_now());
        let c = Cache::open(
            &dir,
            OpenOptions {
                clock: Arc::new(clock.clone()),
                ..OpenOptions::default()
            },
        )
        .unwrap();
        let hits = keys
            .iter()
            .filter(|k| match c.get(k).unwrap() {
                Lookup::Hit(_) => true,
                Lookup::Miss(Miss::Absent) => false,
                other => panic!("{k}: {other:?}"),
            })
            .count();
        assert_eq!(hits, 3);
        let v = c.verify(&NoProgress).unwrap();
        assert!(v.torn.is_empty() && !v.has_errors(), "{v:?}");
        // The five not yet committed: a temporary manifest and an unreferenced binary each.
        assert_eq!(v.temporaries.len() + v.orphans.len(), 10, "{v:?}");
        clock.advance(31 * 60 * 1_000_000_000);
        c.gc(&GcOptions::default()).unwrap();
        let v = c.verify(&NoProgress).unwrap();
        assert!(v.temporaries.is_empty() && v.orphans.is_empty(), "{v:?}");
        assert_eq!(v.entries, 3, "{v:?}");
    }
}
