//! The memory backend trait: where physical memory and address space come from.
//!
//! The policies never touch memory directly; they ask a backend to reserve
//! address space, commit and decommit page ranges in it, and allocate and free
//! whole blocks. The real backend ([`super::HostBackend`]) does that with
//! `mmap`/`mprotect`/`madvise`; the counting backend ([`super::CountingBackend`])
//! only keeps the books, so a trace can be replayed without the memory.

use std::fmt;

/// Which pages back a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PageSize {
    /// The system's default page (4 KiB on x86-64 Linux).
    Base,
    /// 2 MiB huge pages (`MAP_HUGETLB | MAP_HUGE_2MB`).
    Huge2M,
    /// 1 GiB huge pages (`MAP_HUGETLB | MAP_HUGE_1GB`).
    Huge1G,
}

impl PageSize {
    /// 2 MiB.
    pub const TWO_MIB: u64 = 2 << 20;
    /// 1 GiB.
    pub const ONE_GIB: u64 = 1 << 30;

    /// Bytes of one huge page, or `None` for the base page (the backend knows it).
    pub const fn huge_bytes(self) -> Option<u64> {
        match self {
            PageSize::Base => None,
            PageSize::Huge2M => Some(Self::TWO_MIB),
            PageSize::Huge1G => Some(Self::ONE_GIB),
        }
    }
}

impl fmt::Display for PageSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PageSize::Base => "default",
            PageSize::Huge2M => "2 MiB huge",
            PageSize::Huge1G => "1 GiB huge",
        })
    }
}

/// A whole block of usable memory. Not `Clone`: freeing consumes it, so a block
/// cannot be freed twice through safe code.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Block {
    id: u64,
    addr: u64,
    len: u64,
    page: PageSize,
}

impl Block {
    /// Makes a handle; backends validate handles against their own records,
    /// so a forged one is refused rather than trusted.
    pub const fn new(id: u64, addr: u64, len: u64, page: PageSize) -> Self {
        Self {
            id,
            addr,
            len,
            page,
        }
    }
    /// Backend-unique id.
    pub const fn id(&self) -> u64 {
        self.id
    }
    /// Start address (synthetic in the counting backend).
    pub const fn addr(&self) -> u64 {
        self.addr
    }
    /// Mapped length: the request rounded up to whole pages.
    pub const fn len(&self) -> u64 {
        self.len
    }
    /// Always false: backends refuse zero-length blocks.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Page size backing the block.
    pub const fn page_size(&self) -> PageSize {
        self.page
    }
}

/// A reserved address range with no memory behind it until committed.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Reservation {
    id: u64,
    addr: u64,
    len: u64,
}

impl Reservation {
    /// Makes a handle (validated by the backend on every use).
    pub const fn new(id: u64, addr: u64, len: u64) -> Self {
        Self { id, addr, len }
    }
    /// Backend-unique id.
    pub const fn id(&self) -> u64 {
        self.id
    }
    /// Start address.
    pub const fn addr(&self) -> u64 {
        self.addr
    }
    /// Reserved length.
    pub const fn len(&self) -> u64 {
        self.len
    }
    /// Always false: backends refuse zero-length reservations.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What a clean (memset) writes to.
#[derive(Debug, Clone, Copy)]
pub enum CleanTarget<'a> {
    /// A range inside a block.
    Block(&'a Block),
    /// A committed range inside a reservation.
    Reservation(&'a Reservation),
}

/// Counters and gauges every backend keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BackendUsage {
    /// Bytes in live blocks.
    pub allocated_bytes: u64,
    /// Bytes committed inside reservations.
    pub committed_bytes: u64,
    /// Address space reserved (not memory).
    pub reserved_address_bytes: u64,
    /// Highest `allocated_bytes + committed_bytes` seen.
    pub peak_resident_bytes: u64,
    /// Successful `allocate` calls.
    pub alloc_calls: u64,
    /// Successful `free` calls.
    pub free_calls: u64,
    /// Successful `commit` calls.
    pub commit_calls: u64,
    /// Successful `decommit` calls.
    pub decommit_calls: u64,
    /// Successful `reserve` calls.
    pub reserve_calls: u64,
    /// Successful `release` calls.
    pub release_calls: u64,
    /// `fill_zero` calls (clean operations).
    pub zero_calls: u64,
    /// Bytes zeroed.
    pub zero_bytes: u64,
}

impl BackendUsage {
    /// Memory held right now: blocks plus committed pages.
    pub const fn resident_bytes(&self) -> u64 {
        self.allocated_bytes + self.committed_bytes
    }
    /// Calls that obtain memory (allocate + commit).
    pub const fn acquire_calls(&self) -> u64 {
        self.alloc_calls + self.commit_calls
    }
    /// Calls that give memory back (free + decommit).
    pub const fn return_calls(&self) -> u64 {
        self.free_calls + self.decommit_calls
    }
}

/// Why a backend call failed. Failure is always a value, never an abort.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// `MAP_HUGETLB` answered ENOMEM (none reserved) or EINVAL (size unsupported).
    #[error("{page} pages are unavailable for {len} bytes (errno {errno})")]
    HugePagesUnavailable {
        /// The page size asked for.
        page: PageSize,
        /// Bytes asked for.
        len: u64,
        /// The OS error (ENOMEM or EINVAL); 0 when injected.
        errno: i32,
    },
    /// No memory for the request.
    #[error("out of memory allocating {len} bytes")]
    OutOfMemory {
        /// Bytes asked for.
        len: u64,
    },
    /// Zero bytes were requested.
    #[error("zero-length request")]
    ZeroLength,
    /// A size or offset does not fit the address space or overflows.
    #[error("request of {len} bytes does not fit the address space")]
    TooLarge {
        /// Bytes asked for.
        len: u64,
    },
    /// A commit/decommit range is not aligned to the base page.
    #[error("range {offset}+{len} is not aligned to the {page_bytes}-byte page")]
    Misaligned {
        /// Offset in the reservation.
        offset: u64,
        /// Length of the range.
        len: u64,
        /// The base page size.
        page_bytes: u64,
    },
    /// A range lies outside its block or reservation, or is not committed.
    #[error("range {offset}+{len} is outside the usable part of handle {id}")]
    OutOfRange {
        /// The handle.
        id: u64,
        /// Offset asked for.
        offset: u64,
        /// Length asked for.
        len: u64,
    },
    /// The handle was not issued by this backend or was already released.
    #[error("handle {id} does not belong to this backend")]
    UnknownHandle {
        /// The handle id.
        id: u64,
    },
    /// Any other OS failure.
    #[error("{op} failed (errno {errno})")]
    Os {
        /// The system call.
        op: &'static str,
        /// The OS error number.
        errno: i32,
    },
}

/// Where memory comes from. See the module docs.
pub trait MemoryBackend {
    /// Bytes in one page of `page`; commit ranges align to `page_bytes(Base)`.
    fn page_bytes(&self, page: PageSize) -> u64;
    /// Allocates a whole block of at least `len` bytes backed by `page` pages.
    fn allocate(&mut self, len: u64, page: PageSize) -> Result<Block, BackendError>;
    /// Frees a whole block.
    fn free(&mut self, block: Block) -> Result<(), BackendError>;
    /// Reserves `len` bytes of address space (rounded up to the base page).
    fn reserve(&mut self, len: u64) -> Result<Reservation, BackendError>;
    /// Releases a reservation, including anything still committed in it.
    fn release(&mut self, reservation: Reservation) -> Result<(), BackendError>;
    /// Makes `[offset, offset + len)` of a reservation usable memory.
    fn commit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError>;
    /// Gives the memory of `[offset, offset + len)` back; the range stays reserved.
    fn decommit(&mut self, r: &Reservation, offset: u64, len: u64) -> Result<(), BackendError>;
    /// Zeroes `[offset, offset + len)` of a block or committed range (a clean).
    fn fill_zero(
        &mut self,
        target: CleanTarget<'_>,
        offset: u64,
        len: u64,
    ) -> Result<(), BackendError>;
    /// Counters and gauges so far.
    fn usage(&self) -> BackendUsage;
}

/// Rounds `value` up to a multiple of `align` (a power of two or any non-zero
/// value); `None` on overflow.
pub(crate) fn round_up(value: u64, align: u64) -> Option<u64> {
    if align == 0 {
        return Some(value);
    }
    value.checked_add(align - 1).map(|v| v / align * align)
}
