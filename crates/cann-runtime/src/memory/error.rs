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
    InvalidConfig(&'static str),
}
