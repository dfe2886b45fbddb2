//! The instance as the exact search sees it.

use super::super::super::buffers::Buffer;
use super::super::budget::Rng;
use super::super::overlaps::Overlaps;

/// The static tie-break orderings, as MiniMalloc names its preorderings:
/// T = the largest section total a buffer lives through, A = area (size x
/// lifetime), W = lifetime; all descending.
const ORDERINGS: [[Key; 3]; 3] = [
    [Key::Total, Key::Area, Key::Width],
    [Key::Width, Key::Area, Key::Total],
    [Key::Total, Key::Width, Key::Area],
];

#[derive(Clone, Copy)]
enum Key {
    Total,
    Area,
    Width,
}

/// The instance as the search sees it: buffers of non-zero size only,
/// lifetimes as ranges of elementary sections.
pub(super) struct Problem {
    /// Index of each search buffer in the caller's list.
    pub(super) index: Vec<usize>,
    pub(super) size: Vec<u64>,
    /// Sections `lo..hi` each buffer lives through.
    pub(super) lo: Vec<u32>,
    pub(super) hi: Vec<u32>,
    /// Neighbours (time overlap) in search indices, CSR.
    pub(super) adj_start: Vec<usize>,
    pub(super) adj: Vec<u32>,
    /// The earlier buffer with the same lifetime and size, if any.
    pub(super) twin: Vec<u32>,
    pub(super) sections: usize,
    /// Per ordering, each buffer's rank (lower goes first among equals).
    pub(super) ranks: Vec<Vec<u32>>,
    /// Each buffer's T, A and W values, for orderings made later.
    keys: Vec<[f64; 3]>,
}

/// Each buffer's rank under `ORDERINGS[ord]`, its keys scaled by seeded
/// noise of up to ±`NOISE` when `noise` gives a seed: near-ties then break
/// differently from one restart to the next, which is what the restarts
/// need (a depth-first search that is stuck under one tie-break often is not
/// under another).
fn rank_by(keys: &[[f64; 3]], ord: usize, noise: Option<u64>) -> Vec<u32> {
    const NOISE: f64 = 0.15;
    let mut rng = noise.map(Rng::new);
    let keyed: Vec<[f64; 3]> = keys
        .iter()
        .map(|k| match rng.as_mut() {
            Some(r) => k.map(|v| v * (1.0 + NOISE * (2.0 * r.next_f64() - 1.0))),
            None => *k,
        })
        .collect();
    let get = |k: usize, key: Key| match key {
        Key::Total => keyed[k][0],
        Key::Area => keyed[k][1],
        Key::Width => keyed[k][2],
    };
    let spec = ORDERINGS[ord % ORDERINGS.len()];
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| {
        spec.iter()
            .map(|&key| get(b, key).total_cmp(&get(a, key)))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut rank = vec![0u32; keys.len()];
    for (r, &k) in order.iter().enumerate() {
        rank[k] = r as u32;
    }
    rank
}

pub(super) const NONE: u32 = u32::MAX;

impl Problem {
    pub(super) fn new(bufs: &[Buffer], ov: &Overlaps) -> Option<Self> {
        let index: Vec<usize> = (0..bufs.len()).filter(|&i| bufs[i].size > 0).collect();
        let mut local = vec![NONE; bufs.len()];
        for (k, &i) in index.iter().enumerate() {
            local[i] = u32::try_from(k).ok()?;
        }
        let mut points: Vec<u64> = index
            .iter()
            .flat_map(|&i| [bufs[i].lower, bufs[i].upper])
            .collect();
        points.sort_unstable();
        points.dedup();
        let sec = |t: u64| points.partition_point(|&p| p < t) as u32;
        let lo: Vec<u32> = index.iter().map(|&i| sec(bufs[i].lower)).collect();
        let hi: Vec<u32> = index.iter().map(|&i| sec(bufs[i].upper)).collect();
        let sections = points.len().saturating_sub(1);
        let size: Vec<u64> = index.iter().map(|&i| bufs[i].size).collect();
        let mut adj_start = Vec::with_capacity(index.len() + 1);
        let mut adj = Vec::new();
        for &i in &index {
            adj_start.push(adj.len());
            adj.extend(
                ov.of(i)
                    .iter()
                    .map(|&j| local[j as usize])
                    .filter(|&j| j != NONE),
            );
        }
        adj_start.push(adj.len());
        let mut twin = vec![NONE; index.len()];
        let mut by_shape: std::collections::HashMap<(u64, u64, u64), u32> =
            std::collections::HashMap::new();
        for (k, &i) in index.iter().enumerate() {
            let b = &bufs[i];
            if let Some(prev) = by_shape.insert((b.lower, b.upper, b.size), k as u32) {
                twin[k] = prev;
            }
        }
        // Section totals, for the T key.
        let mut total = vec![0u64; sections];
        for k in 0..index.len() {
            for t in &mut total[lo[k] as usize..hi[k] as usize] {
                *t += size[k];
            }
        }
        let keys: Vec<[f64; 3]> = (0..index.len())
            .map(|k| {
                let b = &bufs[index[k]];
                let width = (b.upper - b.lower) as f64;
                let t = total[lo[k] as usize..hi[k] as usize]
                    .iter()
                    .copied()
                    .max()
                    .unwrap_or(0) as f64;
                [t, b.size as f64 * width, width]
            })
            .collect();
        let ranks = (0..ORDERINGS.len())
            .map(|o| rank_by(&keys, o, None))
            .collect();
        Some(Self {
            index,
            size,
            lo,
            hi,
            adj_start,
            adj,
            twin,
            sections,
            ranks,
            keys,
        })
    }

    /// The orderings of restart `round`: the static ones first, then (after
    /// the first round) as many again with noise seeded by `seed` and the
    /// round.
    pub(super) fn round_ranks(&self, round: u64, seed: u64) -> Vec<Vec<u32>> {
        let mut out = self.ranks.clone();
        for o in (0..ORDERINGS.len()).filter(|_| round > 0) {
            let s = seed
                ^ (round * ORDERINGS.len() as u64 + o as u64 + 1)
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15);
            out.push(rank_by(&self.keys, o, Some(s)));
        }
        out
    }

    pub(super) fn n(&self) -> usize {
        self.size.len()
    }

    pub(super) fn neighbours(&self, k: usize) -> &[u32] {
        &self.adj[self.adj_start[k]..self.adj_start[k + 1]]
    }
}
