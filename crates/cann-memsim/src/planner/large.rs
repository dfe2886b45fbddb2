//! Improvement where the overlap graph is too big to hold: independent
//! starts of peak re-placement ([`super::improve::refine`]) from the sweep's
//! plan, each with its own seed and an equal share of the budget, side by side
//! on the threads allowed, with the overlaps asked of an on-demand index
//! ([`Intervals`]). The best start wins, ties to the earlier, so the plan
//! depends on the seed and the work budget, not on the threads.

use std::time::Instant;

use super::super::buffers::Buffer;
use super::anchored::{self, Stack};
use super::backtrack;
use super::budget::{Budget, Rng};
use super::improve::{refine, top_and_count, Found};
use super::intervals::Intervals;
use super::strategy::{Gap, Strategy};

/// The sweeps tried before re-placing the peak, best first on dense random
/// graphs: anchored at the peak with either stack, then aligned (the floor
/// takes the smallest gap; the lowest gap, tried here before, always ended
/// 4-5 % above it, and on 100,000 buffers took seconds). Each reads the
/// clock; those the deadline cut are left out.
pub(crate) fn sweeps(bufs: &[Buffer], budget: &mut Budget) -> Vec<Found> {
    let mut out = Vec::new();
    for stack in [Stack::LastEndLowest, Stack::FirstStartLowest] {
        if let Some((offsets, arena)) = anchored::at_peak(bufs, stack, budget) {
            out.push(Found {
                offsets,
                arena,
                how: Strategy::FromPeak { stack },
            });
        }
    }
    if let Some((offsets, arena)) = anchored::aligned(bufs, budget) {
        out.push(Found {
            offsets,
            arena,
            how: Strategy::Sweep { gap: Gap::Aligned },
        });
    }
    out
}

/// The anchored sweeps backtracked ([`backtrack`]), one start per stack side
/// by side on the threads allowed, each until `until` (a start in a second
/// wave, with one thread, gets the second half of the time). Returns the
/// best plan (ties to the first stack).
pub(crate) fn backtracked(
    bufs: &[Buffer],
    until: Instant,
    stage: &mut Budget,
    threads: usize,
    seed: u64,
) -> Option<Found> {
    let stacks = [Stack::LastEndLowest, Stack::FirstStartLowest];
    let threads = threads.clamp(1, stacks.len());
    let waves = stacks.len().div_ceil(threads) as u32;
    let began = Instant::now();
    let span = until.saturating_duration_since(began);
    let per_work = stage.work() / stacks.len() as u64;
    let deadline = stage.deadline();
    let results = on_threads(stacks.len(), threads, |k| {
        let wave = (k / threads) as u32 + 1;
        let mut b = Budget::new(per_work, deadline);
        let stop = began + span * wave / waves;
        let seed = seed ^ (k as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03);
        let found = backtrack::at_peak(bufs, stacks[k], stop, seed, &mut b);
        let stopped = b.timed_out() || found.as_ref().is_some_and(|f| f.stopped);
        (found, per_work - b.work(), stopped)
    });
    let mut best: Option<Found> = None;
    for (k, r) in results.into_iter().enumerate() {
        let Some((found, spent, timed_out)) = r else {
            continue;
        };
        stage.charge(spent);
        if timed_out {
            stage.mark_timed_out();
        }
        let Some(f) = found else { continue };
        if best.as_ref().is_none_or(|b| f.arena < b.arena) {
            best = Some(Found {
                offsets: f.offsets,
                arena: f.arena,
                how: Strategy::Backtracked {
                    stack: stacks[k],
                    lowered: f.lowered,
                },
            });
        }
    }
    best
}

/// Starts run (each one a seed).
const STARTS: usize = 4;

/// Runs `run(k)` for `k` in `0..starts` on up to `threads` threads (start `k`
/// on thread `k % threads`); results in order of `k`. A start that panicked
/// (none can on valid input) yields `None`.
pub(crate) fn on_threads<R: Send>(
    starts: usize,
    threads: usize,
    run: impl Fn(usize) -> R + Sync,
) -> Vec<Option<R>> {
    let threads = threads.clamp(1, starts.max(1));
    if threads == 1 {
        return (0..starts).map(|k| Some(run(k))).collect();
    }
    let mut slots: Vec<Option<R>> = (0..starts).map(|_| None).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let run = &run;
                scope.spawn(move || {
                    (t..starts)
                        .step_by(threads)
                        .map(|k| (k, run(k)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (k, r) in h.join().unwrap_or_default() {
                slots[k] = Some(r);
            }
        }
    });
    slots
}

/// Re-places the peak of `from` in [`STARTS`] seeded starts within `stage`
/// (its work split evenly; each wave of starts on the threads gets an equal
/// slice of the time to `stage`'s deadline). Returns the best plan if it
/// beats `from`.
pub(crate) fn improve(
    bufs: &[Buffer],
    lb: u64,
    from: &Found,
    stage: &mut Budget,
    threads: usize,
    seed: u64,
) -> Option<Found> {
    if from.arena <= lb || !stage.in_time() {
        return None;
    }
    let index = Intervals::new(bufs);
    let threads = threads.clamp(1, STARTS);
    let waves = STARTS.div_ceil(threads) as u32;
    let began = Instant::now();
    let span = stage.deadline().saturating_duration_since(began);
    let per_work = stage.work() / STARTS as u64;
    let results = on_threads(STARTS, threads, |k| {
        let wave = (k / threads) as u32 + 1;
        let mut b = Budget::new(per_work, began + span * wave / waves);
        let mut rng = Rng::new(seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut offsets = from.offsets.clone();
        let lowered = refine(bufs, &index, lb, &mut offsets, &mut b, &mut rng);
        let (arena, _) = top_and_count(bufs, &offsets);
        (
            offsets,
            arena,
            lowered,
            k,
            per_work - b.work(),
            b.timed_out(),
        )
    });
    let mut best: Option<Found> = None;
    for (offsets, arena, lowered, k, spent, timed_out) in results.into_iter().flatten() {
        stage.charge(spent);
        if timed_out {
            stage.mark_timed_out();
        }
        let beats = arena < best.as_ref().map_or(from.arena, |b| b.arena);
        if beats {
            best = Some(Found {
                offsets,
                arena,
                how: Strategy::Refined {
                    from: Box::new(from.how.clone()),
                    lowered,
                    start: k + 1,
                },
            });
        }
    }
    best
}
