//! What `atomic_clean_policy` does to a static plan.
//!
//! - 1 (separate): each memset output is zeroed just before its producer runs
//!   and lives only over its own lifetime: the buffers are planned as given,
//!   one clean operation per memset output.
//! - 0 (centralized): the memset outputs sit side by side in one region that a
//!   single operation zeroes at the start of the run, so the region is live
//!   from the start of the run until the last memset output's last use. It is
//!   planned as one buffer; the outputs get consecutive offsets inside it.
//!
//! The same model as [`cann_runtime::memory::atomic_clean`], applied to a buffer list.

use super::buffers::{load, verify, Buffer};
use super::error::MemsimError;
use super::planner::{plan_observed, Observer, Plan, PlanOptions};
use cann_runtime::memory::{AtomicClean, AtomicCleanPolicy};

/// A plan under one clean policy.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicyPlan {
    /// The policy.
    pub policy: AtomicCleanPolicy,
    /// The plan; offsets are per input buffer, `load` is LOAD of the buffers
    /// as the policy makes them live (memset outputs stretched under 0).
    pub plan: Plan,
    /// Clean operations per run.
    pub clean_ops: u64,
    /// Bytes zeroed per run.
    pub clean_bytes: u64,
}

/// The buffers as `policy` makes them live: under 0, memset outputs live from
/// the start of the run to the end of the region.
pub fn as_live(bufs: &[Buffer], policy: AtomicCleanPolicy) -> Vec<Buffer> {
    let mut out = bufs.to_vec();
    if policy.behaviour() == AtomicClean::Centralized {
        let start = bufs.iter().map(|b| b.lower).min().unwrap_or(0);
        let end = bufs.iter().filter(|b| b.memset).map(|b| b.upper).max();
        if let Some(end) = end {
            for b in out.iter_mut().filter(|b| b.memset) {
                b.lower = start;
                b.upper = end;
            }
        }
    }
    out
}

/// Plans `bufs` under `policy`; the result is verified against the buffers
/// as the policy makes them live.
pub fn plan_policy(
    bufs: &[Buffer],
    policy: AtomicCleanPolicy,
    opts: PlanOptions,
) -> Result<PolicyPlan, MemsimError> {
    plan_policy_observed(bufs, policy, opts, &|_| {})
}

/// [`plan_policy`], telling `observe` of the planner's progress.
pub fn plan_policy_observed(
    bufs: &[Buffer],
    policy: AtomicCleanPolicy,
    opts: PlanOptions,
    observe: Observer<'_>,
) -> Result<PolicyPlan, MemsimError> {
    let memset: Vec<usize> = (0..bufs.len()).filter(|&i| bufs[i].memset).collect();
    let memset_bytes: u64 = memset
        .iter()
        .fold(0u64, |acc, &i| acc.saturating_add(bufs[i].size));
    let live = as_live(bufs, policy);
    let centralized = policy.behaviour() == AtomicClean::Centralized && !memset.is_empty();
    let plan = if centralized {
        // One region buffer instead of the memset outputs, then spread them
        // out inside it in input order.
        let mut reduced: Vec<Buffer> = live.iter().filter(|b| !b.memset).cloned().collect();
        let first = &live[memset[0]];
        reduced.push(Buffer {
            id: "(memset region)".into(),
            lower: first.lower,
            upper: first.upper,
            size: memset_bytes,
            memset: true,
        });
        let p = plan_observed(&reduced, opts, observe)?;
        let region_at = p.offsets.last().copied().unwrap_or(0);
        let mut offsets = Vec::with_capacity(bufs.len());
        let (mut plain, mut inside) = (p.offsets.iter(), region_at);
        for b in bufs {
            if b.memset {
                offsets.push(inside);
                inside = inside.saturating_add(b.size);
            } else {
                offsets.push(plain.next().copied().unwrap_or(0));
            }
        }
        verify(&live, &offsets, p.arena)?;
        Plan {
            offsets,
            load: load(&live),
            ..p
        }
    } else {
        plan_observed(&live, opts, observe)?
    };
    let (clean_ops, clean_bytes) = match policy.behaviour() {
        _ if memset_bytes == 0 => (0, 0),
        AtomicClean::Centralized => (1, memset_bytes),
        AtomicClean::Separate => (
            memset.iter().filter(|&&i| bufs[i].size > 0).count() as u64,
            memset_bytes,
        ),
    };
    Ok(PolicyPlan {
        policy,
        plan,
        clean_ops,
        clean_bytes,
    })
}

/// Both policies side by side, for the cost of 0 over 1.
#[derive(Debug, Clone, PartialEq)]
pub struct CleanComparison {
    /// Under `atomic_clean_policy` 0.
    pub centralized: PolicyPlan,
    /// Under `atomic_clean_policy` 1.
    pub separate: PolicyPlan,
}

impl CleanComparison {
    /// Plans both.
    pub fn new(bufs: &[Buffer], opts: PlanOptions) -> Result<Self, MemsimError> {
        Self::observed(bufs, opts, &|_| {})
    }

    /// Plans both, telling `observe` of each plan's progress in turn.
    pub fn observed(
        bufs: &[Buffer],
        opts: PlanOptions,
        observe: Observer<'_>,
    ) -> Result<Self, MemsimError> {
        let separate = AtomicCleanPolicy::from_behaviour(AtomicClean::Separate);
        let separate = plan_policy_observed(bufs, separate, opts, observe)?;
        let centralized = AtomicCleanPolicy::from_behaviour(AtomicClean::Centralized);
        // Without memset outputs the two policies plan the same buffers.
        let centralized = if bufs.iter().any(|b| b.memset) {
            plan_policy_observed(bufs, centralized, opts, observe)?
        } else {
            PolicyPlan {
                policy: centralized,
                ..separate.clone()
            }
        };
        Ok(Self {
            centralized,
            separate,
        })
    }

    /// Arena bytes policy 0 costs over 1 (negative if the heuristic happened
    /// to do better under 0).
    pub fn extra_arena_bytes(&self) -> i128 {
        i128::from(self.centralized.plan.arena) - i128::from(self.separate.plan.arena)
    }

    /// LOAD bytes policy 0 costs over 1: the part no planner can avoid.
    pub fn extra_load_bytes(&self) -> u64 {
        self.centralized
            .plan
            .load
            .saturating_sub(self.separate.plan.load)
    }
}
