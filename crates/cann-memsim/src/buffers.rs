//! A graph's buffers for static planning (read by [`super::csv`]), each live over the half-open interval `[lower, upper)` of logical time; the
//! LOAD lower bound; and the verifier every plan passes before it is reported.

use std::collections::BTreeMap;

use super::error::MemsimError;

/// One buffer to place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buffer {
    /// Name from the file.
    pub id: String,
    /// First time it is live.
    pub lower: u64,
    /// First time it is no longer live.
    pub upper: u64,
    /// Bytes.
    pub size: u64,
    /// Whether it is the output of an operator with the memset attribute
    /// (zeroed before use; what `atomic_clean_policy` is about).
    pub memset: bool,
}

impl Buffer {
    /// Whether the two are live at a common time.
    pub fn overlaps_in_time(&self, other: &Buffer) -> bool {
        self.lower < other.upper && other.lower < self.upper
    }
}

/// Time events in sweep order: at equal times ends come before starts,
/// because lifetimes are half-open. Empty lifetimes are never live.
fn events(bufs: &[Buffer]) -> Vec<(u64, bool, usize)> {
    let mut ev: Vec<(u64, bool, usize)> = Vec::with_capacity(bufs.len() * 2);
    for (i, b) in bufs.iter().enumerate().filter(|(_, b)| b.upper > b.lower) {
        ev.push((b.lower, true, i));
        ev.push((b.upper, false, i));
    }
    ev.sort_unstable();
    ev
}

/// LOAD: the largest sum of sizes of buffers live at the same time. No plan
/// can use a smaller arena.
pub fn load(bufs: &[Buffer]) -> u64 {
    let mut now = 0u64;
    let mut peak = 0u64;
    for (_, start, i) in events(bufs) {
        let size = bufs.get(i).map_or(0, |b| b.size);
        if start {
            now = now.saturating_add(size);
            peak = peak.max(now);
        } else {
            now = now.saturating_sub(size);
        }
    }
    peak
}

/// Checks a plan: every buffer inside `[0, arena)` and no two buffers live at
/// the same time sharing a byte. A sweep over time with the live buffers
/// ordered by offset, so each start is checked against its two neighbours:
/// O(n log n) even for tens of thousands of buffers.
pub fn verify(bufs: &[Buffer], offsets: &[u64], arena: u64) -> Result<(), MemsimError> {
    if bufs.len() != offsets.len() {
        return Err(MemsimError::Verify(format!(
            "{} buffers but {} offsets",
            bufs.len(),
            offsets.len()
        )));
    }
    let clash = |a: usize, b: usize| {
        let (x, y) = (&bufs[a], &bufs[b]);
        MemsimError::Verify(format!(
            "buffers `{}` [{}, {}) at {}+{} and `{}` [{}, {}) at {}+{} are live together and overlap",
            x.id, x.lower, x.upper, offsets[a], x.size, y.id, y.lower, y.upper, offsets[b], y.size
        ))
    };
    let mut live: BTreeMap<u64, usize> = BTreeMap::new();
    for (_, start, i) in events(bufs) {
        let (b, off) = (&bufs[i], offsets[i]);
        if b.size == 0 {
            continue;
        }
        let end = off
            .checked_add(b.size)
            .filter(|&e| e <= arena)
            .ok_or_else(|| {
                MemsimError::Verify(format!(
                    "buffer `{}` at {off}+{} ends past the arena of {arena}",
                    b.id, b.size
                ))
            })?;
        if !start {
            live.remove(&off);
            continue;
        }
        if let Some((&o, &j)) = live.range(..=off).next_back() {
            if o + bufs[j].size > off {
                return Err(clash(j, i));
            }
        }
        if let Some((_, &j)) = live.range(off..).next() {
            if offsets[j] < end {
                return Err(clash(i, j));
            }
        }
        live.insert(off, i);
    }
    Ok(())
}
