//! A graph's buffers for static planning: CSV `id,lower,upper,size[,memset]`,
//! each live over the half-open interval `[lower, upper)` of logical time; the
//! LOAD lower bound; and the verifier every plan passes before it is reported.

use std::collections::{BTreeMap, HashSet};

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

const HEADER: [&str; 4] = ["id", "lower", "upper", "size"];

fn parse_flag(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "" | "0" | "false" | "no" => Some(false),
        "1" | "true" | "yes" => Some(true),
        _ => None,
    }
}

/// Reads buffers from CSV text; `origin` names it in errors.
pub fn parse_csv(origin: &str, text: &str) -> Result<Vec<Buffer>, MemsimError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((hline, header)) = lines.next() else {
        return Err(MemsimError::in_file(
            origin,
            "no buffers: expected a header `id,lower,upper,size[,memset]` and one row per buffer",
        ));
    };
    let cols: Vec<String> = header
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let has_memset = match cols.as_slice() {
        [a, b, c, d] if [a, b, c, d] == HEADER => false,
        [a, b, c, d, e] if [a, b, c, d] == HEADER && e == "memset" => true,
        _ => {
            return Err(MemsimError::at(
                origin,
                hline,
                format!(
                "header `{header}` is not `id,lower,upper,size` or `id,lower,upper,size,memset`"
            ),
            ))
        }
    };
    let ncols = if has_memset { 5 } else { 4 };
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (line, row) in lines {
        let f: Vec<&str> = row.split(',').map(str::trim).collect();
        if f.len() != ncols {
            return Err(MemsimError::at(
                origin,
                line,
                format!("{} fields, expected {ncols} as in the header", f.len()),
            ));
        }
        let num = |i: usize| {
            f[i].parse::<u64>().map_err(|_| {
                MemsimError::at(
                    origin,
                    line,
                    format!(
                        "`{}` is `{}`, expected a non-negative integer",
                        HEADER[i], f[i]
                    ),
                )
            })
        };
        let (lower, upper, size) = (num(1)?, num(2)?, num(3)?);
        if upper <= lower {
            return Err(MemsimError::at(
                origin,
                line,
                format!("buffer `{}` lives over [{lower}, {upper}), which is empty; upper must exceed lower", f[0]),
            ));
        }
        let memset = if has_memset {
            parse_flag(f[4]).ok_or_else(|| {
                MemsimError::at(
                    origin,
                    line,
                    format!("`memset` is `{}`, expected 0, 1, true or false", f[4]),
                )
            })?
        } else {
            false
        };
        if !seen.insert(f[0].to_owned()) {
            return Err(MemsimError::at(
                origin,
                line,
                format!("buffer id `{}` appears twice", f[0]),
            ));
        }
        out.push(Buffer {
            id: f[0].to_owned(),
            lower,
            upper,
            size,
            memset,
        });
    }
    if out.is_empty() {
        return Err(MemsimError::in_file(
            origin,
            "the header is there but no buffer rows follow",
        ));
    }
    Ok(out)
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
