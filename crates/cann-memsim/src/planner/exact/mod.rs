//! The exact stage: a depth-first search over canonical solutions, after the
//! ideas of MiniMalloc (Moffitt, ASPLOS 2023); this is an implementation of
//! its own.
//!
//! The decision problem: do the buffers fit in `capacity` bytes? Take any
//! solution and let every buffer fall as low as it can; then each buffer
//! rests on 0 or on a buffer below it. Placing the buffers in order of offset,
//! each one goes exactly on top of the placed buffers it overlaps in time. So
//! the search only chooses *which* buffer comes next, never where, and the
//! offsets it places at never decrease (the "level"). That gives:
//!
//! - spatial inference: an unplaced buffer's lowest possible offset is the
//!   level or the top of its placed neighbours, whichever is higher; if it
//!   does not fit under the capacity from there, backtrack;
//! - temporal inference: in each elementary time section, the free space is
//!   one range from the level or the section's highest placed top up to the
//!   capacity (placed buffers all start at or below the level), and the
//!   unplaced buffers live there must fit into it together;
//! - dominance: a buffer is only a candidate if it starts below the lowest
//!   possible *top* of every other unplaced buffer (otherwise that one could
//!   have gone first, entirely below it); identical buffers are placed in
//!   input order only; a buffer with no unplaced neighbour left is placed at
//!   once, since nothing else can interact with it.
//!
//! [`minimize`] wraps the decision search: it steps the capacity down from the
//! best arena found and tries to prove the best lower bound, under node limits
//! that grow round by round over the static tie-break orderings and, from the
//! second round on, as many with seeded noise (run side by side on threads,
//! the lowest ordering that answers wins, so the result depends on the seed,
//! never on timing).
//!
//! Corrections to the sketch above, as built: candidates rest where placed (on
//! a placed neighbour or 0, never floating above the level) and come after the
//! last choice in (offset, rank) order; a choice that raises nobody's lowest
//! offset is not followed by alternatives (MiniMalloc's "hatless" pruning);
//! and parts of the timeline no unplaced buffer crosses are solved apart.

mod problem;
mod search;

use std::time::Instant;

use super::super::buffers::Buffer;
use super::budget::Budget;
use super::improve::Found;
use super::overlaps::Overlaps;
use super::strategy::Strategy;
use problem::Problem;
use search::{Search, Status};

/// What the exact stage achieved.
pub(crate) struct Outcome {
    /// A plan better than the seed, if one was found.
    pub found: Option<Found>,
    /// The best lower bound proven (at least LOAD).
    pub lower_bound: u64,
}

/// The answer to "does it fit in this capacity?".
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    /// Offsets of the search's buffers.
    Fits(Vec<u64>),
    /// Proven not to fit.
    Infeasible,
    /// The node limit or the deadline came first.
    Unknown,
}

/// Runs one decision search on a thread with a stack deep enough for one
/// frame per buffer.
fn decide(p: &Problem, rank: &[u32], cap: u64, limit: u64, deadline: Instant) -> (Answer, u64) {
    let run = || {
        let mut s = Search::new(p, rank, cap, limit, deadline);
        if !s.start() {
            return (Answer::Infeasible, 1);
        }
        let a = match s.solve(0, p.sections as u32) {
            Status::Done => Answer::Fits(s.offset.clone()),
            Status::Infeasible => Answer::Infeasible,
            Status::Unknown => Answer::Unknown,
        };
        (a, s.nodes.max(1))
    };
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(scope, run)
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or((Answer::Unknown, 1))
    })
}

/// Work per search node: one pass over the buffers and the sections.
fn node_cost(p: &Problem) -> u64 {
    (p.n() + p.sections) as u64 + 1
}

/// Every ordering once at node limit `limit` on capacity `cap` (side by side
/// on threads when there are several), charged as if run one after another
/// up to the first that answers, so the budget left does not depend on the
/// number of threads.
fn probe(
    p: &Problem,
    ranks: &[Vec<u32>],
    cap: u64,
    limit: u64,
    budget: &mut Budget,
    threads: usize,
) -> Answer {
    let cost = node_cost(p);
    let runs: Vec<(Answer, u64)> = if threads > 1 {
        std::thread::scope(|scope| {
            let hs: Vec<_> = ranks
                .iter()
                .map(|rank| {
                    let deadline = budget.deadline();
                    scope.spawn(move || decide(p, rank, cap, limit, deadline))
                })
                .collect();
            hs.into_iter()
                .map(|h| h.join().unwrap_or((Answer::Unknown, 1)))
                .collect()
        })
    } else {
        let mut out = Vec::new();
        for rank in ranks {
            let r = decide(p, rank, cap, limit, budget.deadline());
            let done = r.0 != Answer::Unknown;
            out.push(r);
            if done {
                break;
            }
        }
        out
    };
    for (a, nodes) in runs {
        budget.charge(nodes.saturating_mul(cost));
        if a != Answer::Unknown {
            return a;
        }
    }
    Answer::Unknown
}

/// Steps the capacity down from `seed`'s arena; see the module docs.
///
/// Rounds of growing node limits: each round asks for a plan a step below
/// the best arena and for a proof at the lowest capacity not yet ruled out
/// (at LOAD that is also the optimum, when the instance packs perfectly). A
/// round that settles nothing doubles the limit, halves the step (a capacity
/// closer to the best arena is easier to reach) and draws fresh noisy
/// tie-breaks, so a restart does not repeat the search that got stuck; the
/// easy questions are asked cheaply first, as in MiniMalloc's progressive
/// limits. A plan found makes the next step bolder again.
pub(crate) fn minimize(
    bufs: &[Buffer],
    ov: &Overlaps,
    lb: u64,
    seed: &Found,
    budget: &mut Budget,
    threads: usize,
    rng_seed: u64,
) -> Outcome {
    let mut out = Outcome {
        found: None,
        lower_bound: lb,
    };
    let Some(p) = Problem::new(bufs, ov) else {
        return out;
    };
    let cost = node_cost(&p);
    let mut hi = seed.arena; // fits
    let mut lo = lb; // nothing below fits
                     // Enough for a few dives through every buffer, as MiniMalloc starts.
    let mut limit = (2 * p.n() as u64).max(1_000);
    // The step below `hi` asked for, as a fraction 1 / `div` of `hi - lo`.
    let mut div = 2u64;
    let mut round = 0u64;
    'rounds: while lo < hi && budget.spend(0) {
        let ranks = p.round_ranks(round, rng_seed);
        let down = hi - ((hi - lo) / div).max(1);
        let caps = if down > lo { vec![down, lo] } else { vec![lo] };
        for cap in caps {
            match probe(&p, &ranks, cap, limit, budget, threads) {
                Answer::Fits(local) => {
                    let mut offsets = vec![0u64; bufs.len()];
                    for (k, &i) in p.index.iter().enumerate() {
                        offsets[i] = local[k];
                    }
                    let arena = p
                        .index
                        .iter()
                        .map(|&i| offsets[i] + bufs[i].size)
                        .max()
                        .unwrap_or(0);
                    hi = arena;
                    // It fitted: the next step may be bolder again.
                    div = (div / 2).max(2);
                    out.found = Some(Found {
                        offsets,
                        arena,
                        how: Strategy::Exact { proven: false },
                    });
                    continue 'rounds;
                }
                Answer::Infeasible => {
                    lo = cap + 1;
                    out.lower_bound = lo;
                    continue 'rounds;
                }
                Answer::Unknown => {}
            }
            if !budget.spend(0) {
                break 'rounds;
            }
        }
        // A round that settled nothing: more nodes (never more per round
        // than what is left), a smaller step, other tie-breaks.
        round += 1;
        div = div.saturating_mul(2).min(1 << 20);
        let per_round = 2 * cost * ranks.len() as u64;
        limit = limit
            .saturating_mul(2)
            .min(budget.work() / per_round.max(1))
            .max(limit);
    }
    if let Some(f) = out.found.as_mut() {
        if lo >= hi {
            f.how = Strategy::Exact { proven: true };
        }
    }
    out
}
