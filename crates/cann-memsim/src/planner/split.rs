//! Splitting an instance in time where that loses nothing, so each part gets
//! the stages small instances get (greedy orders, improvement, the exact
//! search and its proofs).
//!
//! Two cuts are exact:
//!
//! - A buffer live over the whole span of the instance overlaps every other
//!   one. Take any plan and squeeze such bands out of the address space (every
//!   other buffer lies wholly above or below each band, so it stays in one
//!   piece): what is left is a plan of the others, lower by the bands' bytes.
//!   Hence an optimal plan has them stacked at the bottom, and the optimum is
//!   their bytes plus the optimum of the rest.
//! - Where no buffer is live (an empty cut in time), the two sides share no
//!   moment, so they are planned apart and the optimum is the larger side's.
//!
//! The parts are planned one after another (each may split again), and the
//! stitched plan's lower bound is the bands' bytes plus the best bound of any
//! part, which is more than LOAD when a part's bound is.

use std::sync::Mutex;
use std::time::Instant;

use super::super::buffers::Buffer;
use super::super::error::MemsimError;
use super::budget::Budget;
use super::improve::Found;
use super::strategy::{Gap, Strategy};
use super::{plan_inner, Observer, PlanOptions, Progress};

/// Groups smaller than this are planned together with their neighbours at
/// the same height (still exact: they share no moment), so a graph of many
/// tiny phases is not planned as thousands of separate calls.
const MIN_GROUP: usize = 64;

/// An exact split: where each buffer of a band goes, and the groups of
/// buffers planned apart, each at a base offset.
pub(crate) struct Split {
    /// Band buffers and their offsets.
    bands: Vec<(usize, u64)>,
    /// (base offset, buffers in input order) of each group.
    groups: Vec<(u64, Vec<usize>)>,
}

/// Bands (buffers over the whole span of `ix`) and the parts between empty
/// cuts of the rest; zero-size buffers are left out (they sit at 0).
fn peel(bufs: &[Buffer], ix: &[usize]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let lo = ix.iter().map(|&i| bufs[i].lower).min().unwrap_or(0);
    let hi = ix.iter().map(|&i| bufs[i].upper).max().unwrap_or(0);
    let (bands, mut rest): (Vec<usize>, Vec<usize>) = ix
        .iter()
        .copied()
        .filter(|&i| bufs[i].size > 0)
        .partition(|&i| bufs[i].lower <= lo && bufs[i].upper >= hi);
    rest.sort_by_key(|&i| (bufs[i].lower, i));
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut end = 0u64;
    for i in rest {
        let b = &bufs[i];
        match parts.last_mut() {
            Some(p) if b.lower < end => {
                p.push(i);
                end = end.max(b.upper);
            }
            _ => {
                parts.push(vec![i]);
                end = b.upper;
            }
        }
    }
    (bands, parts)
}

impl Split {
    /// The split of `bufs`, or `None` when it would not shrink the instance.
    /// Peeling stops after looking at 8 n buffers in all, so nested bands
    /// cannot make it quadratic.
    pub(crate) fn new(bufs: &[Buffer]) -> Option<Self> {
        let all: Vec<usize> = (0..bufs.len()).collect();
        let (bands, parts) = peel(bufs, &all);
        if bands.is_empty() && parts.len() <= 1 {
            return None;
        }
        let mut out = Split {
            bands: Vec::new(),
            groups: Vec::new(),
        };
        let mut looked = bufs.len();
        let mut work = vec![(0u64, bands, parts)];
        while let Some((base, bands, parts)) = work.pop() {
            let mut at = base;
            for i in bands {
                out.bands.push((i, at));
                at += bufs[i].size;
            }
            let mut group: Vec<usize> = Vec::new();
            for p in parts {
                looked += p.len();
                let (b, sub) = if looked <= 8 * bufs.len() {
                    peel(bufs, &p)
                } else {
                    (Vec::new(), vec![p.clone()])
                };
                if b.is_empty() && sub.len() <= 1 {
                    group.extend(p);
                    if group.len() >= MIN_GROUP {
                        out.groups.push((at, std::mem::take(&mut group)));
                    }
                } else {
                    work.push((at, b, sub));
                }
            }
            if !group.is_empty() {
                out.groups.push((at, group));
            }
        }
        for g in &mut out.groups {
            g.1.sort_unstable();
        }
        Some(out)
    }
}

/// What planning the groups gave: the stitched plan, its lower bound,
/// whether time cut a group short, and greedy runs.
pub(crate) struct Stitched {
    pub found: Found,
    pub lower_bound: u64,
    pub timed_out: bool,
    pub runs: u32,
}

/// Plans each group of `split` in turn, each with a share of what is left
/// of `budget` (by its buffers; time a group leaves unused goes to the next),
/// and stitches them at their bases.
pub(crate) fn plan_parts(
    bufs: &[Buffer],
    split: &Split,
    opts: PlanOptions,
    budget: &mut Budget,
    observe: Observer<'_>,
) -> Result<Stitched, MemsimError> {
    let mut offsets = vec![0u64; bufs.len()];
    let mut arena = 0u64;
    for &(i, at) in &split.bands {
        offsets[i] = at;
        arena = arena.max(at + bufs[i].size);
    }
    let floor = arena;
    // Each group's best arena and bound so far (base included).
    let state: Mutex<Vec<(u64, u64)>> = Mutex::new(vec![(floor, floor); split.groups.len()]);
    let report = |k: usize, base: u64, p: Progress| {
        if let Ok(mut s) = state.lock() {
            s[k] = (base + p.arena, base + p.lower_bound);
            let arena = s.iter().map(|x| x.0).max().unwrap_or(0);
            let bound = s.iter().map(|x| x.1).max().unwrap_or(0);
            observe(Progress {
                arena,
                lower_bound: bound,
            });
        }
    };
    let (mut bound, mut timed_out, mut runs) = (floor, false, 0u32);
    let mut left: usize = split.groups.iter().map(|g| g.1.len()).sum();
    let mut how: Option<(u64, Strategy)> = None;
    for (k, (base, group)) in split.groups.iter().enumerate() {
        let sub: Vec<Buffer> = group.iter().map(|&i| bufs[i].clone()).collect();
        let time_left = budget.deadline().saturating_duration_since(Instant::now());
        let frac = group.len() as f64 / left.max(1) as f64;
        let sub_opts = PlanOptions {
            work_budget: ((budget.work() as f64 * frac) as u64).max(1),
            time_limit: time_left.mul_f64(frac),
            ..opts
        };
        left -= group.len();
        let p = plan_inner(&sub, sub_opts, &|pr| report(k, *base, pr), false)?;
        budget.charge(sub_opts.work_budget);
        for (&i, &o) in group.iter().zip(&p.offsets) {
            offsets[i] = base + o;
        }
        if how.as_ref().is_none_or(|h| base + p.arena > h.0) {
            how = Some((base + p.arena, p.found_by.clone()));
        }
        arena = arena.max(base + p.arena);
        bound = bound.max(base + p.lower_bound);
        timed_out |= p.timed_out;
        runs += p.runs;
    }
    let how = Strategy::Split {
        bands: split.bands.len(),
        groups: split.groups.len(),
        highest: Box::new(how.map_or(Strategy::Sweep { gap: Gap::Best }, |h| h.1)),
    };
    Ok(Stitched {
        found: Found {
            offsets,
            arena,
            how,
        },
        lower_bound: bound,
        timed_out,
        runs,
    })
}
