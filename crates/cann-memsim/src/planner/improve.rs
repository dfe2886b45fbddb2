//! Improving a plan within a budget.
//!
//! - [`squeak`]: "squeaky wheel" restarts. The buffers that ended above a
//!   target between LOAD and the best arena get their priority raised (with a
//!   little seeded noise) and the greedy runs again from scratch.
//! - [`refine`]: re-placing only buffers on the peak. A buffer that reaches the
//!   arena's top and the neighbours above a random threshold are lifted out
//!   and put back, largest first, into gaps among everything else; the move is
//!   kept if the arena did not grow and fewer buffers touch the top, and
//!   undone otherwise. Each move costs only the moved buffers' neighbours plus
//!   one scan for the new top.

use super::super::buffers::Buffer;
use super::budget::{Budget, Rng};
use super::greedy::{greedy_within, place_some, UNPLACED};
use super::overlaps::{Neighbours, Overlaps};
use super::placement::Placement;
use super::strategy::{Order, Strategy};

/// Buffers re-placed between two readings of the clock in [`refine`].
const LIFTED_PER_CLOCK: usize = 64;

/// A plan found by a stage: offsets, arena, and how it was found.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub offsets: Vec<u64>,
    pub arena: u64,
    pub how: Strategy,
}

/// Squeaky wheel from one ordering; `None` if no round beat the first run.
pub(crate) fn squeak(
    bufs: &[Buffer],
    ov: &Overlaps,
    lb: u64,
    order: &[usize],
    budget: &mut Budget,
    rng: &mut Rng,
) -> (Option<Found>, u32) {
    let mut prio = vec![0f64; bufs.len()];
    for (rank, &i) in order.iter().enumerate() {
        prio[i] = (bufs.len() - rank) as f64;
    }
    let Some((mut last, mut best_arena, w)) =
        greedy_within(bufs, ov, order, Placement::BestGap, budget)
    else {
        return (None, 0);
    };
    let mut runs = 1;
    let mut best = None;
    let mut left = budget.spend(w);
    let mut round = 0u32;
    while left && best_arena > lb {
        round += 1;
        let target = lb as f64 + 0.5 * (best_arena - lb) as f64;
        for (i, b) in bufs.iter().enumerate() {
            let top = last[i].saturating_add(b.size) as f64;
            if top > target {
                prio[i] *= 1.0 + (top - target) / lb.max(1) as f64 + 0.3 * rng.next_f64();
            }
        }
        let order = sorted_by_prio(&prio, bufs);
        let rule = if round.is_multiple_of(2) {
            Placement::BestGap
        } else {
            Placement::FirstGap
        };
        let Some((offs, arena, w)) = greedy_within(bufs, ov, &order, rule, budget) else {
            break;
        };
        runs += 1;
        left = budget.spend(w);
        if arena < best_arena {
            best_arena = arena;
            best = Some(Found {
                offsets: offs.clone(),
                arena,
                how: Strategy::SqueakyWheel { round },
            });
        }
        last = offs;
    }
    (best, runs)
}

fn sorted_by_prio(prio: &[f64], bufs: &[Buffer]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bufs.len()).collect();
    order.sort_by(|&a, &b| {
        prio[b]
            .total_cmp(&prio[a])
            .then(bufs[a].lower.cmp(&bufs[b].lower))
            .then(a.cmp(&b))
    });
    order
}

/// The arena of `offsets` and how many buffers reach it.
pub(crate) fn top_and_count(bufs: &[Buffer], offsets: &[u64]) -> (u64, usize) {
    let mut top = 0u64;
    let mut count = 0usize;
    for (b, &o) in bufs.iter().zip(offsets) {
        if b.size == 0 {
            continue;
        }
        let t = o + b.size;
        if t > top {
            top = t;
            count = 1;
        } else if t == top {
            count += 1;
        }
    }
    (top, count)
}

/// Re-places buffers on the peak of `offsets` until the budget ends or the
/// arena reaches `lb`. Returns the number of moves kept that lowered the arena.
pub(crate) fn refine(
    bufs: &[Buffer],
    ov: &impl Neighbours,
    lb: u64,
    offsets: &mut [u64],
    budget: &mut Budget,
    rng: &mut Rng,
) -> u32 {
    let (mut arena, mut count) = top_and_count(bufs, offsets);
    let mut lowered = 0u32;
    let mut on_top: Vec<usize> = Vec::new();
    let mut lifted: Vec<usize> = Vec::new();
    let mut saved: Vec<u64> = Vec::new();
    let n = bufs.len() as u64;
    while arena > lb {
        on_top.clear();
        on_top.extend(
            (0..bufs.len()).filter(|&i| bufs[i].size > 0 && offsets[i] + bufs[i].size == arena),
        );
        let Some(&p) = on_top.get(rng.below(on_top.len() as u64) as usize) else {
            break;
        };
        // How deep to dig: mostly shallow, sometimes down to half the arena.
        let depth = (arena as f64 * (0.005 + 0.5 * rng.next_f64().powi(3))) as u64;
        let threshold = arena.saturating_sub(depth.max(1));
        let keep_prob = 0.5 + 0.5 * rng.next_f64();
        lifted.clear();
        lifted.push(p);
        let mut work = ov.each(bufs, p, |j| {
            let b = &bufs[j];
            if b.size > 0 && offsets[j] + b.size > threshold && rng.next_f64() < keep_prob {
                lifted.push(j);
            }
        });
        // Largest first with noise; now and then in random order.
        if rng.below(4) == 0 {
            for k in (1..lifted.len()).rev() {
                lifted.swap(k, rng.below(k as u64 + 1) as usize);
            }
        } else {
            let noise: Vec<f64> = lifted.iter().map(|_| 1.0 + 0.2 * rng.next_f64()).collect();
            let mut keyed: Vec<(f64, usize)> = lifted
                .iter()
                .zip(&noise)
                .map(|(&i, &z)| (bufs[i].size as f64 * z, i))
                .collect();
            keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            lifted.clear();
            lifted.extend(keyed.iter().map(|k| k.1));
        }
        saved.clear();
        for &i in &lifted {
            saved.push(offsets[i]);
            offsets[i] = UNPLACED;
        }
        let rule = if rng.below(2) == 0 {
            Placement::BestGap
        } else {
            Placement::FirstGap
        };
        // On a dense graph one re-placement can lift thousands of buffers
        // with thousands of neighbours each: the clock is read as it goes,
        // and a move the deadline cuts is undone.
        let mut placed = 0usize;
        let Some((_, w)) = place_some(bufs, ov, &lifted, rule, offsets, &mut || {
            placed += 1;
            !placed.is_multiple_of(LIFTED_PER_CLOCK) || budget.in_time()
        }) else {
            for (&i, &o) in lifted.iter().zip(&saved) {
                offsets[i] = o;
            }
            break;
        };
        work += w;
        let (new_arena, new_count) = top_and_count(bufs, offsets);
        if (new_arena, new_count) <= (arena, count) {
            if new_arena < arena {
                lowered += 1;
            }
            (arena, count) = (new_arena, new_count);
        } else {
            for (&i, &o) in lifted.iter().zip(&saved) {
                offsets[i] = o;
            }
        }
        if !budget.spend(work + n) {
            break;
        }
    }
    lowered
}

/// What one start returns: its plan, greedy runs, work spent, and whether
/// its time slice cut it short.
type StartResult = (Option<Found>, u32, u64, bool);

/// Independent starts of the improvement stage: squeaky-wheel rounds from
/// one of the fixed orderings, then re-placing the peak of the best plan so
/// far. Each start has its own seed and an equal share of the work, so the
/// result does not depend on how many threads run them; ties go to the
/// earlier start.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_starts(
    bufs: &[Buffer],
    ov: &Overlaps,
    lb: u64,
    fixed: &[(Order, Vec<usize>)],
    seed_plan: Option<Found>,
    stage: &mut Budget,
    until: std::time::Instant,
    opts: super::PlanOptions,
) -> (Option<Found>, u32) {
    const STARTS: usize = 4;
    let threads = opts.threads.clamp(1, STARTS);
    let waves = STARTS.div_ceil(threads) as u32;
    let began = std::time::Instant::now();
    let span = until.saturating_duration_since(began);
    let per_work = stage.work() / STARTS as u64;
    let seed_plan = seed_plan.as_ref();
    let run_one = |k: usize| -> StartResult {
        // Sequential starts on a thread each get their slice of the time.
        let wave = (k / threads) as u32 + 1;
        let mut b = Budget::new(per_work, began + span * wave / waves);
        let mut rng = Rng::new(opts.seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let order = &fixed[k % fixed.len()].1;
        let mut sq = b.share(1, 3);
        let sq_work = sq.work();
        let (found, runs) = squeak(bufs, ov, lb, order, &mut sq, &mut rng);
        b.charge(sq_work - sq.work());
        let mut cur = match (found, seed_plan) {
            (Some(f), Some(s)) if s.arena < f.arena => s.clone(),
            (Some(f), _) => f,
            (None, Some(s)) => s.clone(),
            (None, None) => return (None, runs, per_work - b.work(), sq.timed_out()),
        };
        let before = cur.arena;
        let lowered = refine(bufs, ov, lb, &mut cur.offsets, &mut b, &mut rng);
        let (arena, _) = top_and_count(bufs, &cur.offsets);
        cur.arena = arena;
        if arena < before {
            cur.how = Strategy::Refined {
                from: Box::new(cur.how),
                lowered,
                start: k + 1,
            };
        }
        let timed_out = sq.timed_out() || b.timed_out();
        (Some(cur), runs, per_work - b.work(), timed_out)
    };
    let results: Vec<StartResult> = if threads == 1 {
        (0..STARTS).map(run_one).collect()
    } else {
        let mut slots: Vec<Option<StartResult>> = vec![None; STARTS];
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let run_one = &run_one;
                    scope.spawn(move || {
                        (t..STARTS)
                            .step_by(threads)
                            .map(|k| (k, run_one(k)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                // A start that panicked (it cannot on valid input) offers nothing.
                for (k, r) in h.join().unwrap_or_default() {
                    slots[k] = Some(r);
                }
            }
        });
        slots.into_iter().flatten().collect()
    };
    let mut best: Option<Found> = None;
    let mut runs = 0;
    let mut spent = 0;
    let mut timed_out = false;
    for (f, r, w, t) in results {
        runs += r;
        spent += w;
        timed_out |= t;
        if let Some(f) = f {
            if best.as_ref().is_none_or(|b| f.arena < b.arena) {
                best = Some(f);
            }
        }
    }
    stage.charge(spent);
    if timed_out {
        stage.mark_timed_out();
    }
    (best, runs)
}
