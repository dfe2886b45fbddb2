//! Which buffers overlap in time, as a compressed adjacency list built once
//! per instance by a sweep (O(n log n + pairs)): every greedy run and every
//! re-placement then looks only at a buffer's own neighbours.

use super::super::buffers::Buffer;
use super::budget::Budget;

/// Who overlaps whom in time, however it is known: the stored graph
/// ([`Overlaps`]) or an index asked on demand
/// ([`super::intervals::Intervals`]).
pub(crate) trait Neighbours {
    /// Calls `f` with every buffer that overlaps buffer `i` in time; returns
    /// how many (the work done).
    fn each(&self, bufs: &[Buffer], i: usize, f: impl FnMut(usize)) -> u64;
}

impl Neighbours for Overlaps {
    fn each(&self, _bufs: &[Buffer], i: usize, mut f: impl FnMut(usize)) -> u64 {
        let n = self.of(i);
        for &j in n {
            f(j as usize);
        }
        n.len() as u64
    }
}

/// The time-overlap graph of a buffer list.
pub struct Overlaps {
    start: Vec<usize>,
    adj: Vec<u32>,
}

/// What building the overlap graph within a deadline gave.
pub(crate) enum Graph {
    /// The graph.
    Built(Overlaps),
    /// More pairs than allowed (or more buffers than a `u32` counts).
    TooDense,
    /// The deadline passed first.
    OutOfTime,
}

/// Events of the build between two readings of the clock.
const CLOCK_EVERY: usize = 4096;

/// Most overlapping pairs kept (8 bytes each): beyond this the planner uses
/// the sweep ([`super::greedy::sweep`]), whose memory is linear in the buffers.
pub const MAX_PAIRS: u64 = 16_000_000;

impl Overlaps {
    /// The adjacency of `bufs`, or `None` when it would have more than
    /// `max_pairs` pairs.
    pub fn new(bufs: &[Buffer], max_pairs: u64) -> Option<Self> {
        match Self::build(bufs, max_pairs, &mut || true) {
            Graph::Built(g) => Some(g),
            Graph::TooDense | Graph::OutOfTime => None,
        }
    }

    /// [`Overlaps::new`] reading `budget`'s clock every [`CLOCK_EVERY`]
    /// events of each of its two sweeps: building millions of pairs takes
    /// the better part of a second, and a planner that did not look at the
    /// clock meanwhile overran its time limit by that much.
    pub(crate) fn within(bufs: &[Buffer], max_pairs: u64, budget: &mut Budget) -> Graph {
        let mut seen = 0usize;
        Self::build(bufs, max_pairs, &mut || {
            seen += 1;
            !seen.is_multiple_of(CLOCK_EVERY) || budget.in_time()
        })
    }

    /// The two sweeps, asking `go_on` before each event.
    fn build(bufs: &[Buffer], max_pairs: u64, go_on: &mut dyn FnMut() -> bool) -> Graph {
        let mut ev: Vec<(u64, bool, u32)> = Vec::with_capacity(bufs.len() * 2);
        for (i, b) in bufs.iter().enumerate().filter(|(_, b)| b.upper > b.lower) {
            let Ok(i) = u32::try_from(i) else {
                return Graph::TooDense;
            };
            ev.push((b.lower, true, i));
            ev.push((b.upper, false, i));
        }
        // Ends sort before starts at equal times: lifetimes are half-open.
        ev.sort_unstable();
        let mut deg = vec![0usize; bufs.len()];
        let mut live: Vec<u32> = Vec::new();
        let mut pos = vec![usize::MAX; bufs.len()];
        let mut pairs = 0u64;
        // The first sweep counts and the second fills: no per-buffer vectors.
        for fill in [false, true] {
            let mut start = Vec::new();
            if fill {
                start.reserve(bufs.len() + 1);
                let mut acc = 0usize;
                for d in &deg {
                    start.push(acc);
                    acc += d;
                }
                start.push(acc);
            }
            let total = if fill {
                start.last().copied().unwrap_or(0)
            } else {
                0
            };
            let mut adj = vec![0u32; total];
            let mut cur = start.clone();
            live.clear();
            for &(_, is_start, i) in &ev {
                if !go_on() {
                    return Graph::OutOfTime;
                }
                let iu = i as usize;
                if is_start {
                    if fill {
                        for &j in &live {
                            adj[cur[iu]] = j;
                            cur[iu] += 1;
                            adj[cur[j as usize]] = i;
                            cur[j as usize] += 1;
                        }
                    } else {
                        pairs += live.len() as u64;
                        if pairs > max_pairs {
                            return Graph::TooDense;
                        }
                        deg[iu] += live.len();
                        for &j in &live {
                            deg[j as usize] += 1;
                        }
                    }
                    pos[iu] = live.len();
                    live.push(i);
                } else {
                    let p = pos[iu];
                    live.swap_remove(p);
                    if let Some(&moved) = live.get(p) {
                        pos[moved as usize] = p;
                    }
                }
            }
            if fill {
                return Graph::Built(Self { start, adj });
            }
        }
        Graph::TooDense
    }

    /// The buffers that overlap buffer `i` in time.
    pub fn of(&self, i: usize) -> &[u32] {
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => self.adj.get(a..b).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Overlapping pairs.
    pub fn pairs(&self) -> usize {
        self.adj.len() / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_build_stops_at_a_passed_deadline() {
        let bufs = crate::planner::generate::dense(5000, 50_000, 3);
        let mut late = Budget::new(u64::MAX, Instant::now());
        assert!(matches!(
            Overlaps::within(&bufs, MAX_PAIRS, &mut late),
            Graph::OutOfTime
        ));
        assert!(late.timed_out());
        let mut ample = Budget::new(u64::MAX, Instant::now() + Duration::from_secs(3600));
        let Graph::Built(g) = Overlaps::within(&bufs, MAX_PAIRS, &mut ample) else {
            panic!("no graph with an hour to build it");
        };
        assert_eq!(
            Some(g.pairs()),
            Overlaps::new(&bufs, MAX_PAIRS).map(|g| g.pairs())
        );
        assert!(matches!(
            Overlaps::within(&bufs, 10, &mut ample),
            Graph::TooDense
        ));
    }
}
