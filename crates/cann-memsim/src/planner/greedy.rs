//! Greedy placement: buffers one by one in a given order, each into a gap
//! between the time-overlapping buffers already placed (the TFLite / SOMAS
//! baseline), and the sweep over time for instances too dense for an
//! adjacency list.

use super::super::buffers::Buffer;
use super::budget::Budget;
use super::gaps::Gaps;
use super::overlaps::{Neighbours, Overlaps};
use super::placement::{choose_gap, Placement};
use super::strategy::Order;

/// Marks an offset not yet chosen.
pub(crate) const UNPLACED: u64 = u64::MAX;

/// One greedy pass over `order` (every buffer once). Returns offsets, arena
/// and the work done (neighbours looked at).
pub fn greedy(
    bufs: &[Buffer],
    overlaps: &Overlaps,
    order: &[usize],
    placement: Placement,
) -> (Vec<u64>, u64, u64) {
    let mut offsets = vec![UNPLACED; bufs.len()];
    let (arena, work) = place_all(bufs, overlaps, order, placement, &mut offsets);
    (offsets, arena, work)
}

/// [`greedy`] that reads `budget`'s clock every [`CLOCK_EVERY`] buffers and
/// gives up (`None`) once its deadline has passed: one pass over a graph of
/// millions of pairs takes the better part of a second, so a stage that
/// checked only between passes would overrun the time limit by that much.
/// The work is not spent here (the caller spends it, as for [`greedy`]).
pub(crate) fn greedy_within(
    bufs: &[Buffer],
    overlaps: &Overlaps,
    order: &[usize],
    placement: Placement,
    budget: &mut Budget,
) -> Option<(Vec<u64>, u64, u64)> {
    let mut offsets = vec![UNPLACED; bufs.len()];
    let mut placed = 0usize;
    let (arena, work) = place_some(bufs, overlaps, order, placement, &mut offsets, &mut || {
        placed += 1;
        !placed.is_multiple_of(CLOCK_EVERY) || budget.in_time()
    })?;
    Some((offsets, arena, work))
}

/// Buffers placed between two readings of the clock in [`greedy_within`].
pub(crate) const CLOCK_EVERY: usize = 256;

/// Places the buffers of `order` (all `UNPLACED` in `offsets`) around those
/// already placed. Returns the highest end among the newly placed, and work.
pub(crate) fn place_all(
    bufs: &[Buffer],
    overlaps: &impl Neighbours,
    order: &[usize],
    placement: Placement,
    offsets: &mut [u64],
) -> (u64, u64) {
    place_some(bufs, overlaps, order, placement, offsets, &mut || true).unwrap_or((0, 0))
}

/// [`place_all`], asking `go_on` before each buffer; `None` (with the
/// buffers before it placed) as soon as it says no.
pub(crate) fn place_some(
    bufs: &[Buffer],
    overlaps: &impl Neighbours,
    order: &[usize],
    placement: Placement,
    offsets: &mut [u64],
    go_on: &mut dyn FnMut() -> bool,
) -> Option<(u64, u64)> {
    let mut arena = 0u64;
    let mut work = 0u64;
    let mut clashes: Vec<(u64, u64)> = Vec::new();
    for &i in order {
        if !go_on() {
            return None;
        }
        clashes.clear();
        work += 1 + overlaps.each(bufs, i, |j| {
            let (o, sz) = (offsets[j], bufs[j].size);
            if o != UNPLACED && sz > 0 {
                clashes.push((o, o + sz));
            }
        });
        clashes.sort_unstable_by_key(|c| c.0);
        let size = bufs[i].size;
        let at = if size == 0 {
            0
        } else {
            choose_gap(&clashes, size, placement)
        };
        offsets[i] = at;
        arena = arena.max(at + size);
    }
    Some((arena, work))
}

/// Greedy in order of start time, for instances whose overlap graph is too
/// big to hold, and the first plan of every instance: a sweep keeps the live
/// buffers' gaps indexed ([`Gaps`]), and each new buffer goes into one of
/// them. Every buffer that overlaps a new one in time and is already placed
/// is live at its start, so this is exact; memory is linear and time
/// O(n log n), so it always runs to the end (the plan every later stage must
/// beat). Returns offsets, arena and work, which is charged to `budget`.
pub fn sweep(bufs: &[Buffer], placement: Placement, budget: &mut Budget) -> (Vec<u64>, u64, u64) {
    let mut ev: Vec<(u64, bool, usize)> = Vec::with_capacity(bufs.len() * 2);
    for (i, b) in bufs.iter().enumerate() {
        ev.push((b.lower, true, i));
        ev.push((b.upper, false, i));
    }
    // Ends first at equal times (half-open); larger buffers first among
    // starts at one time, as greedy by size would.
    ev.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then(bufs[b.2].size.cmp(&bufs[a.2].size))
            .then(a.2.cmp(&b.2))
    });
    let mut offsets = vec![0u64; bufs.len()];
    let mut gaps = Gaps::new();
    let mut arena = 0u64;
    for &(_, start, i) in &ev {
        let size = bufs[i].size;
        if size == 0 {
            continue;
        }
        if !start {
            gaps.free(offsets[i]);
            continue;
        }
        let at = gaps.choose(size, placement);
        gaps.occupy(at, size);
        offsets[i] = at;
        arena = arena.max(at + size);
    }
    let work = (ev.len() as u64).max(1);
    budget.spend(work);
    (offsets, arena, work)
}

/// Indices ordered by `key`, largest first; ties by start time, then index.
pub(crate) fn sorted_by(bufs: &[Buffer], key: impl Fn(&Buffer) -> f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bufs.len()).collect();
    order.sort_by(|&a, &b| {
        key(&bufs[b])
            .total_cmp(&key(&bufs[a]))
            .then(bufs[a].lower.cmp(&bufs[b].lower))
            .then(a.cmp(&b))
    });
    order
}

/// The fixed orderings every plan starts from, with their names.
pub(crate) fn fixed_orders(bufs: &[Buffer]) -> Vec<(Order, Vec<usize>)> {
    let len = |b: &Buffer| (b.upper - b.lower) as f64;
    vec![
        (Order::Size, sorted_by(bufs, |b| b.size as f64)),
        (Order::Area, sorted_by(bufs, |b| b.size as f64 * len(b))),
        (Order::Lifetime, sorted_by(bufs, len)),
    ]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_pass_stops_at_a_passed_deadline_and_agrees_otherwise() {
        let bufs = crate::planner::generate::dense(2000, 20_000, 4);
        let ov = Overlaps::new(&bufs, u64::MAX).unwrap();
        let order: Vec<usize> = (0..bufs.len()).collect();
        let mut late = Budget::new(u64::MAX, Instant::now());
        assert!(greedy_within(&bufs, &ov, &order, Placement::BestGap, &mut late).is_none());
        assert!(late.timed_out());
        let hour = || Budget::new(u64::MAX, Instant::now() + Duration::from_secs(3600));
        let within = greedy_within(&bufs, &ov, &order, Placement::FirstGap, &mut hour());
        assert_eq!(
            within,
            Some(greedy(&bufs, &ov, &order, Placement::FirstGap))
        );
    }
}
