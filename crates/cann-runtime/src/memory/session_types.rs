//! The session's configuration, ids and error type.

use super::error::MemoryError;
use super::expandable::ArenaConfig;
use super::huge_pages::HugePageError;
use super::policy::{AtomicCleanPolicy, StaticMemoryPolicy, VariableUse1gHugePage};
use super::static_pool::GrowthMode;

/// Everything a session needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionConfig {
    /// The effective policy (from [`super::resolve`]).
    pub policy: StaticMemoryPolicy,
    /// How the policy-2 pool grows.
    pub growth: GrowthMode,
    /// How memset outputs are cleaned.
    pub atomic_clean: AtomicCleanPolicy,
    /// Page sizes for variable memory.
    pub huge_pages: VariableUse1gHugePage,
    /// Shape of the policy 3/4 arena.
    pub arena: ArenaConfig,
    /// Address space for [`GrowthMode::EngineCode`] pool growth.
    pub pool_reserve_bytes: u64,
}

impl SessionConfig {
    /// Defaults for everything but the policy; the options' defaults are the spec's (the
    /// generated enums' `Default`: a spec that drops one fails to compile here).
    pub fn new(policy: StaticMemoryPolicy) -> Self {
        Self {
            policy,
            growth: GrowthMode::default(),
            atomic_clean: AtomicCleanPolicy::default(),
            huge_pages: VariableUse1gHugePage::default(),
            arena: ArenaConfig::default(),
            pool_reserve_bytes: 64 << 30,
        }
    }
}

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident($t:ty)) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(super) $t);
        impl $name {
            /// The raw number (stable for the session's lifetime).
            pub const fn get(self) -> $t {
                self.0
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}
id_type!(
    /// A registered graph.
    GraphId(u32)
);
id_type!(
    /// A running execution.
    ExecId(u64)
);
id_type!(
    /// A dynamic tensor.
    TensorId(u64)
);
id_type!(
    /// A variable allocation.
    VariableId(u64)
);

/// Why a session call failed; the session is unchanged unless stated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// Policy 2 or 4 and another graph of the session is running.
    #[error("static_memory_policy {policy} does not allow graph {requested} to run while graph {running} is running")]
    ConcurrentExecution {
        /// The effective policy code.
        policy: i64,
        /// A graph already running.
        running: GraphId,
        /// The graph refused.
        requested: GraphId,
    },
    /// No such graph.
    #[error("unknown graph {0}")]
    UnknownGraph(GraphId),
    /// No such running execution.
    #[error("unknown or finished execution {0}")]
    UnknownExecution(ExecId),
    /// No such live tensor in that execution.
    #[error("unknown tensor {0}")]
    UnknownTensor(TensorId),
    /// No such live variable.
    #[error("unknown variable {0}")]
    UnknownVariable(VariableId),
    /// Tensors are allocated only by dynamic-shape graphs.
    #[error("graph {0} is static-shape; its memory is planned at load")]
    NotDynamic(GraphId),
    /// The allocator failed.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// Variable memory failed.
    #[error(transparent)]
    HugePage(#[from] HugePageError),
}
