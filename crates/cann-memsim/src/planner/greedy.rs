//! Greedy placement: buffers one by one in a given order, each into a gap
//! between the time-overlapping buffers already placed (the TFLite / SOMAS
//! baseline), and the sweep over time for instances too dense for an
//! adjacency list.

use super::super::buffers::Buffer;
use super::budget::Budget;
use super::overlaps::Overlaps;

/// Where a buffer goes among the gaps that hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The smallest gap that fits (least waste).
    BestGap,
    /// The lowest gap that fits.
    FirstGap,
}

/// Marks an offset not yet chosen.
pub(crate) const UNPLACED: u64 = u64::MAX;

/// The offset for `size` bytes among `clashes` (occupied `[start, end)`
/// ranges, sorted by start, possibly overlapping one another): a gap chosen by
/// `placement`, else on top of them all.
pub(crate) fn choose_gap(clashes: &[(u64, u64)], size: u64, placement: Placement) -> u64 {
    let mut cursor = 0u64;
    let mut best: Option<(u64, u64)> = None; // (gap size, offset)
    for &(s, e) in clashes {
        if s > cursor && s - cursor >= size {
            let gap = s - cursor;
            match placement {
                Placement::FirstGap => return cursor,
                Placement::BestGap if best.is_none_or(|(g, _)| gap < g) => {
                    best = Some((gap, cursor))
                }
                Placement::BestGap => {}
            }
        }
        cursor = cursor.max(e);
    }
    best.map_or(cursor, |(_, o)| o)
}

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

/// Places the buffers of `order` (all `UNPLACED` in `offsets`) around those
/// already placed. Returns the highest end among the newly placed, and work.
pub(crate) fn place_all(
    bufs: &[Buffer],
    overlaps: &Overlaps,
    order: &[usize],
    placement: Placement,
    offsets: &mut [u64],
) -> (u64, u64) {
    let mut arena = 0u64;
    let mut work = 0u64;
    let mut clashes: Vec<(u64, u64)> = Vec::new();
    for &i in order {
        clashes.clear();
        let n = overlaps.of(i);
        work += n.len() as u64 + 1;
        for &j in n {
            let j = j as usize;
            let (o, sz) = (offsets[j], bufs[j].size);
            if o != UNPLACED && sz > 0 {
                clashes.push((o, o + sz));
            }
        }
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
    (arena, work)
}

/// Greedy in order of start time, for instances whose overlap graph is too
/// big to hold: a sweep keeps the live buffers ordered by offset, and each new
/// buffer goes into a gap among them. Every buffer that overlaps a new one in
/// time and is already placed is live at its start, so this is exact; memory
/// is linear. Should the deadline pass mid-sweep, the remaining buffers are
/// stacked on top of the arena (valid, if poor) so the bound holds. Returns
/// offsets, arena and work.
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
    // Live buffers as (offset, end, index), ordered by offset then index.
    let mut live: Vec<(u64, u64, usize)> = Vec::new();
    let (mut arena, mut work, mut chunk) = (0u64, 0u64, 0u64);
    let mut in_time = true;
    for (_, start, i) in ev {
        let size = bufs[i].size;
        if size == 0 {
            continue;
        }
        if !start {
            let key = (offsets[i], i);
            if let Ok(p) = live.binary_search_by(|e| (e.0, e.2).cmp(&key)) {
                live.remove(p);
            }
            continue;
        }
        let at = if in_time {
            chunk += live.len() as u64 + 1;
            if chunk > 1 << 20 {
                work += chunk;
                budget.spend(chunk);
                in_time = !budget.timed_out();
                chunk = 0;
            }
            gap_among(&live, size, placement)
        } else {
            arena
        };
        offsets[i] = at;
        arena = arena.max(at + size);
        let key = (at, i);
        let p = live.partition_point(|e| (e.0, e.2) < key);
        live.insert(p, (at, at + size, i));
    }
    budget.spend(chunk);
    (offsets, arena, (work + chunk).max(1))
}

/// [`choose_gap`] over the live set of the sweep, without copying it.
fn gap_among(live: &[(u64, u64, usize)], size: u64, placement: Placement) -> u64 {
    let mut cursor = 0u64;
    let mut best: Option<(u64, u64)> = None;
    for &(s, e, _) in live {
        if s > cursor && s - cursor >= size {
            let gap = s - cursor;
            match placement {
                Placement::FirstGap => return cursor,
                Placement::BestGap if best.is_none_or(|(g, _)| gap < g) => {
                    best = Some((gap, cursor))
                }
                Placement::BestGap => {}
            }
        }
        cursor = cursor.max(e);
    }
    best.map_or(cursor, |(_, o)| o)
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
pub(crate) fn fixed_orders(bufs: &[Buffer]) -> Vec<(&'static str, Vec<usize>)> {
    let len = |b: &Buffer| (b.upper - b.lower) as f64;
    vec![
        ("greedy by size", sorted_by(bufs, |b| b.size as f64)),
        (
            "greedy by area",
            sorted_by(bufs, |b| b.size as f64 * len(b)),
        ),
        ("greedy by lifetime", sorted_by(bufs, len)),
    ]
}
