//! Which buffers overlap in time, as a compressed adjacency list built once
//! per instance by a sweep (O(n log n + pairs)): every greedy run and every
//! re-placement then looks only at a buffer's own neighbours.

use super::super::buffers::Buffer;

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

/// Most overlapping pairs kept (8 bytes each): beyond this the planner uses
/// the sweep ([`super::greedy::sweep`]), whose memory is linear in the buffers.
pub const MAX_PAIRS: u64 = 16_000_000;

impl Overlaps {
    /// The adjacency of `bufs`, or `None` when it would have more than
    /// `max_pairs` pairs.
    pub fn new(bufs: &[Buffer], max_pairs: u64) -> Option<Self> {
        let mut ev: Vec<(u64, bool, u32)> = Vec::with_capacity(bufs.len() * 2);
        for (i, b) in bufs.iter().enumerate().filter(|(_, b)| b.upper > b.lower) {
            let i = u32::try_from(i).ok()?;
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
                            return None;
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
                return Some(Self { start, adj });
            }
        }
        None
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
