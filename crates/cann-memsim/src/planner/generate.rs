//! Instances with a known answer, for tests and benchmarks.
//!
//! - [`planted`]: a perfect packing. The rectangle time x capacity is cut
//!   again and again (guillotine cuts, in time or in bytes, at random
//!   places) into `n` pieces; each piece is a buffer. Every moment is covered
//!   exactly `capacity` high, so LOAD = OPT = `capacity`, and the cuts are the
//!   planted plan.
//! - [`dense`]: many long-lived buffers at random, so that the overlap graph
//!   is far too big to hold (the sweep's case).
//! - [`resample`]: lifetimes and sizes drawn from a real trace.

use super::super::buffers::Buffer;
use super::budget::Rng;

/// A planted perfect packing of `n` buffers (at least 1) in `capacity` bytes
/// over `horizon` time steps, with its planted offsets.
pub fn planted(n: usize, capacity: u64, horizon: u64, seed: u64) -> (Vec<Buffer>, Vec<u64>) {
    let mut rng = Rng::new(seed);
    // (t0, t1, y0, y1) pieces.
    let mut pieces: Vec<(u64, u64, u64, u64)> = vec![(0, horizon.max(1), 0, capacity.max(1))];
    // The largest piece first (ties: the lowest index), from a heap, so a
    // packing of 100,000 pieces is made in O(n log n).
    let area = |p: &(u64, u64, u64, u64)| u128::from(p.1 - p.0) * u128::from(p.3 - p.2);
    let mut heap = std::collections::BinaryHeap::new();
    heap.push((area(&pieces[0]), std::cmp::Reverse(0usize)));
    while pieces.len() < n.max(1) {
        // Cut the piece with the largest area, so sizes stay in a realistic
        // range instead of a few giants.
        let Some((_, std::cmp::Reverse(k))) = heap.pop() else {
            break;
        };
        let (t0, t1, y0, y1) = pieces[k];
        let (w, h) = (t1 - t0, y1 - y0);
        let by_time = w >= 2 && (h < 2 || rng.below(2) == 0);
        if !by_time && h < 2 {
            break; // nothing left to cut
        }
        // Cut between 20% and 80% across.
        let cut =
            |len: u64, rng: &mut Rng| 1 + (len / 5 + rng.below((len * 3 / 5).max(1))).min(len - 2);
        if by_time {
            let c = t0 + cut(w, &mut rng);
            pieces[k] = (t0, c, y0, y1);
            pieces.push((c, t1, y0, y1));
        } else {
            let c = y0 + cut(h, &mut rng);
            pieces[k] = (t0, t1, y0, c);
            pieces.push((t0, t1, c, y1));
        }
        let last = pieces.len() - 1;
        heap.push((area(&pieces[k]), std::cmp::Reverse(k)));
        heap.push((area(&pieces[last]), std::cmp::Reverse(last)));
    }
    // Shuffle so the input order tells nothing.
    for k in (1..pieces.len()).rev() {
        pieces.swap(k, rng.below(k as u64 + 1) as usize);
    }
    let bufs = pieces
        .iter()
        .enumerate()
        .map(|(i, &(t0, t1, y0, y1))| Buffer {
            id: format!("p{i}"),
            lower: t0,
            upper: t1,
            size: y1 - y0,
            memset: false,
        })
        .collect();
    let offsets = pieces.iter().map(|p| p.2).collect();
    (bufs, offsets)
}

/// `n` buffers live over random spans of up to a tenth of `horizon`, with
/// sizes from 1 to 2^20 bytes.
pub fn dense(n: usize, horizon: u64, seed: u64) -> Vec<Buffer> {
    let mut rng = Rng::new(seed);
    let horizon = horizon.max(10);
    (0..n)
        .map(|i| {
            let lower = rng.below(horizon);
            let len = 1 + rng.below(horizon / 10);
            Buffer {
                id: format!("d{i}"),
                lower,
                upper: lower + len,
                size: 1 + rng.below(1 << 20),
                memset: false,
            }
        })
        .collect()
}

/// `n` buffers whose (lifetime, size) pairs are drawn from `from` (a real
/// trace), each starting at a random time in `horizon`: the mix of short
/// activations and long-lived weights of a real graph, at any scale.
pub fn resample(from: &[Buffer], n: usize, horizon: u64, seed: u64) -> Vec<Buffer> {
    let mut rng = Rng::new(seed);
    let horizon = horizon.max(1);
    (0..n)
        .filter_map(|i| {
            let b = from.get(rng.below(from.len() as u64) as usize)?;
            let len = (b.upper - b.lower).clamp(1, horizon);
            let lower = rng.below(horizon - len + 1);
            Some(Buffer {
                id: format!("r{i}"),
                lower,
                upper: lower + len,
                size: b.size,
                memset: false,
            })
        })
        .collect()
}
