//! Static offset planning: give each buffer an offset in one arena so that
//! buffers live at the same time never share a byte, with the arena as small
//! as possible. LOAD ([`super::buffers::load`]) is the lower bound.
//!
//! The plan is anytime: the [`greedy::sweep`] over time (O(n log n)) runs
//! first and to the end whatever the limits, and its plan is kept as the
//! floor; every later stage can only replace it with a smaller arena, so the
//! plan returned is never worse than the sweep's, however short the time
//! limit. Then, within the budget of [`PlanOptions`]:
//!
//! - Where the instance splits in time without loss (`split`: buffers over
//!   the whole span stacked at the bottom, empty cuts between phases), the
//!   groups are planned apart, each by the stages below, and stitched; the
//!   lower bound is the bands plus the best bound of a group.
//! 0. Where buffers merge into blocks ([`merge`]: same lifetime stacked, same
//!    size back to back chained), the blocks are planned first with a
//!    quarter of the budget and their plan unfolded: that undoes the cuts of
//!    a perfect packing and shrinks what the exact stage searches.
//! 1. [`greedy`] with fixed orderings (by size, area, lifetime; best and first
//!    gap): the TFLite / SOMAS baseline. Instances whose overlap graph is too
//!    big to hold take other sweeps instead (the other placement rule, and
//!    [`anchored`]: aligned gaps, the peak stacked at LOAD), then
//!    [`backtrack`] (those sweeps redone from a little before where the
//!    arena rises, with most of the time left), and then `large`: peak
//!    re-placement on an on-demand overlap index, side by side on `threads`
//!    threads.
//! 2. Improvement ([`improve`]): independent starts (squeaky-wheel restarts
//!    from different orderings, then re-placing the buffers on the peak), side
//!    by side on `threads` threads.
//! 3. The exact search ([`exact`]) on small and medium instances, seeded with
//!    the best arena: it steps the capacity down until a capacity is proven
//!    infeasible (the plan is then optimal) or the budget ends; the plan then
//!    carries the best lower bound found.
//!
//! Results depend only on the buffers, the seed and the work budget, not on
//! the machine or the number of threads, unless the time limit cuts the work
//! short ([`Plan::timed_out`]). Every plan returned has passed
//! [`super::buffers::verify`].

mod anchored;
mod backtrack;
mod bound;
pub mod budget;
pub mod exact;
mod gaps;
pub mod generate;
pub mod greedy;
pub mod improve;
mod intervals;
mod large;
pub(crate) mod merge;
pub mod overlaps;
mod placement;
mod split;
pub mod strategy;

use std::time::{Duration, Instant};

use super::buffers::{load, verify, Buffer};
use super::csv::MAX_TOTAL_BYTES;
use super::error::MemsimError;
use budget::Budget;
pub use greedy::greedy;
use improve::Found;
use overlaps::Graph;
pub use overlaps::Overlaps;
pub use placement::Placement;
pub use strategy::{Gap, Order, Stack, Strategy};

/// How hard to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanOptions {
    /// Work over all stages, in elementary steps (overlap pairs looked at,
    /// search nodes by their cost): the same budget gives the same plan on
    /// any machine.
    pub work_budget: u64,
    /// Wall-clock bound over all stages; it cuts the work short, never
    /// lengthens it.
    pub time_limit: Duration,
    /// Threads the improvement and exact stages may use (1 or more); the
    /// plan does not depend on it.
    pub threads: usize,
    /// Seed of the search's noise.
    pub seed: u64,
    /// Largest instance (buffers of non-zero size) the exact stage runs on.
    pub exact_max_buffers: usize,
}

impl Default for PlanOptions {
    fn default() -> Self {
        Self {
            work_budget: 4_000_000_000,
            time_limit: Duration::from_secs(5),
            threads: 1,
            seed: 0x5eed_cafe,
            exact_max_buffers: 5_000,
        }
    }
}

/// A verified plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Offset of each buffer, in input order.
    pub offsets: Vec<u64>,
    /// Bytes of the arena: the highest end of any buffer.
    pub arena: u64,
    /// LOAD, the simple lower bound.
    pub load: u64,
    /// The best lower bound known: LOAD, or more when the exact stage proved
    /// smaller arenas infeasible. Equal to `arena` when the plan is optimal.
    pub lower_bound: u64,
    /// Whether no smaller arena exists (reaching LOAD, or proven by search).
    pub proven_optimal: bool,
    /// Whether the time limit, not the work budget, ended the search.
    pub timed_out: bool,
    /// Which stage produced it, for reports.
    pub found_by: Strategy,
    /// Greedy runs made.
    pub runs: u32,
}

impl Plan {
    /// Arena over LOAD (1.0 when LOAD is 0).
    pub fn ratio(&self) -> f64 {
        if self.load == 0 {
            1.0
        } else {
            self.arena as f64 / self.load as f64
        }
    }

    /// Arena over the best lower bound, minus one: how far from optimal the
    /// plan can be at most (0 when proven optimal).
    pub fn gap(&self) -> f64 {
        if self.lower_bound == 0 {
            0.0
        } else {
            self.arena as f64 / self.lower_bound as f64 - 1.0
        }
    }
}

/// The best plan so far while the planner searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of the best arena found so far.
    pub arena: u64,
    /// The best lower bound known so far.
    pub lower_bound: u64,
}

/// Told of each better plan or bound as the planner finds it (from the
/// planning thread; it should return quickly).
pub type Observer<'a> = &'a (dyn Fn(Progress) + Sync);

/// Plans `bufs` with [`PlanOptions::default`].
pub fn plan(bufs: &[Buffer]) -> Result<Plan, MemsimError> {
    plan_with(bufs, PlanOptions::default())
}

/// Checks what the CSV reader checks, for library callers: lifetimes not
/// empty, sizes that add up to an addressable arena.
fn check_input(bufs: &[Buffer]) -> Result<(), MemsimError> {
    let place = || super::error::Place::file("buffers");
    if let Some(b) = bufs.iter().find(|b| b.upper <= b.lower) {
        return Err(MemsimError::Input {
            place: place(),
            message: format!(
                "buffer `{}` lives over [{}, {}), which is empty",
                b.id, b.lower, b.upper
            ),
        });
    }
    let mut total = 0u64;
    for b in bufs {
        total = match total.checked_add(b.size).filter(|&t| t <= MAX_TOTAL_BYTES) {
            Some(t) => t,
            None => {
                return Err(MemsimError::Input {
                    place: place(),
                    message: format!(
                        "buffer `{}`: the sizes add up past {MAX_TOTAL_BYTES} bytes",
                        b.id
                    ),
                })
            }
        };
    }
    if bufs.is_empty() {
        return Err(MemsimError::Input {
            place: place(),
            message: "no buffers to plan".into(),
        });
    }
    Ok(())
}

/// The best so far, ties to the earlier.
fn consider(best: &mut Option<Found>, f: Found) {
    if best.as_ref().is_none_or(|b| f.arena < b.arena) {
        *best = Some(f);
    }
}

/// Plans `bufs`; see the module docs.
pub fn plan_with(bufs: &[Buffer], opts: PlanOptions) -> Result<Plan, MemsimError> {
    plan_observed(bufs, opts, &|_| {})
}

/// [`plan_with`], telling `observe` of each better arena or bound.
pub fn plan_observed(
    bufs: &[Buffer],
    opts: PlanOptions,
    observe: Observer<'_>,
) -> Result<Plan, MemsimError> {
    plan_inner(bufs, opts, observe, true)
}

/// The planner. First the sweep, run to the end whatever the limits: the
/// floor every later stage can only improve on, so a time limit never makes
/// a plan worse than it. Then, where the instance splits in time without
/// loss ([`split`], when `may_split`), its groups are planned apart;
/// otherwise the stages of the module docs run on the whole.
pub(crate) fn plan_inner(
    bufs: &[Buffer],
    opts: PlanOptions,
    observe: Observer<'_>,
    may_split: bool,
) -> Result<Plan, MemsimError> {
    check_input(bufs)?;
    let started = Instant::now();
    let deadline = started + opts.time_limit;
    let lb = load(bufs);
    // Its own budget: the floor never counts against the stages' work, so the
    // stages do exactly what they did before the floor existed.
    let mut unlimited = Budget::new(u64::MAX, started + Duration::from_secs(1 << 30));
    let (offsets, arena, _) = greedy::sweep(bufs, Placement::BestGap, &mut unlimited);
    let floor = Found {
        offsets,
        arena,
        how: Strategy::Sweep { gap: Gap::Best },
    };
    let mut progress = Progress {
        arena,
        lower_bound: lb.min(arena),
    };
    observe(progress);
    let tell = |best: &Option<Found>, bound: u64, progress: &mut Progress| {
        let arena = best
            .as_ref()
            .map_or(floor.arena, |b| b.arena.min(floor.arena));
        let next = Progress {
            arena,
            lower_bound: bound.min(arena),
        };
        if next != *progress {
            *progress = next;
            observe(next);
        }
    };
    let mut budget = Budget::new(opts.work_budget.max(1), deadline);
    if may_split && floor.arena > lb {
        if let Some(sp) = split::Split::new(bufs) {
            let st = split::plan_parts(bufs, &sp, opts, &mut budget, observe)?;
            let best = Some(st.found);
            return finish(bufs, best, floor, lb, st.lower_bound, st.timed_out, st.runs);
        }
    }
    let mut runs = 0u32;
    // Even where the sweep reached LOAD the stages run (they are quick then),
    // so small instances keep the plans they had before the floor existed.
    let mut best: Option<Found> = if budget.in_time() {
        merged_plan(bufs, opts, &mut budget, &mut runs)?
    } else {
        None
    };
    tell(&best, lb, &mut progress);
    let mut lower_bound = lb;
    let mut timed_out = false;
    // Every stage below reads the clock as it goes (building the graph,
    // each greedy pass, the searches), so the limit is kept to within a
    // fraction of a second whatever the instance.
    let graph = if budget.in_time() {
        Overlaps::within(bufs, overlaps::MAX_PAIRS, &mut budget)
    } else {
        Graph::OutOfTime
    };
    if let Graph::Built(ov) = graph {
        let fixed = greedy::fixed_orders(bufs);
        'fixed: for (name, order) in &fixed {
            for rule in [Placement::BestGap, Placement::FirstGap] {
                let Some((offsets, arena, w)) =
                    greedy::greedy_within(bufs, &ov, order, rule, &mut budget)
                else {
                    break 'fixed;
                };
                runs += 1;
                budget.spend(w);
                consider(
                    &mut best,
                    Found {
                        offsets,
                        arena,
                        how: Strategy::Greedy {
                            order: *name,
                            gap: rule.into(),
                        },
                    },
                );
            }
        }
        tell(&best, lb, &mut progress);
        let exact_ok = bufs.iter().filter(|b| b.size > 0).count() <= opts.exact_max_buffers;
        if !exact_ok && best.as_ref().is_some_and(|b| b.arena > lb) && budget.left() {
            lower_bound = peak_bound(bufs, opts, &mut budget);
            tell(&best, lower_bound, &mut progress);
        }
        if best.as_ref().is_some_and(|b| b.arena > lower_bound) && budget.left() {
            // Where the exact stage runs it gets most: on small and medium
            // instances it both finds and proves.
            let (mut stage, until) = if exact_ok {
                (
                    Budget::new(budget.work() / 8, started + opts.time_limit / 8),
                    started + opts.time_limit / 8,
                )
            } else {
                (budget, deadline)
            };
            let before = stage.work();
            let seed_plan = best.clone();
            let (found, r) =
                improve::run_starts(bufs, &ov, lb, &fixed, seed_plan, &mut stage, until, opts);
            runs += r;
            timed_out |= stage.timed_out();
            budget.charge(before - stage.work());
            if let Some(f) = found {
                consider(&mut best, f);
            }
            tell(&best, lower_bound, &mut progress);
        }
        if exact_ok && best.as_ref().is_some_and(|b| b.arena > lower_bound) && budget.left() {
            if let Some(b) = best.as_ref() {
                let out = exact::minimize(bufs, &ov, lb, b, &mut budget, opts.threads, opts.seed);
                lower_bound = lower_bound.max(out.lower_bound);
                if let Some(f) = out.found {
                    consider(&mut best, f);
                }
                tell(&best, lower_bound, &mut progress);
            }
        }
    } else if matches!(graph, Graph::TooDense) && budget.in_time() {
        // Too dense to hold the overlap graph: other sweeps ([`anchored`]),
        // then peak re-placement on an on-demand overlap index.
        runs += 1;
        for f in large::sweeps(bufs, &mut budget) {
            runs += 1;
            consider(&mut best, f);
        }
        tell(&best, lb, &mut progress);
        lower_bound = peak_bound(bufs, opts, &mut budget);
        tell(&best, lower_bound, &mut progress);
        // Most of the time left backtracks the anchored sweeps; the rest
        // re-places the peak of the best plan.
        let now = Instant::now();
        let left = budget.deadline().saturating_duration_since(now);
        if floor.arena > lb && budget.left() {
            if let Some(f) = large::backtracked(
                bufs,
                now + left * 4 / 5,
                &mut budget,
                opts.threads,
                opts.seed,
            ) {
                runs += 1;
                consider(&mut best, f);
                tell(&best, lower_bound, &mut progress);
            }
        }
        let from = match best.as_ref() {
            _ if floor.arena <= lb => floor.clone(),
            Some(b) if b.arena < floor.arena => b.clone(),
            _ => floor.clone(),
        };
        if let Some(f) = large::improve(bufs, lb, &from, &mut budget, opts.threads, opts.seed) {
            consider(&mut best, f);
            tell(&best, lower_bound, &mut progress);
        }
    }
    timed_out |= budget.timed_out();
    finish(bufs, best, floor, lb, lower_bound, timed_out, runs)
}

/// A bound above LOAD from the exact stage on a window around the peak
/// ([`bound`]), with a fifth of what is left of the budget and the time.
fn peak_bound(bufs: &[Buffer], opts: PlanOptions, budget: &mut Budget) -> u64 {
    let now = Instant::now();
    let left = budget.deadline().saturating_duration_since(now);
    let mut stage = Budget::new(budget.work() / 5, now + left / 5);
    let before = stage.work();
    let window = opts.exact_max_buffers.min(2000);
    let bound = bound::around_peak(bufs, window, &mut stage, opts.threads, opts.seed);
    budget.charge(before - stage.work());
    bound
}

/// Plans the blocks of [`merge::Merged`] (when merging shrinks the
/// instance) with a quarter of the budget, and unfolds the plan. Planting
/// the blocks is quick where the instance is made of guillotine cuts (a
/// perfect packing collapses into one block), and the exact stage then runs
/// on a far smaller instance; the full instance is planned after it all the
/// same, so merging can only help.
fn merged_plan(
    bufs: &[Buffer],
    opts: PlanOptions,
    budget: &mut Budget,
    runs: &mut u32,
) -> Result<Option<Found>, MemsimError> {
    let Some(m) = merge::Merged::new(bufs) else {
        return Ok(None);
    };
    let blocks = m.buffers();
    let share = PlanOptions {
        work_budget: (opts.work_budget / 4).max(1),
        time_limit: opts.time_limit / 4,
        ..opts
    };
    // The blocks merge no further, so this does not recurse again.
    let p = plan_with(&blocks, share)?;
    budget.charge(share.work_budget);
    *runs += p.runs;
    let offsets = m.unfold(&p.offsets);
    verify(bufs, &offsets, p.arena)?;
    Ok(Some(Found {
        offsets,
        arena: p.arena,
        how: Strategy::Merged {
            blocks: blocks.len(),
            inner: Box::new(p.found_by),
        },
    }))
}

/// Verifies the best plan (or the floor, where nothing beat it) and
/// reports it.
fn finish(
    bufs: &[Buffer],
    best: Option<Found>,
    floor: Found,
    lb: u64,
    lower_bound: u64,
    timed_out: bool,
    runs: u32,
) -> Result<Plan, MemsimError> {
    let Found {
        offsets,
        arena,
        how,
    } = match best {
        Some(b) if b.arena <= floor.arena => b,
        _ => floor,
    };
    verify(bufs, &offsets, arena)?;
    let lower_bound = lower_bound.max(lb).min(arena);
    Ok(Plan {
        offsets,
        arena,
        load: lb,
        lower_bound,
        proven_optimal: arena == lower_bound,
        timed_out,
        found_by: how,
        runs,
    })
}
