//! Where a static graph's memset outputs go and how they are cleaned
//! (`atomic_clean_policy`).
//!
//! A static graph is described by the planned size of its ordinary buffers
//! (`feature_map_bytes`) and its memset outputs, each with the step that
//! produces it and the step after its last use. Its memory is the feature map
//! followed by a memset region:
//!
//! - [`AtomicClean::Centralized`]: the outputs sit side by side and one
//!   clean at the start of each execution zeroes the whole region, so they are
//!   live for the whole execution;
//! - [`AtomicClean::Separate`]: each output is zeroed just before its
//!   producer runs and lives only from its producer to its last use, so outputs
//!   whose lifetimes do not overlap share memory (placed greedily, largest
//!   first, at the lowest offset that clashes with no overlapping output).
//!
//! The difference in region size is the extra memory policy 0 costs. It is a
//! lower bound: with policy 1 the engine may also share memset memory with
//! ordinary buffers, which this description does not model.

use super::policy::{AtomicClean, AtomicCleanPolicy};

/// Alignment of each memset output, as the engine aligns device buffers.
pub const CLEAN_ALIGN: u64 = 512;

/// One memset output of a static graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemsetOutput {
    /// Bytes.
    pub size: u64,
    /// Step of the operator that produces it (cleaned just before, under policy 1).
    pub producer: u32,
    /// First step at which it is no longer used (half-open lifetime).
    pub end: u32,
}

/// A static-shape graph: its memory need is known at load.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StaticGraph {
    /// Name, for reports.
    pub name: String,
    /// Planned bytes of the ordinary (non-memset) buffers.
    pub feature_map_bytes: u64,
    /// Outputs of operators with the memset attribute.
    pub memset_outputs: Vec<MemsetOutput>,
}

/// One clean operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CleanOp {
    /// Step before which it runs (0 for the centralized clean).
    pub before_step: u32,
    /// Offset in the graph's memory.
    pub offset: u64,
    /// Bytes zeroed.
    pub len: u64,
}

/// The layout and clean schedule of one graph under one policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CleanPlan {
    /// The policy planned for.
    pub policy: AtomicCleanPolicy,
    /// Feature map plus memset region: what one execution needs.
    pub memory_bytes: u64,
    /// Bytes of the memset region.
    pub region_bytes: u64,
    /// Offset of each memset output in the graph's memory, in input order.
    pub offsets: Vec<u64>,
    /// Clean operations of one execution, in execution order.
    pub ops: Vec<CleanOp>,
}

impl CleanPlan {
    /// Bytes zeroed per execution.
    pub fn clean_bytes(&self) -> u64 {
        self.ops.iter().map(|op| op.len).sum()
    }
}

fn aligned(size: u64) -> u64 {
    size.div_ceil(CLEAN_ALIGN).saturating_mul(CLEAN_ALIGN)
}

/// Plans `graph` under `policy`.
pub fn plan(graph: &StaticGraph, policy: AtomicCleanPolicy) -> CleanPlan {
    let base = graph.feature_map_bytes;
    let outs = &graph.memset_outputs;
    let mut rel = vec![0u64; outs.len()];
    let region = match policy.behaviour() {
        AtomicClean::Centralized => {
            let mut at = 0u64;
            for (i, o) in outs.iter().enumerate() {
                rel[i] = at;
                at = at.saturating_add(aligned(o.size));
            }
            at
        }
        AtomicClean::Separate => place_by_lifetime(outs, &mut rel),
    };
    let offsets: Vec<u64> = rel.iter().map(|r| base.saturating_add(*r)).collect();
    let ops = match policy.behaviour() {
        AtomicClean::Centralized if region > 0 => vec![CleanOp {
            before_step: 0,
            offset: base,
            len: region,
        }],
        AtomicClean::Centralized => Vec::new(),
        AtomicClean::Separate => {
            let mut ops: Vec<CleanOp> = outs
                .iter()
                .zip(&offsets)
                .filter(|(o, _)| o.size > 0)
                .map(|(o, &offset)| CleanOp {
                    before_step: o.producer,
                    offset,
                    len: o.size,
                })
                .collect();
            // Stable, so outputs of one producer keep their input order.
            ops.sort_by_key(|op| op.before_step);
            ops
        }
    };
    CleanPlan {
        policy,
        memory_bytes: base.saturating_add(region),
        region_bytes: region,
        offsets,
        ops,
    }
}

/// Greedy by size: largest first, each at the lowest offset that overlaps no
/// already placed output whose lifetime overlaps its own. Returns the region size.
fn place_by_lifetime(outs: &[MemsetOutput], rel: &mut [u64]) -> u64 {
    let mut order: Vec<usize> = (0..outs.len()).collect();
    order.sort_by(|&a, &b| outs[b].size.cmp(&outs[a].size).then(a.cmp(&b)));
    let mut placed: Vec<usize> = Vec::with_capacity(outs.len());
    let mut region = 0u64;
    for i in order {
        let o = outs[i];
        let len = aligned(o.size);
        let mut clashes: Vec<(u64, u64)> = placed
            .iter()
            .filter(|&&j| outs[j].producer < o.end && o.producer < outs[j].end)
            .map(|&j| (rel[j], rel[j] + aligned(outs[j].size)))
            .collect();
        clashes.sort_unstable();
        let mut at = 0u64;
        for (s, e) in clashes {
            if at.saturating_add(len) <= s {
                break;
            }
            at = at.max(e);
        }
        rel[i] = at;
        region = region.max(at.saturating_add(len));
        placed.push(i);
    }
    region
}

/// What policy 0 costs over policy 1 for `graph`, in bytes of memory.
pub fn centralized_extra_bytes(graph: &StaticGraph) -> u64 {
    let central = plan(
        graph,
        AtomicCleanPolicy::from_behaviour(AtomicClean::Centralized),
    )
    .memory_bytes;
    let separate = plan(
        graph,
        AtomicCleanPolicy::from_behaviour(AtomicClean::Separate),
    )
    .memory_bytes;
    central.saturating_sub(separate)
}
