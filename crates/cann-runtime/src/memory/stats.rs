//! What a session reports: the numbers `cannctl mem simulate` prints.

use super::policy::{AtomicCleanPolicy, StaticMemoryPolicy};

/// Counters and gauges of one session.
///
/// `reserved` is memory held from the backend (blocks plus committed pages);
/// `live` is what graphs and variables asked for and still hold. Peak reserved
/// is the backend's own high-water mark, exact even inside one operation, so a
/// session should own a fresh backend when per-session numbers matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryStats {
    /// The effective policy the session ran.
    pub policy: StaticMemoryPolicy,
    /// The clean policy.
    pub atomic_clean: AtomicCleanPolicy,
    /// Bytes live right now.
    pub live_bytes: u64,
    /// Highest `live_bytes` seen.
    pub peak_live_bytes: u64,
    /// Bytes held from the backend right now.
    pub reserved_bytes: u64,
    /// Highest `reserved_bytes` seen.
    pub peak_reserved_bytes: u64,
    /// Backend calls that obtained memory (allocate + commit) by this session.
    pub backend_alloc_calls: u64,
    /// Backend calls that gave memory back (free + decommit) by this session.
    pub backend_free_calls: u64,
    /// Clean (memset) operations performed.
    pub clean_ops: u64,
    /// Bytes cleaned.
    pub clean_bytes: u64,
    /// Executions refused because another graph of the session was running.
    pub refused_concurrent: u64,
    /// Executions started.
    pub executions: u64,
}

impl MemoryStats {
    /// Peak reserved over peak live (1.0 when nothing was live).
    pub fn reserved_to_live(&self) -> f64 {
        if self.peak_live_bytes == 0 {
            1.0
        } else {
            self.peak_reserved_bytes as f64 / self.peak_live_bytes as f64
        }
    }
}
