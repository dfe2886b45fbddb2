//! A backend that keeps the books without the memory, for simulation.
//!
//! Every call is validated and counted exactly as in [`super::HostBackend`]
//! (they share the registry), but addresses are synthetic and nothing is mapped,
//! so a trace that peaks at hundreds of GiB replays on a laptop. Every page size
//! "succeeds"; wrap it in [`super::FaultInjecting`] to make some unavailable.

use super::backend::{
    round_up, BackendError, BackendUsage, Block, CleanTarget, MemoryBackend, PageSize, Reservation,
};
use super::registry::Registry;

/// Base page the counting backend pretends to have unless told otherwise.
pub const DEFAULT_BASE_PAGE: u64 = 4096;

/// A bookkeeping-only backend.
#[derive(Debug)]
pub struct CountingBackend {
    registry: Registry,
    /// Next synthetic address; starts high so addresses look like real ones and
    /// never collide with null.
    next_addr: u64,
}

impl Default for CountingBackend {
    fn default() -> Self {
        Self::new()
    }
}

impl CountingBackend {
    /// A counting backend with 4 KiB base pages.
    pub fn new() -> Self {
        Self::with_base_page(DEFAULT_BASE_PAGE)
    }

    /// A counting backend with the given base page (e.g. 64 KiB to model aarch64).
    pub fn with_base_page(base_page: u64) -> Self {
        Self {
            registry: Registry::new(base_page),
            next_addr: 1 << 40,
        }
    }

    fn place(&mut self, len: u64, align: u64) -> Result<u64, BackendError> {
        let addr = round_up(self.next_addr, align).ok_or(BackendError::TooLarge { len })?;
        self.next_addr = addr
            .checked_add(len)
            .ok_or(BackendError::TooLarge { len })?;
        Ok(addr)
    }
}

impl MemoryBackend for CountingBackend {
    fn page_bytes(&self, page: PageSize) -> u64 {
        page.huge_bytes().unwrap_or(self.registry.base_page())
    }

    fn allocate(&mut self, len: u64, page: PageSize) -> Result<Block, BackendError> {
        if len == 0 {
            return Err(BackendError::ZeroLength);
        }
        let page_bytes = self.page_bytes(page);
        let len = round_up(len, page_bytes).ok_or(BackendError::TooLarge { len })?;
        let addr = self.place(len, page_bytes)?;
        Ok(self.registry.add_block(addr, len, page))
    }

    fn free(&mut self, block: Block) -> Result<(), BackendError> {
        self.registry.remove_block(&block).map(|_| ())
    }

    fn reserve(&mut self, len: u64) -> Result<Reservation, BackendError> {
        if len == 0 {
            return Err(BackendError::ZeroLength);
        }
        let base = self.registry.base_page();
        let len = round_up(len, base).ok_or(BackendError::TooLarge { len })?;
        let addr = self.place(len, base)?;
        Ok(self.registry.add_reservation(addr, len))
    }

    fn release(&mut self, reservation: Reservation) -> Result<(), BackendError> {
        self.registry.remove_reservation(&reservation).map(|_| ())
    }

    fn commit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError> {
        self.registry.check_page_range(r, offset, len)?;
        self.registry.record_commit(r, offset, len);
        Ok(())
    }

    fn decommit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError> {
        self.registry.check_page_range(r, offset, len)?;
        self.registry.record_decommit(r, offset, len);
        Ok(())
    }

    fn fill_zero(
        &mut self,
        target: CleanTarget<'_>,
        offset: u64,
        len: u64,
    ) -> Result<(), BackendError> {
        self.registry.check_writable(target, offset, len)?;
        self.registry.record_zero(len);
        Ok(())
    }

    fn usage(&self) -> BackendUsage {
        self.registry.usage()
    }
}
