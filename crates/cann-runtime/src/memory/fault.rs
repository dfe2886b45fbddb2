//! A backend wrapper that injects failures, so every error and success path of
//! the policies can be tested on any machine without touching system settings.

use std::collections::BTreeSet;

use super::backend::{
    BackendError, BackendUsage, Block, CleanTarget, MemoryBackend, PageSize, Reservation,
};

/// Wraps a backend and makes chosen calls fail.
#[derive(Debug)]
pub struct FaultInjecting<B> {
    inner: B,
    unavailable: BTreeSet<PageSize>,
    /// Memory-obtaining calls (allocate, commit, reserve) still allowed to pass.
    budget: Option<u64>,
    injected: u64,
}

impl<B: MemoryBackend> FaultInjecting<B> {
    /// Wraps `inner` with no faults armed.
    pub fn new(inner: B) -> Self {
        Self {
            inner,
            unavailable: BTreeSet::new(),
            budget: None,
            injected: 0,
        }
    }

    /// Makes every allocation of `page` pages fail as `mmap(MAP_HUGETLB)` does
    /// when no such pages are reserved (ENOMEM).
    #[must_use]
    pub fn unavailable(mut self, page: PageSize) -> Self {
        self.unavailable.insert(page);
        self
    }

    /// Lets `n` more memory-obtaining calls succeed, then fails each with
    /// [`BackendError::OutOfMemory`].
    #[must_use]
    pub fn fail_after(mut self, n: u64) -> Self {
        self.budget = Some(n);
        self
    }

    /// Re-arms the budget while running (e.g. after setting up a session).
    pub fn set_fail_after(&mut self, n: Option<u64>) {
        self.budget = n;
    }

    /// How many failures were injected.
    pub fn injected(&self) -> u64 {
        self.injected
    }

    /// The wrapped backend.
    pub fn inner(&self) -> &B {
        &self.inner
    }

    fn spend(&mut self, len: u64) -> Result<(), BackendError> {
        match self.budget {
            Some(0) => {
                self.injected += 1;
                Err(BackendError::OutOfMemory { len })
            }
            Some(n) => {
                self.budget = Some(n - 1);
                Ok(())
            }
            None => Ok(()),
        }
    }
}

/// `ENOMEM`, what Linux answers when no huge pages are reserved.
const ENOMEM: i32 = 12;

impl<B: MemoryBackend> MemoryBackend for FaultInjecting<B> {
    fn page_bytes(&self, page: PageSize) -> u64 {
        self.inner.page_bytes(page)
    }

    fn allocate(&mut self, len: u64, page: PageSize) -> Result<Block, BackendError> {
        if self.unavailable.contains(&page) {
            self.injected += 1;
            return Err(BackendError::HugePagesUnavailable {
                page,
                len,
                errno: ENOMEM,
            });
        }
        self.spend(len)?;
        self.inner.allocate(len, page)
    }

    fn free(&mut self, block: Block) -> Result<(), BackendError> {
        self.inner.free(block)
    }

    fn reserve(&mut self, len: u64) -> Result<Reservation, BackendError> {
        self.spend(len)?;
        self.inner.reserve(len)
    }

    fn release(&mut self, reservation: Reservation) -> Result<(), BackendError> {
        self.inner.release(reservation)
    }

    fn commit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError> {
        self.spend(len)?;
        self.inner.commit(r, offset, len)
    }

    fn decommit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError> {
        self.inner.decommit(r, offset, len)
    }

    fn fill_zero(
        &mut self,
        target: CleanTarget<'_>,
        offset: u64,
        len: u64,
    ) -> Result<(), BackendError> {
        self.inner.fill_zero(target, offset, len)
    }

    fn usage(&self) -> BackendUsage {
        self.inner.usage()
    }
}
