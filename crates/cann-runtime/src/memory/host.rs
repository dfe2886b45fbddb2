//! The real backend: anonymous host memory through `mmap`.
//!
//! - whole blocks: `mmap(PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS)`, with
//!   `MAP_HUGETLB|MAP_HUGE_2MB` or `MAP_HUGE_1GB` for huge pages; `munmap` frees;
//! - reservations: `mmap(PROT_NONE, MAP_NORESERVE)` takes address space only;
//!   commit is `mprotect(PROT_READ|PROT_WRITE)` (pages appear on first touch);
//!   decommit is `madvise(MADV_DONTNEED)` then `mprotect(PROT_NONE)`, so the
//!   resident set really drops and a stray access faults instead of silently
//!   re-populating the page.
//!
//! Every handle is checked against the registry before a system call, so safe code
//! cannot make this backend unmap or write memory it did not map.

use std::ffi::c_void;

use rustix::io::Errno;
use rustix::mm::{self, Advice, MapFlags, MprotectFlags, ProtFlags};

use super::backend::{
    round_up, BackendError, BackendUsage, Block, CleanTarget, MemoryBackend, PageSize, Reservation,
};
use super::registry::Registry;

/// Real host memory. Unmaps whatever is still mapped when dropped.
#[derive(Debug)]
pub struct HostBackend {
    registry: Registry,
}

impl Default for HostBackend {
    fn default() -> Self {
        Self::new()
    }
}

fn to_usize(len: u64) -> Result<usize, BackendError> {
    usize::try_from(len).map_err(|_| BackendError::TooLarge { len })
}

fn os(op: &'static str, e: Errno) -> BackendError {
    BackendError::Os {
        op,
        errno: e.raw_os_error(),
    }
}

impl HostBackend {
    /// A backend over this process's address space.
    pub fn new() -> Self {
        Self {
            registry: Registry::new(rustix::param::page_size() as u64),
        }
    }

    fn map_flags(page: PageSize) -> MapFlags {
        match page {
            PageSize::Base => MapFlags::PRIVATE,
            PageSize::Huge2M => MapFlags::PRIVATE | MapFlags::HUGETLB | MapFlags::HUGE_2MB,
            PageSize::Huge1G => MapFlags::PRIVATE | MapFlags::HUGETLB | MapFlags::HUGE_1GB,
        }
    }
}

impl MemoryBackend for HostBackend {
    fn page_bytes(&self, page: PageSize) -> u64 {
        page.huge_bytes().unwrap_or(self.registry.base_page())
    }

    fn allocate(&mut self, len: u64, page: PageSize) -> Result<Block, BackendError> {
        if len == 0 {
            return Err(BackendError::ZeroLength);
        }
        let mapped = round_up(len, self.page_bytes(page)).ok_or(BackendError::TooLarge { len })?;
        let size = to_usize(mapped)?;
        // SAFETY: a fresh anonymous mapping at an address the kernel chooses
        // (null hint, no MAP_FIXED) cannot alias any existing Rust object.
        let result = unsafe {
            mm::mmap_anonymous(
                std::ptr::null_mut(),
                size,
                ProtFlags::READ | ProtFlags::WRITE,
                Self::map_flags(page),
            )
        };
        match result {
            Ok(ptr) => Ok(self.registry.add_block(ptr as u64, mapped, page)),
            // With MAP_HUGETLB, ENOMEM means no huge pages are reserved and
            // EINVAL that the size is unsupported: both are "unavailable".
            Err(e) if page != PageSize::Base && (e == Errno::NOMEM || e == Errno::INVAL) => {
                Err(BackendError::HugePagesUnavailable {
                    page,
                    len,
                    errno: e.raw_os_error(),
                })
            }
            Err(e) if e == Errno::NOMEM => Err(BackendError::OutOfMemory { len }),
            Err(e) => Err(os("mmap", e)),
        }
    }

    fn free(&mut self, block: Block) -> Result<(), BackendError> {
        let (addr, len) = self.registry.block(&block)?;
        let size = to_usize(len)?;
        // SAFETY: (addr, len) is a live mapping this backend created (checked by
        // the registry), and the consumed `Block` was the only handle to it.
        unsafe { mm::munmap(addr as *mut c_void, size) }.map_err(|e| os("munmap", e))?;
        self.registry.remove_block(&block).map(|_| ())
    }

    fn reserve(&mut self, len: u64) -> Result<Reservation, BackendError> {
        if len == 0 {
            return Err(BackendError::ZeroLength);
        }
        let len = round_up(len, self.registry.base_page()).ok_or(BackendError::TooLarge { len })?;
        let size = to_usize(len)?;
        // SAFETY: a fresh PROT_NONE anonymous mapping at a kernel-chosen address;
        // MAP_NORESERVE so it costs address space only, not commit charge.
        let result = unsafe {
            mm::mmap_anonymous(
                std::ptr::null_mut(),
                size,
                ProtFlags::empty(),
                MapFlags::PRIVATE | MapFlags::NORESERVE,
            )
        };
        match result {
            Ok(ptr) => Ok(self.registry.add_reservation(ptr as u64, len)),
            Err(e) if e == Errno::NOMEM => Err(BackendError::TooLarge { len }),
            Err(e) => Err(os("mmap", e)),
        }
    }

    fn release(&mut self, reservation: Reservation) -> Result<(), BackendError> {
        let (addr, len) = self.registry.reservation_span(&reservation)?;
        let size = to_usize(len)?;
        // SAFETY: the whole reservation is a live mapping this backend created,
        // and the consumed handle was the only way to reach it.
        unsafe { mm::munmap(addr as *mut c_void, size) }.map_err(|e| os("munmap", e))?;
        self.registry.remove_reservation(&reservation).map(|_| ())
    }

    fn commit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError> {
        let addr = self.registry.check_page_range(r, offset, len)?;
        let size = to_usize(len)?;
        // SAFETY: the page-aligned range lies inside a reservation this backend
        // mapped; changing its protection affects no other object.
        unsafe {
            mm::mprotect(
                addr as *mut c_void,
                size,
                MprotectFlags::READ | MprotectFlags::WRITE,
            )
        }
        .map_err(|e| match e {
            Errno::NOMEM => BackendError::OutOfMemory { len },
            e => os("mprotect", e),
        })?;
        self.registry.record_commit(r, offset, len);
        Ok(())
    }

    fn decommit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError> {
        let addr = self.registry.check_page_range(r, offset, len)?;
        let size = to_usize(len)?;
        // SAFETY: the page-aligned range lies inside a reservation this backend
        // mapped. MADV_DONTNEED drops its pages (they read as zero afterwards);
        // callers only decommit ranges no live allocation uses.
        unsafe { mm::madvise(addr as *mut c_void, size, Advice::LinuxDontNeed) }
            .map_err(|e| os("madvise", e))?;
        // SAFETY: same range; PROT_NONE makes a stray access fault loudly.
        unsafe { mm::mprotect(addr as *mut c_void, size, MprotectFlags::empty()) }
            .map_err(|e| os("mprotect", e))?;
        self.registry.record_decommit(r, offset, len);
        Ok(())
    }

    fn fill_zero(
        &mut self,
        target: CleanTarget<'_>,
        offset: u64,
        len: u64,
    ) -> Result<(), BackendError> {
        let addr = self.registry.check_writable(target, offset, len)?;
        let size = to_usize(len)?;
        if size > 0 {
            // SAFETY: the registry checked that [addr, addr + len) is inside a live
            // read-write block or a committed range of a live reservation.
            unsafe { std::ptr::write_bytes(addr as *mut u8, 0, size) };
        }
        self.registry.record_zero(len);
        Ok(())
    }

    fn usage(&self) -> BackendUsage {
        self.registry.usage()
    }
}

impl Drop for HostBackend {
    fn drop(&mut self) {
        for (addr, len) in self.registry.mappings() {
            if let Ok(size) = usize::try_from(len) {
                // SAFETY: each (addr, len) is a live mapping this backend made and
                // no handle can reach it after the backend is gone. A failure
                // here can only leak address space, so it is ignored.
                let _ = unsafe { mm::munmap(addr as *mut c_void, size) };
            }
        }
    }
}
