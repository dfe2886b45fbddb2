//! Sweeps that leave fewer slivers, for instances too dense to hold their
//! overlap graph (on dense random graphs the plain sweep wastes 3-5 % over
//! LOAD, and neither greedy orders nor local moves won anything back).
//!
//! - **Aligned placement.** A buffer goes into the smallest gap that holds
//!   it, as in the sweep, but at the end of the gap beside the neighbour that
//!   lives longer: the sliver it leaves then lies beside the neighbour that
//!   ends sooner and joins the hole that one leaves, instead of staying
//!   boxed in.
//! - **Anchored at the peak.** The buffers live at the moment of peak load
//!   are stacked with no gap between them (exactly LOAD bytes, so the arena
//!   is optimal there), and two sweeps go out from that moment: forward over
//!   the buffers that start after it, backward in reversed time over those
//!   that end at or before it. The two sides share no moment; each meets the
//!   stack as buffers already placed, freed as they end (in reversed time, as
//!   they begin). The stack's order is the sides' starting layout: the
//!   buffers that end last lowest suits the forward side (it frees from the
//!   top down), the ones that began first lowest the backward side.
//!
//! A plain sweep wears the peak down with the fragments of everything before
//! it; the anchor moves that wear away from the moment that sets LOAD.

use std::collections::BTreeMap;

use super::super::buffers::Buffer;
use super::bound::peak_time;
use super::budget::Budget;
use super::gaps::Gaps;

/// Events between two readings of the clock.
const CLOCK_EVERY: usize = 4096;

pub(crate) use super::strategy::Stack;

/// The live set of a one-directional sweep: its gaps, which buffer sits at
/// each offset, and the end time of each buffer as this direction sees it.
#[derive(Clone)]
pub(crate) struct Side<'a> {
    bufs: &'a [Buffer],
    pub(crate) gaps: Gaps,
    at: BTreeMap<u64, usize>,
    reversed: bool,
}

impl<'a> Side<'a> {
    /// When buffer `j` ends in this direction's time (in reversed time the
    /// buffer that began first ends last).
    fn end(&self, j: usize) -> u64 {
        if self.reversed {
            u64::MAX - self.bufs[j].lower
        } else {
            self.bufs[j].upper
        }
    }

    pub(crate) fn new(bufs: &'a [Buffer], reversed: bool) -> Self {
        Side {
            bufs,
            gaps: Gaps::new(),
            at: BTreeMap::new(),
            reversed,
        }
    }

    pub(crate) fn size(&self, i: usize) -> u64 {
        self.bufs[i].size
    }

    pub(crate) fn occupy(&mut self, i: usize, at: u64) {
        self.gaps.occupy(at, self.bufs[i].size);
        self.at.insert(at, i);
    }

    pub(crate) fn free(&mut self, at: u64) {
        self.gaps.free(at);
        self.at.remove(&at);
    }

    /// The offset of buffer `i` by the aligned rule (see the module docs).
    pub(crate) fn place(&self, i: usize) -> u64 {
        let size = self.bufs[i].size;
        let Some((start, len)) = self.gaps.best(size) else {
            return self.gaps.top();
        };
        self.align(i, start, len)
    }

    /// Where in the gap `[start, start + len)` buffer `i` goes by the
    /// aligned rule.
    pub(crate) fn align(&self, i: usize, start: u64, len: u64) -> u64 {
        let size = self.bufs[i].size;
        if len == size {
            return start;
        }
        // A gap below the top has a buffer above it; the bottom of the
        // arena counts as a neighbour that never ends.
        let below = self.at.range(..start).next_back().map(|(_, &j)| j);
        let above = self.at.get(&(start + len)).copied();
        let end_below = below.map_or(u64::MAX, |j| self.end(j));
        let end_above = above.map_or(u64::MAX, |j| self.end(j));
        if end_above > end_below {
            start + len - size
        } else {
            start
        }
    }
}

/// Sweeps `part` (in reversed time when `reversed`) around `fixed`, which
/// are placed in `offsets` and live at the sweep's start; writes the
/// offsets of `part`. Returns its highest end, or `None` once `budget`'s
/// deadline has passed.
fn sweep_side(
    bufs: &[Buffer],
    fixed: &[usize],
    part: &[usize],
    reversed: bool,
    offsets: &mut [u64],
    budget: &mut Budget,
) -> Option<u64> {
    let ev = events(bufs, fixed, part, reversed);
    let mut side = Side::new(bufs, reversed);
    for &i in fixed {
        side.occupy(i, offsets[i]);
    }
    let mut arena = 0u64;
    for (k, &(_, start, i)) in ev.iter().enumerate() {
        if k.is_multiple_of(CLOCK_EVERY) && !budget.in_time() {
            return None;
        }
        if bufs[i].size == 0 {
            continue;
        }
        if !start {
            side.free(offsets[i]);
            continue;
        }
        let at = side.place(i);
        side.occupy(i, at);
        offsets[i] = at;
        arena = arena.max(at + bufs[i].size);
    }
    budget.spend(ev.len() as u64);
    Some(arena)
}

/// The events of a sweep of `part` around `fixed` (which only end), in
/// this direction's time: (time, whether it begins, buffer).
pub(crate) fn events(
    bufs: &[Buffer],
    fixed: &[usize],
    part: &[usize],
    reversed: bool,
) -> Vec<(u64, bool, usize)> {
    let m = bufs.iter().map(|b| b.upper).max().unwrap_or(0);
    let span = |i: usize| {
        let b = &bufs[i];
        if reversed {
            (m - b.upper, m - b.lower)
        } else {
            (b.lower, b.upper)
        }
    };
    let mut ev: Vec<(u64, bool, usize)> = Vec::with_capacity(fixed.len() + 2 * part.len());
    ev.extend(fixed.iter().map(|&i| (span(i).1, false, i)));
    for &i in part {
        let (l, u) = span(i);
        ev.push((l, true, i));
        ev.push((u, false, i));
    }
    // As in the plain sweep: ends first at equal times, larger first.
    ev.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then(bufs[b.2].size.cmp(&bufs[a.2].size))
            .then(a.2.cmp(&b.2))
    });
    ev
}

/// The sweep by start time with aligned placement. Returns offsets and
/// arena, or `None` once `budget`'s deadline has passed.
pub(crate) fn aligned(bufs: &[Buffer], budget: &mut Budget) -> Option<(Vec<u64>, u64)> {
    let all: Vec<usize> = (0..bufs.len()).filter(|&i| bufs[i].size > 0).collect();
    let mut offsets = vec![0u64; bufs.len()];
    let arena = sweep_side(bufs, &[], &all, false, &mut offsets, budget)?;
    Some((offsets, arena))
}

/// The live set at the moment of peak load stacked at exactly LOAD, and the
/// buffers of either side of it.
pub(crate) struct Anchor {
    /// The stack's offsets (0 elsewhere).
    pub(crate) offsets: Vec<u64>,
    /// The top of the stack: LOAD.
    pub(crate) top: u64,
    /// The buffers live at the peak.
    pub(crate) live: Vec<usize>,
    /// The buffers that begin after it, and those that end at or before it.
    pub(crate) after: Vec<usize>,
    pub(crate) before: Vec<usize>,
}

impl Anchor {
    pub(crate) fn new(bufs: &[Buffer], stack: Stack) -> Self {
        let t = peak_time(bufs);
        let sized = || (0..bufs.len()).filter(|&i| bufs[i].size > 0);
        let mut live: Vec<usize> = sized()
            .filter(|&i| bufs[i].lower <= t && t < bufs[i].upper)
            .collect();
        match stack {
            Stack::LastEndLowest => live.sort_by_key(|&i| (std::cmp::Reverse(bufs[i].upper), i)),
            Stack::FirstStartLowest => live.sort_by_key(|&i| (bufs[i].lower, i)),
        }
        let mut offsets = vec![0u64; bufs.len()];
        let mut top = 0u64;
        for &i in &live {
            offsets[i] = top;
            top += bufs[i].size;
        }
        let after = sized().filter(|&i| bufs[i].lower > t).collect();
        let before = sized().filter(|&i| bufs[i].upper <= t).collect();
        Anchor {
            offsets,
            top,
            live,
            after,
            before,
        }
    }
}

/// The live set at the peak stacked by `stack`, then aligned sweeps forward
/// and backward from it. Returns offsets and arena, or `None` once
/// `budget`'s deadline has passed.
pub(crate) fn at_peak(
    bufs: &[Buffer],
    stack: Stack,
    budget: &mut Budget,
) -> Option<(Vec<u64>, u64)> {
    let Anchor {
        mut offsets,
        top,
        live,
        after,
        before,
    } = Anchor::new(bufs, stack);
    let forward = sweep_side(bufs, &live, &after, false, &mut offsets, budget)?;
    let backward = sweep_side(bufs, &live, &before, true, &mut offsets, budget)?;
    Some((offsets, top.max(forward).max(backward)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::buffers::{load, verify};
    use crate::planner::generate::dense;
    use crate::planner::greedy::sweep;
    use crate::planner::placement::Placement;
    use std::time::{Duration, Instant};

    fn hour() -> Budget {
        Budget::new(u64::MAX, Instant::now() + Duration::from_secs(3600))
    }

    #[test]
    fn the_plans_are_valid_and_hold_the_peak_at_load() {
        for seed in 1..4 {
            let bufs = dense(3000, 30_000, seed);
            let (off, arena) = aligned(&bufs, &mut hour()).unwrap();
            verify(&bufs, &off, arena).unwrap();
            for stack in [Stack::LastEndLowest, Stack::FirstStartLowest] {
                let (off, arena) = at_peak(&bufs, stack, &mut hour()).unwrap();
                verify(&bufs, &off, arena).unwrap();
                // The live set at the peak sits in [0, LOAD).
                let t = peak_time(&bufs);
                let top = (0..bufs.len())
                    .filter(|&i| bufs[i].lower <= t && t < bufs[i].upper)
                    .map(|i| off[i] + bufs[i].size)
                    .max();
                assert_eq!(top, Some(load(&bufs)));
            }
        }
    }

    #[test]
    fn aligned_gaps_leave_less_than_the_plain_sweep_on_a_dense_graph() {
        // A measured property of the rule, not a bound: over 20,000 buffers
        // the plain sweep ends 5.3 % over LOAD, the aligned one 4.4 %, and
        // anchored at the peak 2.9 %.
        let bufs = dense(20_000, 200_000, 21);
        let plain = sweep(&bufs, Placement::BestGap, &mut hour()).1;
        let (_, al) = aligned(&bufs, &mut hour()).unwrap();
        let (_, anchored) = at_peak(&bufs, Stack::LastEndLowest, &mut hour()).unwrap();
        assert!(al < plain && anchored < al, "{plain} {al} {anchored}");
    }

    #[test]
    fn a_passed_deadline_stops_the_sweeps() {
        let bufs = dense(3000, 30_000, 5);
        let mut late = Budget::new(u64::MAX, Instant::now());
        assert!(aligned(&bufs, &mut late).is_none());
        assert!(at_peak(&bufs, Stack::LastEndLowest, &mut late).is_none());
        assert!(late.timed_out());
    }
}
