//! A set of disjoint half-open byte ranges.
//!
//! Backends use it to know which parts of a reservation are committed: the real
//! backend must never write to a `PROT_NONE` page (that would fault), and the
//! counting backend must not count a page twice when a caller commits a range
//! that is already partly committed.

use std::collections::BTreeMap;

/// Disjoint, non-adjacent half-open ranges keyed by start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IntervalSet {
    /// start -> end; adjacent ranges are merged on insert so lookups stay cheap.
    ranges: BTreeMap<u64, u64>,
    total: u64,
}

impl IntervalSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Total bytes covered.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether nothing is covered.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Iterates the ranges in address order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ranges.iter().map(|(&s, &e)| (s, e))
    }

    /// Adds `[start, end)`; returns how many bytes were not covered before.
    pub fn insert(&mut self, start: u64, end: u64) -> u64 {
        if start >= end {
            return 0;
        }
        let mut new_start = start;
        let mut new_end = end;
        let mut already = 0;
        // Collect every range that overlaps or touches [start, end).
        let first = self
            .ranges
            .range(..=start)
            .next_back()
            .filter(|(_, &e)| e >= start)
            .map(|(&s, _)| s)
            .unwrap_or(start);
        let touched: Vec<(u64, u64)> = self
            .ranges
            .range(first..=end)
            .map(|(&s, &e)| (s, e))
            .collect();
        for (s, e) in touched {
            self.ranges.remove(&s);
            already += e.min(end).saturating_sub(s.max(start));
            new_start = new_start.min(s);
            new_end = new_end.max(e);
            self.total -= e - s;
        }
        self.ranges.insert(new_start, new_end);
        self.total += new_end - new_start;
        (end - start) - already
    }

    /// Removes `[start, end)`; returns how many bytes were covered.
    pub fn remove(&mut self, start: u64, end: u64) -> u64 {
        if start >= end {
            return 0;
        }
        let first = self
            .ranges
            .range(..start)
            .next_back()
            .filter(|(_, &e)| e > start)
            .map(|(&s, _)| s)
            .unwrap_or(start);
        let hit: Vec<(u64, u64)> = self
            .ranges
            .range(first..end)
            .map(|(&s, &e)| (s, e))
            .collect();
        let mut removed = 0;
        for (s, e) in hit {
            self.ranges.remove(&s);
            self.total -= e - s;
            removed += e.min(end) - s.max(start);
            if s < start {
                self.ranges.insert(s, start);
                self.total += start - s;
            }
            if e > end {
                self.ranges.insert(end, e);
                self.total += e - end;
            }
        }
        removed
    }

    /// Whether all of `[start, end)` is covered.
    pub fn contains(&self, start: u64, end: u64) -> bool {
        if start >= end {
            return true;
        }
        self.ranges
            .range(..=start)
            .next_back()
            .is_some_and(|(_, &e)| e >= end)
    }
}

#[cfg(test)]
mod tests {
    use super::IntervalSet;

    #[test]
    fn insert_merges_and_counts_new_bytes() {
        let mut s = IntervalSet::new();
        assert_eq!(s.insert(0, 10), 10);
        assert_eq!(s.insert(20, 30), 10);
        assert_eq!(s.insert(5, 25), 10);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![(0, 30)]);
        assert_eq!(s.insert(30, 40), 10);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![(0, 40)]);
        assert_eq!(s.total(), 40);
    }

    #[test]
    fn remove_splits() {
        let mut s = IntervalSet::new();
        s.insert(0, 100);
        assert_eq!(s.remove(10, 20), 10);
        assert_eq!(s.remove(15, 30), 10);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![(0, 10), (30, 100)]);
        assert!(s.contains(30, 100));
        assert!(!s.contains(5, 31));
        assert_eq!(s.total(), 80);
        assert_eq!(s.remove(0, 200), 80);
        assert!(s.is_empty());
    }
}
