//! Aging (`gc`): one process at a time, never blocking puts or gets.
//!
//! 1. Try the gc lock; if another process holds it, skip (don't wait).
//! 2. Reconcile: walk the directory and `lstat` each manifest and its files
//!    ([`super::scan::Known::Check`]); only new manifests, and manifests whose inode, mtime or
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
//!    ([`super::pool`]), since each may wait on the device.
//! 5. Rewrite the index (survivors with their confirmed access times, plus anything appended
//!    meanwhile) and the ledger, under the ledger lock for a moment only. The ledger records
//!    the directories' time only if every file on disk is one the pass accounted for
//!    ([`super::dirtime::settle`]), so a foreign write during the pass leaves "unknown".

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::os::fd::AsFd;

use super::changed;
use super::clock::Nanos;
use super::dirtime;
use super::error::{CacheError, IoOp, Result};
use super::evict::{evict, Dirs, Evicted, Eviction};
use super::ledger::{self, IndexRec, Ledger};
use super::limits::{AGING_FLOOR, IN_FLIGHT};
use super::lock;
use super::measure::{self, sibling, Recount, Seen};
use super::pool;
use super::progress::{NoProgress, Progress};
use super::scan::{self, Loose};
use super::store::Cache;

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

/// Result of [`Cache::gc`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum GcOutcome {
    /// Another process holds the gc lock.
    Skipped,
    Done(GcReport),
}

/// Bytes of `rel`'s line in the index a pass writes.
fn index_line(rel: &str, rec: &IndexRec) -> u64 {
    if ledger::indexable(rel) {
        ledger::put_line(rel, rec).len() as u64
    } else {
        0
    }
}

impl Cache {
    /// Runs one gc pass (see the module docs). Never waits for another ager.
    pub fn gc(&self, opts: &GcOptions) -> Result<GcOutcome> {
        self.gc_with_progress(opts, &NoProgress)
    }

    /// [`Cache::gc`] reporting walk progress.
    pub fn gc_with_progress(&self, opts: &GcOptions, progress: &dyn Progress) -> Result<GcOutcome> {
        let base = &self.dir.base;
        let e = |op| move |err| CacheError::io(op, base, err);
        // A dry run deletes and writes nothing, so a read-only handle (a read-only mount, a
        // user without write permission) may make one without the locks it cannot take.
        let _locks = if opts.dry_run && self.writable().is_err() {
            None
        } else {
            let Some(locks) = lock::try_ager_locks(self.state_dir()?, self.kc.as_fd())
                .map_err(e(IoOp::LockGcIn))?
            else {
                return Ok(GcOutcome::Skipped);
            };
            Some(locks)
        };
        let now = self.now();
        let index_text = self
            .state
            .read_index_from(0)
            .map_err(e(IoOp::ReadIndexIn))?;
        let snapshot_len = index_text.len() as u64;
        let mut known = BTreeMap::new();
        ledger::apply_index(&mut known, &index_text);
        drop(index_text);
        if let Some(l) = self.read_ledger()? {
            progress.set_total(l.entries);
        }
        // File times come from the kernel's coarse clock, which may trail ours by a tick;
        // a second of margin is safe because the atime seen before each read is kept.
        let walk_start = super::clock::system_now() - 1_000_000_000;
        let mut sc = scan::walk(self.kc.as_fd(), &known, scan::Known::Check, progress)
            .map_err(e(IoOp::Scan))?;
        drop(known);
        let epoch = self.read_ledger()?.map_or(0, |l| l.epoch_ns);
        let mut report = GcReport {
            dry_run: opts.dry_run,
            // Our state files too: CANN's ager counts them (see `State::bytes`).
            bytes_before: sc.total_bytes() + self.state.bytes(),
            entries_before: sc.entries.len() as u64,
            limit_bytes: self.opts.limits.max_bytes(),
            target_bytes: self.opts.limits.retained_bytes(),
            discovered: sc.discovered,
            ..GcReport::default()
        };
        // The index this pass writes replaces today's: counted at the size it will have, so
        // the first pass over a cache nobody indexed does not end above its target (CANN's
        // size scan counts the index like any file).
        let index_now = self.state.index_len().unwrap_or(0);
        let index_after: u64 = sc.entries.iter().map(|(r, rec)| index_line(r, rec)).sum();
        let mut total = report
            .bytes_before
            .saturating_sub(index_now)
            .saturating_add(index_after);
        let mut dirs = Dirs {
            kc: self.kc.as_fd(),
            open: HashMap::new(),
            gone: HashSet::new(),
        };
        let idle = |t: Nanos| now.saturating_sub(t) >= opts.floor;
        // A file no manifest names is past any writer once older than `IN_FLIGHT` (a kill
        // between an eviction's two unlinks leaves one behind).
        let unclaimed = |t: Nanos| now.saturating_sub(t) >= opts.floor.min(IN_FLIGHT);
        let kernel_times = self.opts.clock.is_system();
        let remove_loose =
            |l: &Loose, reason, dirs: &mut Dirs<'_>, report: &mut GcReport, total: &mut u64| {
                if opts.dry_run || dirs.unlink(&l.rel).unwrap_or(false) {
                    *total = total.saturating_sub(l.bytes);
                    report.removed.push(Removal {
                        rel: l.rel.clone(),
                        bytes: l.bytes,
                        reason,
                    });
                }
            };
        let mut kept_loose = Vec::new();
        for (l, reason) in sc
            .temps
            .iter()
            .map(|l| (l, Reason::Temporary))
            .chain(sc.orphans.iter().map(|l| (l, Reason::Orphan)))
        {
            let gone = match reason {
                Reason::Orphan => unclaimed(l.changed_ns),
                _ => idle(l.changed_ns),
            };
            if gone {
                remove_loose(l, reason, &mut dirs, &mut report, &mut total)
            } else {
                kept_loose.push((l.rel.clone(), l.bytes))
            }
        }
        // Files with non-UTF-8 names: no manifest we can read names them.
        for f in sc.raw.iter().filter(|f| f.regular) {
            // An entry under a name we cannot index: counted, left to CANN's ager.
            if !f.is_orphan() || !unclaimed(f.changed_ns) {
                kept_loose.push((f.shown(), f.bytes));
            } else if opts.dry_run || dirs.unlink_raw(&f.dir, &f.name).unwrap_or(false) {
                total = total.saturating_sub(f.bytes);
                dirs.gone.insert(f.shown());
                report.removed.push(Removal {
                    rel: f.shown(),
                    bytes: f.bytes,
                    reason: Reason::Orphan,
                });
            }
        }
        for t in &sc.torn {
            if idle(t.loose.changed_ns) {
                remove_loose(&t.loose, Reason::Torn, &mut dirs, &mut report, &mut total);
                for (name, bytes) in &t.present {
                    let l = Loose {
                        rel: sibling(&t.loose.rel, name),
                        bytes: *bytes,
                        changed_ns: 0,
                    };
                    remove_loose(&l, Reason::Torn, &mut dirs, &mut report, &mut total);
                }
            } else {
                kept_loose.push((
                    t.loose.rel.clone(),
                    t.loose.bytes + t.present.iter().map(|p| p.1).sum::<u64>(),
                ));
            }
        }
        // Deletes an entry, manifest first (the entry disappears in one step; its files
        // follow), and keeps `total` true to the disk: an entry someone else removed leaves
        // it all the same, but only what this pass unlinked is reported as removed. The
        // unlinks run on background threads; the decisions stay here, in LRU order.
        let mut evictions = pool::Background::new(evict);
        let mut remove_entry = |rel: &str,
                                rec: IndexRec,
                                seen: &Seen,
                                reason,
                                dirs: &mut Dirs<'_>,
                                report: &mut GcReport,
                                total: &mut u64|
         -> bool {
            *total = total
                .saturating_sub(seen.bytes)
                .saturating_sub(index_line(rel, &rec));
            if opts.dry_run {
                report.removed.push(Removal {
                    rel: rel.to_owned(),
                    bytes: seen.bytes,
                    reason,
                });
                return true;
            }
            let mut unlinks = Vec::with_capacity(1 + seen.files.len());
            let files = std::iter::once((rel.to_owned(), seen.manifest_bytes)).chain(
                seen.files
                    .iter()
                    .map(|(f, bytes)| (sibling(rel, f), *bytes)),
            );
            for (path, bytes) in files {
                let (dir, name) = path.rsplit_once('/').unwrap_or(("", &path));
                match dirs.fd(dir) {
                    Ok(fd) => unlinks.push((fd, name.to_owned(), path.clone(), bytes)),
                    // The manifest's directory is gone or unreadable: nothing to remove.
                    Err(_) if unlinks.is_empty() => return false,
                    Err(_) => {}
                }
            }
            evictions.push(Eviction {
                rel: rel.to_owned(),
                reason,
                rec,
                unlinks,
                hook: self.opts.fault_hook.clone(),
            });
            true
        };
        let invalid: Vec<String> = sc
            .entries
            .iter()
            .filter(|(_, r)| r.committed_ns < epoch)
            .map(|(k, _)| k.clone())
            .collect();
        for rel in invalid {
            let Some(mut rec) = sc.entries.remove(&rel) else {
                continue;
            };
            let Some(seen) = measure::confirm(
                &rel,
                &mut rec,
                &mut |r| dirs.stat(r),
                &mut total,
                kernel_times,
                sc.read.contains(&rel).then_some(walk_start),
            ) else {
                continue;
            };
            // Rewritten in place after the `force` (CANN recompiled it): current, not stale.
            let stale = seen.manifest_mtime < epoch;
            if !(stale
                && idle(seen.activity)
                && remove_entry(
                    &rel,
                    rec.clone(),
                    &seen,
                    Reason::Invalidated,
                    &mut dirs,
                    &mut report,
                    &mut total,
                ))
            {
                if !stale {
                    rec.committed_ns = rec.committed_ns.max(seen.manifest_mtime);
                }
                sc.entries.insert(rel, rec);
            }
        }
        if let (Some(limit), Some(target)) = (report.limit_bytes, report.target_bytes) {
            if total >= limit {
                let mut heap: BinaryHeap<Reverse<(Nanos, String)>> = sc
                    .entries
                    .iter()
                    .map(|(k, r)| Reverse((r.access_ns, k.clone())))
                    .collect();
                let mut recount = Recount::new(total.saturating_sub(target));
                while total > target {
                    if recount.due(total.saturating_sub(target)) {
                        total = recount.run(&self.kc, &sc.dirs, &mut sc.entries, total, target);
                        if total <= target {
                            break;
                        }
                    }
                    let Some(Reverse((bound, rel))) = heap.pop() else {
                        break;
                    };
                    let Some(rec) = sc.entries.get_mut(&rel) else {
                        continue;
                    };
                    let Some(seen) = measure::confirm(
                        &rel,
                        rec,
                        &mut |r| dirs.stat(r),
                        &mut total,
                        kernel_times,
                        sc.read.contains(&rel).then_some(walk_start),
                    ) else {
                        sc.entries.remove(&rel);
                        continue;
                    };
                    if seen.activity > bound {
                        heap.push(Reverse((seen.activity, rel)));
                        continue;
                    }
                    if !idle(seen.activity) {
                        // The least recently used entry is younger than the floor, so all are.
                        report.stopped_by_floor = true;
                        break;
                    }
                    if total <= target {
                        // Re-measuring showed the cache already small enough.
                        break;
                    }
                    let Some(rec) = sc.entries.remove(&rel) else {
                        continue;
                    };
                    remove_entry(
                        &rel,
                        rec,
                        &seen,
                        Reason::Aged,
                        &mut dirs,
                        &mut report,
                        &mut total,
                    );
                    recount.deleted();
                }
            }
        }
        for done in evictions.finish() {
            match done {
                Evicted::Removed(r, gone) => {
                    report.removed.push(r);
                    dirs.gone.extend(gone);
                }
                Evicted::Vanished => {}
                Evicted::Kept(rel, rec) => {
                    total = total
                        .saturating_add(rec.bytes)
                        .saturating_add(index_line(&rel, &rec));
                    sc.entries.insert(rel, rec);
                }
            }
        }
        report.bytes_after = total;
        report.entries_after = sc.entries.len() as u64;
        if !opts.dry_run {
            let mut seen = std::mem::take(&mut sc.seen);
            seen.retain(|p| !dirs.gone.contains(p));
            self.commit_index(
                sc.entries,
                snapshot_len,
                &kept_loose,
                seen,
                now,
                &mut report,
            )?;
        }
        Ok(GcOutcome::Done(report))
    }

    /// Step 5: survivors plus whatever was appended since the snapshot become the new index;
    /// the ledger gets the reconciled totals. The lock is held for the tail merge and a rename.
    fn commit_index(
        &self,
        mut entries: BTreeMap<String, IndexRec>,
        snapshot_len: u64,
        kept_loose: &[(String, u64)],
        mut seen: HashSet<String>,
        now: Nanos,
        report: &mut GcReport,
    ) -> Result<()> {
        let base = &self.dir.base;
        let guard = self
            .state
            .lock()
            .map_err(|e| CacheError::io(IoOp::LockLedgerIn, base, e))?;
        // Wall time: the temporaries' times are the kernel's.
        self.state
            .remove_stale_temporaries(&guard, super::clock::system_now().saturating_sub(IN_FLIGHT));
        let tail = self
            .state
            .read_index_from(snapshot_len)
            .map_err(|e| CacheError::io(IoOp::ReadIndexIn, base, e))?;
        let mut tail_map = BTreeMap::new();
        ledger::apply_index(&mut tail_map, &tail);
        for (rel, rec) in tail_map {
            seen.insert(rel.clone());
            seen.extend(rec.files.iter().map(|f| sibling(&rel, f)));
            // A put that replaced an entry reclaimed the old files itself.
            entries.insert(rel, rec);
        }
        let mut text = String::with_capacity(entries.len() * 96);
        for (rel, rec) in &entries {
            if ledger::indexable(rel) {
                text.push_str(&ledger::put_line(rel, rec));
            }
        }
        self.state
            .replace_index(&guard, text.as_bytes(), self.opts.durable)
            .map_err(|e| CacheError::io(IoOp::RewriteIndexIn, base, e))?;
        let epoch = self.read_ledger()?.map_or(0, |l| l.epoch_ns);
        // Unlistable now: record nothing, the start-up check stays "unknown".
        let settled = dirtime::settle(self.kc.as_fd(), &seen).ok();
        if let Some(s) = &settled {
            self.state
                .replace_dirs(&guard, &s.dirs, self.opts.durable)
                .map_err(|e| CacheError::io(IoOp::RecordDirectoriesIn, base, e))?;
        }
        let reconciled_ns = now.max(1);
        // Where the loose bytes are, for an `info` that re-reads only moved directories.
        self.state
            .replace_state(
                &guard,
                changed::LOOSE,
                &changed::encode(reconciled_ns, kept_loose),
                self.opts.durable,
            )
            .map_err(|e| CacheError::io(IoOp::RecordLooseFilesIn, base, e))?;
        let loose_bytes: u64 = kept_loose.iter().map(|l| l.1).sum();
        let total =
            entries.values().map(|r| r.bytes).sum::<u64>() + loose_bytes + self.state.bytes();
        let dirs_mtime_ns = settled.map_or(0, |s| s.mtime_ns);
        let l = Ledger {
            total_bytes: total,
            entries: entries.len() as u64,
            epoch_ns: epoch,
            reconciled_ns,
            dirs_mtime_ns,
        };
        self.state
            .write_ledger(&guard, &l)
            .map_err(|e| CacheError::io(IoOp::WriteLedgerIn, base, e))?;
        report.bytes_after = total;
        report.entries_after = l.entries;
        Ok(())
    }
}
