//! Which buffers overlap a given one in time, for instances whose overlap
//! graph is too big to hold ([`super::overlaps::MAX_PAIRS`]): answered on
//! demand, in time proportional to the answer, from O(n log n) memory.
//!
//! The buffers overlapping `[a, b)` are those live at `a` (a stabbing query
//! on a segment tree over the distinct start times, each buffer stored at the
//! O(log n) nodes covering its lifetime) and those starting inside `(a, b)`
//! (a range of the buffers sorted by start).

use super::super::buffers::Buffer;
use super::overlaps::Neighbours;

/// The on-demand overlap index.
pub(crate) struct Intervals {
    /// Distinct start times, ascending.
    times: Vec<u64>,
    /// Leaves of the segment tree (a power of two at least `times.len()`).
    leaves: usize,
    /// Per tree node, the buffers stored there (compressed rows).
    node_start: Vec<u32>,
    node_items: Vec<u32>,
    /// Buffers ordered by start time, and their starts.
    by_start: Vec<u32>,
    starts: Vec<u64>,
}

impl Intervals {
    /// The index of `bufs` (fewer than 2^32 buffers; callers plan far fewer).
    pub(crate) fn new(bufs: &[Buffer]) -> Self {
        let mut times: Vec<u64> = bufs.iter().map(|b| b.lower).collect();
        times.sort_unstable();
        times.dedup();
        let leaves = times.len().next_power_of_two().max(1);
        // The leaf range [lo, hi) of start times a buffer is live at.
        let span = |b: &Buffer| {
            let lo = times.partition_point(|&t| t < b.lower);
            let hi = times.partition_point(|&t| t < b.upper);
            (lo, hi)
        };
        // Canonical nodes of a leaf range, bottom-up.
        let nodes = |lo: usize, hi: usize, f: &mut dyn FnMut(usize)| {
            let (mut l, mut r) = (lo + leaves, hi + leaves);
            while l < r {
                if l & 1 == 1 {
                    f(l);
                    l += 1;
                }
                if r & 1 == 1 {
                    r -= 1;
                    f(r);
                }
                l /= 2;
                r /= 2;
            }
        };
        let mut count = vec![0u32; 2 * leaves + 1];
        for b in bufs {
            let (lo, hi) = span(b);
            nodes(lo, hi, &mut |n| count[n + 1] += 1);
        }
        for k in 1..count.len() {
            count[k] += count[k - 1];
        }
        let node_start = count.clone();
        let mut fill = count;
        let mut node_items = vec![0u32; node_start.last().copied().unwrap_or(0) as usize];
        for (i, b) in bufs.iter().enumerate() {
            let (lo, hi) = span(b);
            nodes(lo, hi, &mut |n| {
                node_items[fill[n] as usize] = i as u32;
                fill[n] += 1;
            });
        }
        let mut by_start: Vec<u32> = (0..bufs.len() as u32).collect();
        by_start.sort_unstable_by_key(|&i| (bufs[i as usize].lower, i));
        let starts = by_start.iter().map(|&i| bufs[i as usize].lower).collect();
        Self {
            times,
            leaves,
            node_start,
            node_items,
            by_start,
            starts,
        }
    }
}

impl Neighbours for Intervals {
    fn each(&self, bufs: &[Buffer], i: usize, mut f: impl FnMut(usize)) -> u64 {
        let Some(b) = bufs.get(i) else { return 0 };
        let mut seen = 0u64;
        // Live at b.lower (b.lower is one of the times, so the leaf exists).
        let leaf = self.times.partition_point(|&t| t < b.lower);
        let mut n = leaf + self.leaves;
        while n >= 1 {
            let (s, e) = (self.node_start[n] as usize, self.node_start[n + 1] as usize);
            for &j in &self.node_items[s..e] {
                let j = j as usize;
                if j != i {
                    f(j);
                    seen += 1;
                }
            }
            n /= 2;
        }
        // Starting inside (b.lower, b.upper).
        let from = self.starts.partition_point(|&t| t <= b.lower);
        let to = self.starts.partition_point(|&t| t < b.upper);
        for &j in &self.by_start[from..to] {
            f(j as usize);
            seen += 1;
        }
        seen
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::planner::overlaps::Overlaps;

    #[test]
    fn the_same_neighbours_as_the_overlap_graph() {
        let bufs = crate::planner::generate::dense(600, 2_000, 3);
        let ov = Overlaps::new(&bufs, u64::MAX).unwrap();
        let ix = Intervals::new(&bufs);
        for i in 0..bufs.len() {
            let mut a: Vec<usize> = ov.of(i).iter().map(|&j| j as usize).collect();
            let mut b = Vec::new();
            ix.each(&bufs, i, |j| b.push(j));
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "buffer {i}");
        }
    }
}
