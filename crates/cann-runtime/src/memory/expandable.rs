//! The expandable arena behind `static_memory_policy` 3 and 4.
//!
//! One large address range is reserved up front; physical memory is committed
//! in fixed-size pages only while some allocation overlaps them and decommitted
//! as soon as none does. Allocations are packed best-fit (lowest address on a
//! tie) with coalescing, so a free hole of whole pages costs address space only,
//! never memory: fragmentation moves from physical memory to the (cheap, huge)
//! virtual range. This is the design of PyTorch's expandable segments and of
//! the graph engine's virtual-memory pool.

use std::collections::{BTreeMap, BTreeSet};

use super::backend::{round_up, MemoryBackend, PageSize, Reservation};
use super::error::{ConfigProblem, MemoryError};

/// How the arena is shaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaConfig {
    /// Address space reserved once (costs no memory).
    pub reserve_bytes: u64,
    /// Commit granularity; a multiple of the backend's base page.
    pub page_bytes: u64,
    /// Alignment of every allocation (a power of two, at most `page_bytes`).
    pub align: u64,
    /// Free committed pages kept instead of decommitted, up to this many bytes.
    /// 0 (the default) decommits at once, as the policy describes; a little
    /// retention trades memory for fewer system calls under churn.
    pub retain_bytes: u64,
}

impl Default for ArenaConfig {
    fn default() -> Self {
        Self {
            reserve_bytes: 64 << 30,
            page_bytes: PageSize::TWO_MIB,
            align: 512,
            retain_bytes: 0,
        }
    }
}

/// One live allocation. Not `Clone`: freeing consumes it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ArenaAlloc {
    offset: u64,
    len: u64,
    requested: u64,
}

impl ArenaAlloc {
    /// Offset inside the arena's reservation.
    pub const fn offset(&self) -> u64 {
        self.offset
    }
    /// Bytes held (the request rounded up to the alignment).
    pub const fn len(&self) -> u64 {
        self.len
    }
    /// Always false: zero-byte requests are refused.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Bytes asked for.
    pub const fn requested(&self) -> u64 {
        self.requested
    }
}

/// Gauges of one arena.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArenaStats {
    /// Bytes asked for by live allocations.
    pub live_bytes: u64,
    /// Bytes committed right now.
    pub committed_bytes: u64,
    /// Highest `committed_bytes` seen.
    pub peak_committed_bytes: u64,
    /// Highest address offset ever used (fragmentation shows up here, not in memory).
    pub high_water_bytes: u64,
    /// Committed pages with no live allocation, kept by `retain_bytes`.
    pub retained_bytes: u64,
}

/// See the module docs.
#[derive(Debug)]
pub struct ExpandableArena {
    cfg: ArenaConfig,
    reservation: Reservation,
    /// Free ranges: offset -> len, and (len, offset) for best fit.
    free_by_off: BTreeMap<u64, u64>,
    free_by_size: BTreeSet<(u64, u64)>,
    live: BTreeMap<u64, u64>,
    /// Per page: how many live allocations overlap it. Grows with the high water.
    refs: Vec<u32>,
    /// Per page: whether it is committed (differs from refs > 0 only when retained).
    committed: Vec<bool>,
    stats: ArenaStats,
}

impl ExpandableArena {
    /// Reserves the address range.
    pub fn new<B: MemoryBackend + ?Sized>(
        backend: &mut B,
        cfg: ArenaConfig,
    ) -> Result<Self, MemoryError> {
        let base = backend.page_bytes(PageSize::Base);
        if cfg.page_bytes == 0 || !cfg.page_bytes.is_multiple_of(base) {
            return Err(MemoryError::InvalidConfig(ConfigProblem::PageBytes {
                page_bytes: cfg.page_bytes,
                base,
            }));
        }
        if !cfg.align.is_power_of_two() || cfg.align > cfg.page_bytes {
            return Err(MemoryError::InvalidConfig(ConfigProblem::Align {
                align: cfg.align,
                page_bytes: cfg.page_bytes,
            }));
        }
        let reserve = round_up(cfg.reserve_bytes.max(1), cfg.page_bytes).ok_or(
            MemoryError::InvalidConfig(ConfigProblem::ReserveOverflow {
                reserve_bytes: cfg.reserve_bytes,
            }),
        )?;
        let reservation = backend.reserve(reserve)?;
        let mut arena = Self {
            cfg: ArenaConfig {
                reserve_bytes: reserve,
                ..cfg
            },
            reservation,
            free_by_off: BTreeMap::new(),
            free_by_size: BTreeSet::new(),
            live: BTreeMap::new(),
            refs: Vec::new(),
            committed: Vec::new(),
            stats: ArenaStats::default(),
        };
        arena.insert_free(0, reserve);
        Ok(arena)
    }

    /// The configuration in force (reserve rounded to whole pages).
    pub fn config(&self) -> ArenaConfig {
        self.cfg
    }

    /// Gauges so far.
    pub fn stats(&self) -> ArenaStats {
        self.stats
    }

    /// The reservation, for cleaning (`CleanTarget::Reservation`).
    pub fn reservation(&self) -> &Reservation {
        &self.reservation
    }

    fn insert_free(&mut self, offset: u64, len: u64) {
        self.free_by_off.insert(offset, len);
        self.free_by_size.insert((len, offset));
    }

    fn remove_free(&mut self, offset: u64, len: u64) {
        self.free_by_off.remove(&offset);
        self.free_by_size.remove(&(len, offset));
    }

    fn pages_of(&self, offset: u64, len: u64) -> std::ops::Range<usize> {
        let p = self.cfg.page_bytes;
        let first = (offset / p) as usize;
        let last = ((offset + len - 1) / p) as usize;
        first..last + 1
    }

    /// Commits (or decommits) runs of pages from `pages`, in order. On failure
    /// returns the pages already done so the caller can undo them.
    fn apply<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        pages: &[usize],
        commit: bool,
    ) -> Result<(), (MemoryError, Vec<usize>)> {
        let p = self.cfg.page_bytes;
        let mut done = Vec::new();
        let mut i = 0;
        while i < pages.len() {
            let mut j = i + 1;
            while j < pages.len() && pages[j] == pages[j - 1] + 1 {
                j += 1;
            }
            let (off, len) = (pages[i] as u64 * p, (j - i) as u64 * p);
            let r = if commit {
                backend.commit(&self.reservation, off, len)
            } else {
                backend.decommit(&self.reservation, off, len)
            };
            if let Err(e) = r {
                return Err((e.into(), done));
            }
            for &pg in &pages[i..j] {
                self.committed[pg] = commit;
            }
            done.extend_from_slice(&pages[i..j]);
            i = j;
        }
        Ok(())
    }

    /// Allocates `size` bytes, committing the pages it needs.
    pub fn alloc<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        size: u64,
    ) -> Result<ArenaAlloc, MemoryError> {
        if size == 0 {
            return Err(MemoryError::ZeroSize);
        }
        let reserved = self.cfg.reserve_bytes;
        let len = round_up(size, self.cfg.align).ok_or(MemoryError::ArenaExhausted {
            requested: size,
            reserved,
        })?;
        let (flen, foff) = self.free_by_size.range((len, 0)..).next().copied().ok_or(
            MemoryError::ArenaExhausted {
                requested: len,
                reserved,
            },
        )?;
        let pages = self.pages_of(foff, len);
        if self.refs.len() < pages.end {
            self.refs.resize(pages.end, 0);
            self.committed.resize(pages.end, false);
        }
        let need: Vec<usize> = pages.clone().filter(|&pg| !self.committed[pg]).collect();
        let reused_retained = pages
            .clone()
            .filter(|&pg| self.refs[pg] == 0 && self.committed[pg])
            .count() as u64;
        if let Err((e, done)) = self.apply(backend, &need, true) {
            // Undo partial commits so a failed call leaves everything as it was.
            if let Err((_, undone)) = self.apply(backend, &done, false) {
                // Pages that would not decommit stay committed with no user:
                // account for them as retained so the books stay exact.
                let stuck = (done.len() - undone.len()) as u64 * self.cfg.page_bytes;
                self.stats.committed_bytes += stuck;
                self.stats.retained_bytes += stuck;
                self.stats.peak_committed_bytes = self
                    .stats
                    .peak_committed_bytes
                    .max(self.stats.committed_bytes);
            }
            return Err(e);
        }
        let p = self.cfg.page_bytes;
        self.stats.retained_bytes -= reused_retained * p;
        for pg in pages {
            self.refs[pg] += 1;
        }
        self.remove_free(foff, flen);
        if flen > len {
            self.insert_free(foff + len, flen - len);
        }
        self.live.insert(foff, len);
        self.stats.live_bytes += size;
        self.stats.committed_bytes += need.len() as u64 * p;
        self.stats.peak_committed_bytes = self
            .stats
            .peak_committed_bytes
            .max(self.stats.committed_bytes);
        self.stats.high_water_bytes = self.stats.high_water_bytes.max(foff + len);
        Ok(ArenaAlloc {
            offset: foff,
            len,
            requested: size,
        })
    }

    /// Frees an allocation, decommitting pages no live allocation overlaps
    /// (beyond the configured retention). The range is free even when the
    /// backend fails to decommit; the error is still reported.
    pub fn free<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        a: ArenaAlloc,
    ) -> Result<(), MemoryError> {
        if self.live.get(&a.offset) != Some(&a.len) {
            return Err(MemoryError::UnknownAllocation { offset: a.offset });
        }
        self.live.remove(&a.offset);
        self.stats.live_bytes -= a.requested;
        let p = self.cfg.page_bytes;
        let mut drop_pages = Vec::new();
        for pg in self.pages_of(a.offset, a.len) {
            self.refs[pg] -= 1;
            if self.refs[pg] == 0 {
                if self.stats.retained_bytes + p <= self.cfg.retain_bytes {
                    self.stats.retained_bytes += p;
                } else {
                    drop_pages.push(pg);
                }
            }
        }
        self.coalesce_free(a.offset, a.len);
        let result = self.apply(backend, &drop_pages, false);
        let done = match &result {
            Ok(()) => drop_pages.len(),
            Err((_, done)) => done.len(),
        };
        self.stats.committed_bytes -= done as u64 * p;
        // Pages the backend would not decommit stay committed with no user.
        self.stats.retained_bytes += (drop_pages.len() - done) as u64 * p;
        result.map_err(|(e, _)| e)
    }

    fn coalesce_free(&mut self, offset: u64, len: u64) {
        let (mut start, mut end) = (offset, offset + len);
        if let Some((&po, &pl)) = self.free_by_off.range(..offset).next_back() {
            if po + pl == start {
                self.remove_free(po, pl);
                start = po;
            }
        }
        if let Some(&nl) = self.free_by_off.get(&end) {
            self.remove_free(end, nl);
            end += nl;
        }
        self.insert_free(start, end - start);
    }

    /// Decommits every retained free page.
    pub fn trim<B: MemoryBackend + ?Sized>(&mut self, backend: &mut B) -> Result<(), MemoryError> {
        let idle: Vec<usize> = (0..self.refs.len())
            .filter(|&pg| self.refs[pg] == 0 && self.committed[pg])
            .collect();
        let result = self.apply(backend, &idle, false);
        let done = match &result {
            Ok(()) => idle.len() as u64,
            Err((_, done)) => done.len() as u64,
        };
        self.stats.committed_bytes -= done * self.cfg.page_bytes;
        self.stats.retained_bytes -= done * self.cfg.page_bytes;
        result.map_err(|(e, _)| e)
    }

    /// Gives the whole range back to the backend (live allocations included).
    pub fn release<B: MemoryBackend + ?Sized>(self, backend: &mut B) -> Result<(), MemoryError> {
        backend.release(self.reservation).map_err(MemoryError::from)
    }
}
