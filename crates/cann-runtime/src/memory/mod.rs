//! Memory policies (see DESIGN.md, "memory"): the behaviour behind
//! `MemoryConfig`'s `static_memory_policy`, `atomic_clean_policy` and
//! `variable_use_1g_huge_page`, running on real memory.
//!
//! - [`policy`]: what the engine does with each value of the three options (cann-config's
//!   generated enums), and [`resolve`], which combines `static_memory_policy` with
//!   `GE_USE_STATIC_MEMORY`.
//! - [`backend`]: the [`MemoryBackend`] trait; [`HostBackend`] (mmap, real),
//!   [`CountingBackend`] (books only, for simulation), [`FaultInjecting`].
//! - [`static_pool`] (policy 2), [`expandable`] (policies 3 and 4),
//!   [`atomic_clean`], [`huge_pages`]: the mechanisms.
//! - [`session`]: [`SessionMemory`] puts them together the way the graph engine does
//!   for one session, and reports [`MemoryStats`].
//! - [`baseline`]: the classic best-fit caching allocator, for comparison.

pub mod atomic_clean;
pub mod backend;
pub mod baseline;
pub mod counting;
pub mod error;
pub mod expandable;
pub mod fault;
#[cfg(target_os = "linux")]
pub mod host;
pub mod huge_pages;
mod interval;
pub mod policy;
mod registry;
pub mod session;
mod session_types;
pub mod static_pool;
pub mod stats;

pub use atomic_clean::{centralized_extra_bytes, CleanOp, CleanPlan, MemsetOutput, StaticGraph};
pub use backend::{
    BackendError, BackendUsage, Block, CleanTarget, MemoryBackend, PageSize, Reservation,
};
pub use baseline::{BestFitCaching, CachedAlloc, CachingStats};
pub use counting::CountingBackend;
pub use error::{ConfigProblem, MemoryError};
pub use expandable::{ArenaAlloc, ArenaConfig, ArenaStats, ExpandableArena};
pub use fault::FaultInjecting;
#[cfg(target_os = "linux")]
pub use host::HostBackend;
pub use huge_pages::{HugePageError, HugePageEvent, VariableMemory};
pub use policy::{
    from_parts, resolve, AtomicClean, AtomicCleanPolicy, Expansion, HugePages, MemoryExpansion,
    PolicySource, Resolution, ResolutionWarning, StaticMemoryPolicy, VariableUse1gHugePage,
};
pub use session::{
    ExecId, GraphId, SessionConfig, SessionError, SessionMemory, TensorId, VariableId,
};
pub use static_pool::{Growth, GrowthMode, StaticPool};
pub use stats::MemoryStats;
