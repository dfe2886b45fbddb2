//! The classic caching allocator, as a baseline for the expandable arena.
//!
//! Whole segments come from the backend and are never given back unless
//! [`BestFitCaching::empty_cache`] is called (or an allocation would otherwise
//! fail). Inside segments, blocks are split on allocation (best fit over all
//! free blocks, lowest segment and offset on a tie) and coalesced with free
//! neighbours on free. Segment sizes follow the well-known CUDA caching
//! allocator: requests up to 1 MiB share 2 MiB segments, up to 10 MiB share
//! 20 MiB segments, larger ones get their size rounded up to 2 MiB. Its weakness
//! is the one policy 3 addresses: a free block inside a segment that also holds
//! a live block stays reserved, so varying shapes fragment memory.

use std::collections::{BTreeMap, BTreeSet};

use super::backend::{round_up, Block, MemoryBackend, PageSize};
use super::error::MemoryError;

const ALIGN: u64 = 512;
const SMALL: u64 = 1 << 20;
const SMALL_SEGMENT: u64 = 2 << 20;
const MEDIUM: u64 = 10 << 20;
const MEDIUM_SEGMENT: u64 = 20 << 20;
const ROUND_LARGE: u64 = 2 << 20;

/// One live allocation. Not `Clone`: freeing consumes it.
#[derive(Debug, PartialEq, Eq)]
pub struct CachedAlloc {
    segment: u64,
    offset: u64,
    len: u64,
    requested: u64,
}

impl CachedAlloc {
    /// Bytes asked for.
    pub const fn requested(&self) -> u64 {
        self.requested
    }
    /// Segment id and offset inside it.
    pub const fn location(&self) -> (u64, u64) {
        (self.segment, self.offset)
    }
}

#[derive(Debug)]
struct Segment {
    block: Block,
    /// offset -> (len, free)
    blocks: BTreeMap<u64, (u64, bool)>,
}

/// Gauges of the caching allocator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CachingStats {
    /// Bytes asked for by live allocations.
    pub live_bytes: u64,
    /// Highest `live_bytes`.
    pub peak_live_bytes: u64,
    /// Bytes in segments.
    pub reserved_bytes: u64,
    /// Highest `reserved_bytes`.
    pub peak_reserved_bytes: u64,
    /// Segments obtained from the backend.
    pub segment_allocs: u64,
}

/// See the module docs.
#[derive(Debug, Default)]
pub struct BestFitCaching {
    segments: BTreeMap<u64, Segment>,
    /// (len, segment, offset) of every free block.
    free: BTreeSet<(u64, u64, u64)>,
    next_segment: u64,
    stats: CachingStats,
}

fn segment_size(len: u64) -> Option<u64> {
    if len <= SMALL {
        Some(SMALL_SEGMENT)
    } else if len <= MEDIUM {
        Some(MEDIUM_SEGMENT)
    } else {
        round_up(len, ROUND_LARGE)
    }
}

impl BestFitCaching {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Gauges so far.
    pub fn stats(&self) -> CachingStats {
        self.stats
    }

    /// Allocates `size` bytes, from the cache when a free block fits.
    pub fn alloc<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        size: u64,
    ) -> Result<CachedAlloc, MemoryError> {
        if size == 0 {
            return Err(MemoryError::ZeroSize);
        }
        let len = round_up(size, ALIGN).ok_or(MemoryError::ZeroSize)?;
        let found = self.free.range((len, 0, 0)..).next().copied();
        let (flen, seg, off) = match found {
            Some(f) => f,
            None => self.new_segment(backend, len)?,
        };
        self.free.remove(&(flen, seg, off));
        if let Some(s) = self.segments.get_mut(&seg) {
            s.blocks.insert(off, (len, false));
            if flen - len >= ALIGN {
                s.blocks.insert(off + len, (flen - len, true));
                self.free.insert((flen - len, seg, off + len));
            } else if let Some(b) = s.blocks.get_mut(&off) {
                b.0 = flen;
            }
        }
        let held = if flen - len >= ALIGN { len } else { flen };
        self.stats.live_bytes += size;
        self.stats.peak_live_bytes = self.stats.peak_live_bytes.max(self.stats.live_bytes);
        Ok(CachedAlloc {
            segment: seg,
            offset: off,
            len: held,
            requested: size,
        })
    }

    fn new_segment<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
        len: u64,
    ) -> Result<(u64, u64, u64), MemoryError> {
        let want = segment_size(len).ok_or(MemoryError::ZeroSize)?;
        let block = match backend.allocate(want, PageSize::Base) {
            Ok(b) => b,
            Err(_) => {
                // The classic retry: give every idle segment back, try once more.
                self.empty_cache(backend)?;
                backend.allocate(want, PageSize::Base)?
            }
        };
        let seg = self.next_segment;
        self.next_segment += 1;
        let seg_len = block.len();
        let mut blocks = BTreeMap::new();
        blocks.insert(0, (seg_len, true));
        self.segments.insert(seg, Segment { block, blocks });
        self.free.insert((seg_len, seg, 0));
        self.stats.segment_allocs += 1;
        self.stats.reserved_bytes += seg_len;
        self.stats.peak_reserved_bytes = self
            .stats
            .peak_reserved_bytes
            .max(self.stats.reserved_bytes);
        Ok((seg_len, seg, 0))
    }

    /// Frees an allocation and coalesces it with free neighbours.
    pub fn free(&mut self, a: CachedAlloc) -> Result<(), MemoryError> {
        let unknown = MemoryError::UnknownAllocation { offset: a.offset };
        let s = self.segments.get_mut(&a.segment).ok_or(unknown.clone())?;
        if s.blocks.get(&a.offset) != Some(&(a.len, false)) {
            return Err(unknown);
        }
        let (mut start, mut len) = (a.offset, a.len);
        if let Some((&po, &(pl, pfree))) = s.blocks.range(..start).next_back() {
            if pfree && po + pl == start {
                s.blocks.remove(&po);
                self.free.remove(&(pl, a.segment, po));
                start = po;
                len += pl;
            }
        }
        s.blocks.remove(&a.offset);
        if let Some(&(nl, true)) = s.blocks.get(&(a.offset + a.len)) {
            s.blocks.remove(&(a.offset + a.len));
            self.free.remove(&(nl, a.segment, a.offset + a.len));
            len += nl;
        }
        s.blocks.insert(start, (len, true));
        self.free.insert((len, a.segment, start));
        self.stats.live_bytes -= a.requested;
        Ok(())
    }

    /// Gives every wholly free segment back to the backend.
    pub fn empty_cache<B: MemoryBackend + ?Sized>(
        &mut self,
        backend: &mut B,
    ) -> Result<(), MemoryError> {
        let idle: Vec<u64> = self
            .segments
            .iter()
            .filter(|(_, s)| s.blocks.len() == 1 && s.blocks.get(&0).is_some_and(|b| b.1))
            .map(|(&id, _)| id)
            .collect();
        for id in idle {
            if let Some(s) = self.segments.remove(&id) {
                let len = s.block.len();
                self.free.remove(&(len, id, 0));
                self.stats.reserved_bytes -= len;
                backend.free(s.block)?;
            }
        }
        Ok(())
    }

    /// Gives every segment back, live or not.
    pub fn release<B: MemoryBackend + ?Sized>(self, backend: &mut B) -> Result<(), MemoryError> {
        for (_, s) in self.segments {
            backend.free(s.block)?;
        }
        Ok(())
    }
}
