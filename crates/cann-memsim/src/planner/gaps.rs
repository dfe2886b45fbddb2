//! The live set of the sweep ([`super::greedy::sweep`]) with its gaps
//! indexed: buffers live at one moment never share a byte, so the live set
//! is disjoint ranges, and the free space between them is a set of gaps kept
//! ordered by size. Choosing a gap, placing and freeing are O(log n) each, so
//! the sweep is O(n log n) however many buffers are live at once (a linear
//! scan of the live set made a dense 100,000-buffer sweep take seconds).

use std::collections::{BTreeMap, BTreeSet};

use super::placement::Placement;

/// Disjoint occupied ranges and the gaps between them.
#[derive(Debug, Default, Clone)]
pub(crate) struct Gaps {
    /// Offset -> end of each occupied range.
    used: BTreeMap<u64, u64>,
    /// (length, start) of each gap below the highest range.
    by_len: BTreeSet<(u64, u64)>,
    /// start -> length of the same gaps, for the lowest fitting one.
    by_start: BTreeMap<u64, u64>,
}

impl Gaps {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Where `size` bytes go: the smallest gap that holds them (ties: the
    /// lowest), or the lowest that does, else on top of every range: the
    /// same choice as [`super::placement::choose_gap`] over the live ranges.
    pub(crate) fn choose(&self, size: u64, placement: Placement) -> u64 {
        let found = match placement {
            Placement::BestGap => self.best(size).map(|(s, _)| s),
            Placement::FirstGap => self
                .by_start
                .iter()
                .find(|&(_, &len)| len >= size)
                .map(|(&s, _)| s),
        };
        found.unwrap_or_else(|| self.top())
    }

    /// (start, length) of the smallest gap that holds `size` bytes (ties:
    /// the lowest), if any below the top.
    pub(crate) fn best(&self, size: u64) -> Option<(u64, u64)> {
        self.by_len.range((size, 0)..).next().map(|&(l, s)| (s, l))
    }

    /// The gaps that hold `size` bytes, smallest first (ties: the lowest),
    /// as (start, length).
    pub(crate) fn fitting(&self, size: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.by_len.range((size, 0)..).map(|&(l, s)| (s, l))
    }

    /// The highest end of any range (0 when empty).
    pub(crate) fn top(&self) -> u64 {
        self.used.last_key_value().map_or(0, |(_, &e)| e)
    }

    fn add_gap(&mut self, start: u64, end: u64) {
        if end > start {
            self.by_len.insert((end - start, start));
            self.by_start.insert(start, end - start);
        }
    }

    fn remove_gap(&mut self, start: u64) -> Option<u64> {
        let len = self.by_start.remove(&start)?;
        self.by_len.remove(&(len, start));
        Some(start + len)
    }

    /// Occupies `[at, at + size)`, which must be free (a chosen offset).
    pub(crate) fn occupy(&mut self, at: u64, size: u64) {
        let end = at + size;
        // The gap holding `at`, if it is below the top.
        if let Some((&s, &len)) = self.by_start.range(..=at).next_back() {
            if s + len >= end && s <= at {
                self.remove_gap(s);
                self.add_gap(s, at);
                self.add_gap(end, s + len);
                self.used.insert(at, end);
                return;
            }
        }
        // On top: the space between the old top and `at` becomes a gap.
        let top = self.top();
        self.add_gap(top, at);
        self.used.insert(at, end);
    }

    /// Frees the range starting at `at`.
    pub(crate) fn free(&mut self, at: u64) {
        let Some(end) = self.used.remove(&at) else {
            return;
        };
        let below = self.used.range(..at).next_back().map_or(0, |(_, &e)| e);
        let above = self.used.range(at..).next().map(|(&s, _)| s);
        self.remove_gap(below);
        self.remove_gap(end);
        // With nothing above, the freed space joins the open top.
        if let Some(next) = above {
            self.add_gap(below, next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::placement::choose_gap;

    #[test]
    fn same_choices_as_a_linear_scan() {
        let mut rng = crate::planner::budget::Rng::new(7);
        let mut gaps = Gaps::new();
        let mut live: Vec<(u64, u64)> = Vec::new();
        for _ in 0..5000 {
            if !live.is_empty() && rng.below(3) == 0 {
                let k = rng.below(live.len() as u64) as usize;
                let (s, _) = live.swap_remove(k);
                gaps.free(s);
                continue;
            }
            let size = 1 + rng.below(100);
            live.sort_unstable();
            for rule in [Placement::BestGap, Placement::FirstGap] {
                assert_eq!(gaps.choose(size, rule), choose_gap(&live, size, rule));
            }
            let at = gaps.choose(size, Placement::BestGap);
            gaps.occupy(at, size);
            live.push((at, at + size));
        }
    }
}
