//! One gc pass as a value: what it has walked, what it still counts and what it has queued
//! for deletion live in [`GcPass`], and each step of the module text is one method.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::os::fd::AsFd;

use super::evict::{evict, Dirs, Evicted, Eviction};
use super::measure::{self, Recount, Seen};
use super::{GcOptions, GcReport, Reason, Removal};
use crate::cache::entries::relpath::RelPath;
use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::ops::core::Core;
use crate::cache::scan::{self, Loose, Scan};
use crate::cache::settings::limits::IN_FLIGHT;
use crate::cache::state::dirtime;
use crate::cache::state::files::Reconciled;
use crate::cache::state::index::{self, IndexRec};
use crate::cache::sys::clock::{self, Nanos};
use crate::cache::sys::pool;
use crate::cache::sys::progress::Progress;

/// Bytes of `rel`'s line in the index a pass writes.
fn index_line(rel: &str, rec: &IndexRec) -> u64 {
    if index::indexable(rel) {
        index::put_line(rel, rec).len() as u64
    } else {
        0
    }
}

/// A pass under way. The caller holds the ager locks for its whole life.
pub(crate) struct GcPass<'c> {
    core: &'c Core,
    opts: GcOptions,
    /// The pass's time (the cache's clock).
    now: Nanos,
    /// The kernel's file times share the pass's clock (not so under an injected clock).
    kernel_times: bool,
    /// When the walk started, a second early (see [`measure::confirm`]'s `read_since`).
    walk_start: Nanos,
    /// The invalidation epoch.
    epoch: Nanos,
    /// The index's length when the pass read it: lines appended later are merged at the end.
    snapshot_len: u64,
    sc: Scan,
    dirs: Dirs<'c>,
    /// The cache's bytes as this pass knows them, kept true to the disk at every step.
    total: u64,
    /// Loose files left in place (too young to remove), with their bytes.
    kept_loose: Vec<(String, u64)>,
    /// Deletions of the entries chosen, running on background threads (see [`pool`]); the
    /// decisions stay here, in LRU order.
    evictions: pool::Background<Eviction, Evicted>,
    report: GcReport,
}

impl<'c> GcPass<'c> {
    /// Steps 1 and 2: reads the index and walks the directory, checking each indexed entry.
    pub(crate) fn begin(
        core: &'c Core,
        opts: &GcOptions,
        progress: &dyn Progress,
    ) -> Result<GcPass<'c>> {
        let base = &core.dir.base;
        let now = core.now();
        let index_text = core
            .state
            .read_index_from(0)
            .map_err(|e| CacheError::io(IoOp::ReadIndexIn, base, e))?;
        let snapshot_len = index_text.len() as u64;
        let mut known = BTreeMap::new();
        index::apply_index(&mut known, &index_text);
        drop(index_text);
        if let Some(l) = core.read_ledger()? {
            progress.set_total(l.entries);
        }
        // File times come from the kernel's coarse clock, which may trail ours by a tick;
        // a second of margin is safe because the atime seen before each read is kept.
        let walk_start = clock::system_now() - clock::SECOND;
        let sc = scan::walk(core.kc.as_fd(), &known, scan::Known::Check, progress)
            .map_err(|e| CacheError::io(IoOp::Scan, base, e))?;
        drop(known);
        let epoch = core.read_ledger()?.map_or(0, |l| l.epoch_ns);
        let report = GcReport {
            dry_run: opts.dry_run,
            // Our state files too: CANN's ager counts them (see `State::bytes`).
            bytes_before: sc.total_bytes() + core.state.bytes(),
            entries_before: sc.entries.len() as u64,
            limit_bytes: core.opts.limits.max_bytes(),
            target_bytes: core.opts.limits.retained_bytes(),
            discovered: sc.discovered,
            ..GcReport::default()
        };
        // The index this pass writes replaces today's: counted at the size it will have, so
        // the first pass over a cache nobody indexed does not end above its target (CANN's
        // size scan counts the index like any file).
        let index_now = core.state.index_len().unwrap_or(0);
        let index_after: u64 = sc.entries.iter().map(|(r, rec)| index_line(r, rec)).sum();
        let total = report
            .bytes_before
            .saturating_sub(index_now)
            .saturating_add(index_after);
        Ok(GcPass {
            core,
            opts: *opts,
            now,
            kernel_times: core.opts.clock.is_system(),
            walk_start,
            epoch,
            snapshot_len,
            sc,
            dirs: Dirs {
                kc: core.kc.as_fd(),
                open: HashMap::new(),
                gone: HashSet::new(),
            },
            total,
            kept_loose: Vec::new(),
            evictions: pool::Background::new(evict),
            report,
        })
    }

    /// The whole pass after [`GcPass::begin`]: steps 3 to 5.
    pub(crate) fn run(mut self) -> Result<GcReport> {
        self.sweep_loose();
        self.drop_invalidated();
        self.age();
        self.finish()
    }

    /// Unused for the aging floor.
    fn idle(&self, t: Nanos) -> bool {
        self.now.saturating_sub(t) >= self.opts.floor
    }

    /// A file no manifest names is past any writer once older than `IN_FLIGHT` (a kill
    /// between an eviction's two unlinks leaves one behind).
    fn unclaimed(&self, t: Nanos) -> bool {
        self.now.saturating_sub(t) >= self.opts.floor.min(IN_FLIGHT)
    }

    fn remove_loose(&mut self, l: &Loose, reason: Reason) {
        if self.opts.dry_run || self.dirs.unlink(&l.rel).unwrap_or(false) {
            self.total = self.total.saturating_sub(l.bytes);
            self.report.removed.push(Removal {
                rel: l.rel.clone(),
                bytes: l.bytes,
                reason,
            });
        }
    }

    /// Step 3: temporaries, orphans and torn entries no reader can use, once old enough.
    fn sweep_loose(&mut self) {
        let temps = std::mem::take(&mut self.sc.temps);
        let orphans = std::mem::take(&mut self.sc.orphans);
        for (l, reason) in temps
            .iter()
            .map(|l| (l, Reason::Temporary))
            .chain(orphans.iter().map(|l| (l, Reason::Orphan)))
        {
            let gone = match reason {
                Reason::Orphan => self.unclaimed(l.changed_ns),
                _ => self.idle(l.changed_ns),
            };
            if gone {
                self.remove_loose(l, reason)
            } else {
                self.kept_loose.push((l.rel.clone(), l.bytes))
            }
        }
        // Files with non-UTF-8 names: no manifest we can read names them.
        for f in std::mem::take(&mut self.sc.raw)
            .iter()
            .filter(|f| f.regular)
        {
            // An entry under a name we cannot index: counted, left to CANN's ager.
            if !f.is_orphan() || !self.unclaimed(f.changed_ns) {
                self.kept_loose.push((f.shown(), f.bytes));
            } else if self.opts.dry_run || self.dirs.unlink_raw(&f.dir, &f.name).unwrap_or(false) {
                self.total = self.total.saturating_sub(f.bytes);
                self.dirs.gone.insert(f.shown());
                self.report.removed.push(Removal {
                    rel: f.shown(),
                    bytes: f.bytes,
                    reason: Reason::Orphan,
                });
            }
        }
        for t in std::mem::take(&mut self.sc.torn) {
            if self.idle(t.loose.changed_ns) {
                self.remove_loose(&t.loose, Reason::Torn);
                let rel = RelPath::new(&t.loose.rel);
                for (name, bytes) in &t.present {
                    let l = Loose {
                        rel: rel.sibling(name),
                        bytes: *bytes,
                        changed_ns: 0,
                    };
                    self.remove_loose(&l, Reason::Torn);
                }
            } else {
                self.kept_loose.push((
                    t.loose.rel.clone(),
                    t.loose.bytes + t.present.iter().map(|p| p.1).sum::<u64>(),
                ));
            }
        }
    }

    /// Queues an entry's deletion, manifest first (the entry disappears in one step; its
    /// files follow), and keeps `total` true to the disk: an entry someone else removed
    /// leaves it all the same, but only what this pass unlinked is reported as removed.
    fn evict_entry(&mut self, rel: &str, rec: IndexRec, seen: &Seen, reason: Reason) -> bool {
        self.total = self
            .total
            .saturating_sub(seen.bytes)
            .saturating_sub(index_line(rel, &rec));
        if self.opts.dry_run {
            self.report.removed.push(Removal {
                rel: rel.to_owned(),
                bytes: seen.bytes,
                reason,
            });
            return true;
        }
        let manifest = RelPath::new(rel);
        let mut unlinks = Vec::with_capacity(1 + seen.files.len());
        let files = std::iter::once((rel.to_owned(), seen.manifest_bytes)).chain(
            seen.files
                .iter()
                .map(|(f, bytes)| (manifest.sibling(f), *bytes)),
        );
        for (path, bytes) in files {
            let (dir, name) = RelPath::new(&path).split();
            match self.dirs.fd(dir) {
                Ok(fd) => unlinks.push((fd, name.to_owned(), path.clone(), bytes)),
                // The manifest's directory is gone or unreadable: nothing to remove.
                Err(_) if unlinks.is_empty() => return false,
                Err(_) => {}
            }
        }
        self.evictions.push(Eviction {
            rel: rel.to_owned(),
            reason,
            rec,
            unlinks,
            hook: self.core.opts.fault_hook.clone(),
        });
        true
    }

    /// Entries committed before a `force` or version change that nobody used within the
    /// floor.
    fn drop_invalidated(&mut self) {
        let epoch = self.epoch;
        let invalid: Vec<String> = self
            .sc
            .entries
            .iter()
            .filter(|(_, r)| r.committed_ns < epoch)
            .map(|(k, _)| k.clone())
            .collect();
        for rel in invalid {
            let Some(mut rec) = self.sc.entries.remove(&rel) else {
                continue;
            };
            let Some(seen) = measure::confirm(
                &rel,
                &mut rec,
                &mut |r| self.dirs.stat(r),
                &mut self.total,
                self.kernel_times,
                self.sc.read.contains(&rel).then_some(self.walk_start),
            ) else {
                continue;
            };
            // Rewritten in place after the `force` (CANN recompiled it): current, not stale.
            let stale = seen.manifest_mtime < epoch;
            if !(stale
                && self.idle(seen.activity)
                && self.evict_entry(&rel, rec.clone(), &seen, Reason::Invalidated))
            {
                if !stale {
                    rec.committed_ns = rec.committed_ns.max(seen.manifest_mtime);
                }
                self.sc.entries.insert(rel, rec);
            }
        }
    }

    /// Step 4: over the limit, the least recently used entries idle past the floor go until
    /// the total is at the target.
    fn age(&mut self) {
        let (Some(limit), Some(target)) = (self.report.limit_bytes, self.report.target_bytes)
        else {
            return;
        };
        if self.total < limit {
            return;
        }
        let mut heap: BinaryHeap<Reverse<(Nanos, String)>> = self
            .sc
            .entries
            .iter()
            .map(|(k, r)| Reverse((r.access_ns, k.clone())))
            .collect();
        let mut recount = Recount::new(self.total.saturating_sub(target));
        while self.total > target {
            if recount.due(self.total.saturating_sub(target)) {
                self.total = recount.run(
                    &self.core.kc,
                    &self.sc.dirs,
                    &mut self.sc.entries,
                    self.total,
                    target,
                );
                if self.total <= target {
                    break;
                }
            }
            let Some(Reverse((bound, rel))) = heap.pop() else {
                break;
            };
            let Some(rec) = self.sc.entries.get_mut(&rel) else {
                continue;
            };
            let Some(seen) = measure::confirm(
                &rel,
                rec,
                &mut |r| self.dirs.stat(r),
                &mut self.total,
                self.kernel_times,
                self.sc.read.contains(&rel).then_some(self.walk_start),
            ) else {
                self.sc.entries.remove(&rel);
                continue;
            };
            if seen.activity > bound {
                heap.push(Reverse((seen.activity, rel)));
                continue;
            }
            if !self.idle(seen.activity) {
                // The least recently used entry is younger than the floor, so all are.
                self.report.stopped_by_floor = true;
                break;
            }
            if self.total <= target {
                // Re-measuring showed the cache already small enough.
                break;
            }
            let Some(rec) = self.sc.entries.remove(&rel) else {
                continue;
            };
            self.evict_entry(&rel, rec, &seen, Reason::Aged);
            recount.deleted();
        }
    }

    /// Waits for the deletions, then step 5 (unless a dry run).
    fn finish(mut self) -> Result<GcReport> {
        let evictions = std::mem::replace(&mut self.evictions, pool::Background::new(evict));
        for done in evictions.finish() {
            match done {
                Evicted::Removed(r, gone) => {
                    self.report.removed.push(r);
                    self.dirs.gone.extend(gone);
                }
                Evicted::Vanished => {}
                Evicted::Kept(rel, rec) => {
                    self.total = self
                        .total
                        .saturating_add(rec.bytes)
                        .saturating_add(index_line(&rel, &rec));
                    self.sc.entries.insert(rel, rec);
                }
            }
        }
        self.report.bytes_after = self.total;
        self.report.entries_after = self.sc.entries.len() as u64;
        if !self.opts.dry_run {
            self.commit_index()?;
        }
        Ok(self.report)
    }

    /// Step 5: survivors plus whatever was appended since the snapshot become the new index;
    /// the ledger gets the reconciled totals. The lock is held for the tail merge and a rename.
    fn commit_index(&mut self) -> Result<()> {
        let core = self.core;
        let base = &core.dir.base;
        let mut seen = std::mem::take(&mut self.sc.seen);
        seen.retain(|p| !self.dirs.gone.contains(p));
        let entries = &mut self.sc.entries;
        let guard = core
            .state
            .lock()
            .map_err(|e| CacheError::io(IoOp::LockLedgerIn, base, e))?;
        // Wall time: the temporaries' times are the kernel's.
        core.state
            .remove_stale_temporaries(&guard, clock::system_now().saturating_sub(IN_FLIGHT));
        let tail = core
            .state
            .read_index_from(self.snapshot_len)
            .map_err(|e| CacheError::io(IoOp::ReadIndexIn, base, e))?;
        let mut tail_map = BTreeMap::new();
        index::apply_index(&mut tail_map, &tail);
        for (rel, rec) in tail_map {
            seen.insert(rel.clone());
            let manifest = RelPath::new(&rel);
            seen.extend(rec.files.iter().map(|f| manifest.sibling(f)));
            // A put that replaced an entry reclaimed the old files itself.
            entries.insert(rel, rec);
        }
        let mut text = String::with_capacity(entries.len() * 96);
        for (rel, rec) in entries.iter() {
            if index::indexable(rel) {
                text.push_str(&index::put_line(rel, rec));
            }
        }
        core.state
            .replace_index(&guard, text.as_bytes(), core.opts.durable)
            .map_err(|e| CacheError::io(IoOp::RewriteIndexIn, base, e))?;
        // Unlistable now: record nothing, the start-up check stays "unknown".
        let settled = dirtime::settle(core.kc.as_fd(), &seen).ok();
        // Where the loose bytes are, for an `info` that re-reads only moved directories.
        let counted = Reconciled {
            dirs: settled.as_ref().map(|s| s.dirs.as_slice()),
            dirs_mtime_ns: settled.as_ref().map_or(0, |s| s.mtime_ns),
            loose: &self.kept_loose,
            entries: entries.len() as u64,
            entry_bytes: entries.values().map(|r| r.bytes).sum(),
            at: self.now,
        };
        let l = core
            .state
            .reconcile(&guard, counted, core.opts.durable, base)?;
        self.report.bytes_after = l.total_bytes;
        self.report.entries_after = l.entries;
        Ok(())
    }
}
