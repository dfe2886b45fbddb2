//! Errors of the allocators built on a backend.

use super::backend::BackendError;

/// Why an allocator could not do what was asked. Always a value, never an abort;
/// when one is returned the allocator's state is as it was before the call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoryError {
    /// The backend refused.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// Zero bytes were requested.
    #[error("zero-byte allocation")]
    ZeroSize,
    /// The arena's reserved address range has no hole big enough.
    #[error(
        "expandable arena exhausted: no free range of {requested} bytes in {reserved} reserved"
    )]
    ArenaExhausted {
        /// Bytes asked for (after alignment).
        requested: u64,
        /// Size of the reserved range.
        reserved: u64,
    },
    /// A free named an allocation this allocator does not hold.
    #[error("no live allocation at offset {offset}")]
    UnknownAllocation {
        /// The offset given.
        offset: u64,
    },
    /// A configuration value is unusable.
    #[error("invalid memory configuration: {0}")]
    InvalidConfig(ConfigProblem),
}

/// Which value of an [`super::ArenaConfig`] is unusable, with the values that show it; front
/// ends word it in the user's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ConfigProblem {
    /// `page_bytes` is zero or not a multiple of the backend's base page.
    #[error(
        "arena page_bytes {page_bytes} is not a non-zero multiple of the {base}-byte base page"
    )]
    PageBytes {
        /// The arena's page.
        page_bytes: u64,
        /// The backend's base page.
        base: u64,
    },
    /// `align` is not a power of two, or exceeds `page_bytes`.
    #[error("arena align {align} is not a power of two no larger than page_bytes {page_bytes}")]
    Align {
        /// The alignment asked for.
        align: u64,
        /// The arena's page.
        page_bytes: u64,
    },
    /// `reserve_bytes` rounded up to whole pages does not fit in 64 bits.
    #[error("arena reserve_bytes {reserve_bytes} overflows when rounded up to whole pages")]
    ReserveOverflow {
        /// The reservation asked for.
        reserve_bytes: u64,
    },
}
