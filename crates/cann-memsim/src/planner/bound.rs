//! A lower bound above LOAD for instances too big for the exact stage.
//!
//! Any subset of the buffers needs no more arena than all of them, so a
//! bound proven for a subset holds for the whole (the relaxation the exact
//! solvers of the literature bound with, e.g. MiniMalloc's per-section
//! reasoning). The subset taken is every buffer that overlaps a window of
//! time around the moment of peak load, the window as wide as keeps the
//! subset within what the exact stage handles; if even that subset does not
//! fit in LOAD bytes, nothing does. The exact stage ([`super::exact`]) then
//! steps the capacity down from the subset's greedy arena and proves what it
//! can within its budget.

use super::super::buffers::{load, Buffer};
use super::budget::Budget;
use super::exact;
use super::greedy::{fixed_orders, greedy};
use super::improve::Found;
use super::overlaps::{Overlaps, MAX_PAIRS};
use super::placement::Placement;
use super::strategy::{Gap, Strategy};

/// The moment at which the live bytes are highest (the first such).
pub(crate) fn peak_time(bufs: &[Buffer]) -> u64 {
    let mut ev: Vec<(u64, bool, u64)> = Vec::with_capacity(bufs.len() * 2);
    for b in bufs {
        ev.push((b.lower, true, b.size));
        ev.push((b.upper, false, b.size));
    }
    ev.sort_unstable();
    let (mut now, mut best, mut at) = (0u64, 0u64, 0u64);
    for (t, start, s) in ev {
        if start {
            now += s;
            if now > best {
                (best, at) = (now, t);
            }
        } else {
            now = now.saturating_sub(s);
        }
    }
    at
}

/// Whether `x` (of non-zero size) overlaps `[t - w, t + w]`.
fn in_window(x: &Buffer, t: u64, w: u64) -> bool {
    let (a, b) = (t.saturating_sub(w), t.saturating_add(w).saturating_add(1));
    x.size > 0 && x.lower < b && a < x.upper
}

/// A lower bound for `bufs` proven on the widest window around the peak
/// that has at most `max_buffers` buffers; LOAD when none is proven.
pub(crate) fn around_peak(
    bufs: &[Buffer],
    max_buffers: usize,
    budget: &mut Budget,
    threads: usize,
    seed: u64,
) -> u64 {
    let lb = load(bufs);
    let t = peak_time(bufs);
    let span = bufs.iter().map(|b| b.upper).max().unwrap_or(0);
    // The widest window within the size: a binary search on its half-width.
    let (mut lo, mut hi) = (0u64, span.max(1));
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if bufs.iter().filter(|x| in_window(x, t, mid)).count() <= max_buffers {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let sub: Vec<Buffer> = bufs
        .iter()
        .filter(|x| in_window(x, t, lo))
        .cloned()
        .collect();
    if sub.len() < 2 || sub.len() > max_buffers {
        return lb;
    }
    let Some(ov) = Overlaps::new(&sub, MAX_PAIRS) else {
        return lb;
    };
    let sub_lb = load(&sub);
    let mut seed_plan: Option<Found> = None;
    for (name, order) in fixed_orders(&sub) {
        let (offsets, arena, w) = greedy(&sub, &ov, &order, Placement::BestGap);
        budget.spend(w);
        if seed_plan.as_ref().is_none_or(|s| arena < s.arena) {
            seed_plan = Some(Found {
                offsets,
                arena,
                how: Strategy::Greedy {
                    order: name,
                    gap: Gap::Best,
                },
            });
        }
    }
    let Some(seed_plan) = seed_plan else {
        return lb;
    };
    if seed_plan.arena <= sub_lb {
        // The window packs at its own LOAD: it proves nothing more.
        return lb;
    }
    let out = exact::minimize(&sub, &ov, sub_lb, &seed_plan, budget, threads, seed);
    out.lower_bound.max(lb)
}
