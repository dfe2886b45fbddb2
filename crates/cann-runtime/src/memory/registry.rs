//! Bookkeeping shared by the host and counting backends: which blocks and
//! reservations exist, what is committed, and the counters.
//!
//! Keeping this in one place means the counting backend reports exactly what the
//! real one would, and the real backend can refuse a handle it did not issue
//! (so safe code can never make it unmap or write to memory it does not own).

use std::collections::BTreeMap;

use super::backend::{BackendError, BackendUsage, Block, CleanTarget, PageSize, Reservation};
use super::interval::IntervalSet;

#[derive(Debug)]
struct BlockRec {
    addr: u64,
    len: u64,
}

#[derive(Debug)]
struct ResRec {
    addr: u64,
    len: u64,
    committed: IntervalSet,
}

/// The books of one backend.
#[derive(Debug)]
pub(crate) struct Registry {
    base_page: u64,
    next_id: u64,
    blocks: BTreeMap<u64, BlockRec>,
    reservations: BTreeMap<u64, ResRec>,
    usage: BackendUsage,
}

impl Registry {
    pub(crate) fn new(base_page: u64) -> Self {
        Self {
            base_page: base_page.max(1),
            next_id: 1,
            blocks: BTreeMap::new(),
            reservations: BTreeMap::new(),
            usage: BackendUsage::default(),
        }
    }

    pub(crate) fn base_page(&self) -> u64 {
        self.base_page
    }

    pub(crate) fn usage(&self) -> BackendUsage {
        self.usage
    }

    fn bump_peak(&mut self) {
        let now = self.usage.resident_bytes();
        self.usage.peak_resident_bytes = self.usage.peak_resident_bytes.max(now);
    }

    fn fresh_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub(crate) fn add_block(&mut self, addr: u64, len: u64, page: PageSize) -> Block {
        let id = self.fresh_id();
        self.blocks.insert(id, BlockRec { addr, len });
        self.usage.alloc_calls += 1;
        self.usage.allocated_bytes += len;
        self.bump_peak();
        Block::new(id, addr, len, page)
    }

    /// Validates a block handle; returns `(addr, len)` without removing it.
    pub(crate) fn block(&self, block: &Block) -> Result<(u64, u64), BackendError> {
        match self.blocks.get(&block.id()) {
            Some(rec) if rec.addr == block.addr() && rec.len == block.len() => {
                Ok((rec.addr, rec.len))
            }
            _ => Err(BackendError::UnknownHandle { id: block.id() }),
        }
    }

    pub(crate) fn remove_block(&mut self, block: &Block) -> Result<(u64, u64), BackendError> {
        let found = self.block(block)?;
        self.blocks.remove(&block.id());
        self.usage.free_calls += 1;
        self.usage.allocated_bytes -= found.1;
        Ok(found)
    }

    pub(crate) fn add_reservation(&mut self, addr: u64, len: u64) -> Reservation {
        let id = self.fresh_id();
        self.reservations.insert(
            id,
            ResRec {
                addr,
                len,
                committed: IntervalSet::new(),
            },
        );
        self.usage.reserve_calls += 1;
        self.usage.reserved_address_bytes += len;
        Reservation::new(id, addr, len)
    }

    fn reservation(&self, r: &Reservation) -> Result<&ResRec, BackendError> {
        match self.reservations.get(&r.id()) {
            Some(rec) if rec.addr == r.addr() && rec.len == r.len() => Ok(rec),
            _ => Err(BackendError::UnknownHandle { id: r.id() }),
        }
    }

    /// Validates a reservation handle; returns `(addr, len)` without removing it.
    pub(crate) fn reservation_span(&self, r: &Reservation) -> Result<(u64, u64), BackendError> {
        self.reservation(r).map(|rec| (rec.addr, rec.len))
    }

    pub(crate) fn remove_reservation(
        &mut self,
        r: &Reservation,
    ) -> Result<(u64, u64), BackendError> {
        let rec = self.reservation(r)?;
        let (addr, len, committed) = (rec.addr, rec.len, rec.committed.total());
        self.reservations.remove(&r.id());
        self.usage.release_calls += 1;
        self.usage.reserved_address_bytes -= len;
        self.usage.committed_bytes -= committed;
        Ok((addr, len))
    }

    /// Checks a commit/decommit range; returns its absolute address.
    pub(crate) fn check_page_range(
        &self,
        r: &Reservation,
        offset: u64,
        len: u64,
    ) -> Result<u64, BackendError> {
        let rec = self.reservation(r)?;
        if len == 0 {
            return Err(BackendError::ZeroLength);
        }
        if !offset.is_multiple_of(self.base_page) || !len.is_multiple_of(self.base_page) {
            return Err(BackendError::Misaligned {
                offset,
                len,
                page_bytes: self.base_page,
            });
        }
        match offset.checked_add(len) {
            Some(end) if end <= rec.len => Ok(rec.addr + offset),
            _ => Err(BackendError::OutOfRange {
                id: r.id(),
                offset,
                len,
            }),
        }
    }

    pub(crate) fn record_commit(&mut self, r: &Reservation, offset: u64, len: u64) {
        if let Some(rec) = self.reservations.get_mut(&r.id()) {
            let added = rec.committed.insert(offset, offset + len);
            self.usage.committed_bytes += added;
            self.usage.commit_calls += 1;
            self.bump_peak();
        }
    }

    pub(crate) fn record_decommit(&mut self, r: &Reservation, offset: u64, len: u64) {
        if let Some(rec) = self.reservations.get_mut(&r.id()) {
            let removed = rec.committed.remove(offset, offset + len);
            self.usage.committed_bytes -= removed;
            self.usage.decommit_calls += 1;
        }
    }

    /// Checks that `[offset, offset + len)` of `target` is writable memory;
    /// returns its absolute address.
    pub(crate) fn check_writable(
        &self,
        target: CleanTarget<'_>,
        offset: u64,
        len: u64,
    ) -> Result<u64, BackendError> {
        let (id, addr, ok) = match target {
            CleanTarget::Block(b) => {
                let (addr, blen) = self.block(b)?;
                let ok = offset.checked_add(len).is_some_and(|end| end <= blen);
                (b.id(), addr, ok)
            }
            CleanTarget::Reservation(r) => {
                let rec = self.reservation(r)?;
                let ok = offset
                    .checked_add(len)
                    .is_some_and(|end| end <= rec.len && rec.committed.contains(offset, end));
                (r.id(), rec.addr, ok)
            }
        };
        if ok {
            Ok(addr + offset)
        } else {
            Err(BackendError::OutOfRange { id, offset, len })
        }
    }

    pub(crate) fn record_zero(&mut self, len: u64) {
        self.usage.zero_calls += 1;
        self.usage.zero_bytes += len;
    }

    /// Every live mapping `(addr, len)`, for the host backend's `Drop`.
    pub(crate) fn mappings(&self) -> Vec<(u64, u64)> {
        self.blocks
            .values()
            .map(|b| (b.addr, b.len))
            .chain(self.reservations.values().map(|r| (r.addr, r.len)))
            .collect()
    }
}
