//! Static offset planning: give each buffer an offset in one arena so that
//! buffers live at the same time never share a byte, with the arena as small
//! as possible. LOAD ([`super::buffers::load`]) is the lower bound.
//!
//! The base is greedy by size with best-gap placement (the TFLite / SOMAS
//! baseline): largest buffer first, each into the smallest gap between the
//! time-overlapping buffers already placed that holds it, else on top.
//! Greedy orderings alone stall at 1.3-1.4x LOAD on adversarial instances, so
//! the planner then runs "squeaky wheel" rounds: the buffers that ended up
//! above the best arena so far get their priority raised (with a little seeded
//! noise) and the greedy runs again. A bounded amount of work keeps large
//! graphs fast; the result is deterministic for a given seed and effort.
//! Every plan returned has passed [`super::buffers::verify`].

use super::buffers::{load, verify, Buffer};
use super::error::MemsimError;

/// Where a buffer goes among the gaps that hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The smallest gap that fits (least waste).
    BestGap,
    /// The lowest gap that fits.
    FirstGap,
}

/// How hard to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanOptions {
    /// Upper bound on pairwise time-overlap checks over all rounds (work, not
    /// wall time, so results do not depend on the machine).
    pub work_budget: u64,
    /// Most improvement rounds after the fixed orderings.
    pub max_rounds: u32,
    /// Seed of the noise in improvement rounds.
    pub seed: u64,
}

impl Default for PlanOptions {
    fn default() -> Self {
        Self {
            work_budget: 150_000_000,
            max_rounds: 5000,
            seed: 0x5eed_cafe,
        }
    }
}

/// A verified plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Offset of each buffer, in input order.
    pub offsets: Vec<u64>,
    /// Bytes of the arena: the highest end of any buffer.
    pub arena: u64,
    /// The lower bound.
    pub load: u64,
    /// Which pass produced it, for reports.
    pub found_by: String,
    /// Greedy runs made.
    pub runs: u32,
}

impl Plan {
    /// Arena over LOAD (1.0 when LOAD is 0).
    pub fn ratio(&self) -> f64 {
        if self.load == 0 {
            1.0
        } else {
            self.arena as f64 / self.load as f64
        }
    }
}

/// Which buffers overlap in time, as a compressed adjacency list built once
/// per instance (a sweep, O(n log n + pairs)); every greedy run then costs
/// O(pairs) instead of O(n^2). Instances with too many overlapping pairs to
/// hold fall back to scanning.
pub struct Overlaps {
    start: Vec<usize>,
    adj: Vec<u32>,
}

/// Most overlapping pairs kept in memory (8 bytes each).
const MAX_PAIRS: u64 = 40_000_000;

impl Overlaps {
    /// The adjacency of `bufs`, or `None` when it would be too large.
    pub fn new(bufs: &[Buffer]) -> Option<Self> {
        let mut ev: Vec<(u64, bool, u32)> = Vec::with_capacity(bufs.len() * 2);
        for (i, b) in bufs.iter().enumerate().filter(|(_, b)| b.upper > b.lower) {
            let i = u32::try_from(i).ok()?;
            ev.push((b.lower, true, i));
            ev.push((b.upper, false, i));
        }
        ev.sort_unstable();
        let mut deg = vec![0usize; bufs.len()];
        let mut live: Vec<u32> = Vec::new();
        let mut pos = vec![usize::MAX; bufs.len()];
        let mut pairs = 0u64;
        // First sweep counts, second fills: no per-buffer vectors.
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
            let mut adj = vec![
                0u32;
                if fill {
                    start.last().copied().unwrap_or(0)
                } else {
                    0
                }
            ];
            let mut cur = start.clone();
            live.clear();
            for &(_, is_start, i) in &ev {
                let iu = i as usize;
                if is_start {
                    for &j in &live {
                        if fill {
                            adj[cur[iu]] = j;
                            cur[iu] += 1;
                            adj[cur[j as usize]] = i;
                            cur[j as usize] += 1;
                        } else {
                            deg[iu] += 1;
                            deg[j as usize] += 1;
                            pairs += 1;
                        }
                    }
                    if !fill && pairs > MAX_PAIRS {
                        return None;
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

    fn of(&self, i: usize) -> &[u32] {
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => self.adj.get(a..b).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// One greedy pass over `order`. Returns offsets, arena and the work done.
pub fn greedy(
    bufs: &[Buffer],
    overlaps: Option<&Overlaps>,
    order: &[usize],
    placement: Placement,
) -> (Vec<u64>, u64, u64) {
    const UNPLACED: u64 = u64::MAX;
    // Flat arrays: the inner loop touches only these, not the buffers.
    let sizes: Vec<u64> = bufs.iter().map(|b| b.size).collect();
    let mut offsets = vec![UNPLACED; bufs.len()];
    let mut placed: Vec<usize> = Vec::with_capacity(order.len());
    let mut arena = 0u64;
    let mut work = 0u64;
    let mut clashes: Vec<(u64, u64)> = Vec::new();
    for &i in order {
        let b = &bufs[i];
        clashes.clear();
        match overlaps {
            Some(ov) => {
                let n = ov.of(i);
                work += n.len() as u64;
                for &j in n {
                    let (o, sz) = (offsets[j as usize], sizes[j as usize]);
                    if o != UNPLACED && sz > 0 {
                        clashes.push((o, o.saturating_add(sz)));
                    }
                }
            }
            None => {
                work += placed.len() as u64;
                for &j in &placed {
                    if sizes[j] > 0 && bufs[j].overlaps_in_time(b) {
                        clashes.push((offsets[j], offsets[j].saturating_add(sizes[j])));
                    }
                }
            }
        }
        clashes.sort_unstable_by_key(|c| c.0);
        let mut cursor = 0u64;
        let mut best: Option<(u64, u64)> = None; // (gap size, offset)
        for &(s, e) in &clashes {
            if s > cursor && s - cursor >= b.size {
                let gap = s - cursor;
                match placement {
                    Placement::BestGap if best.is_none_or(|(g, _)| gap < g) => {
                        best = Some((gap, cursor))
                    }
                    Placement::FirstGap if best.is_none() => best = Some((gap, cursor)),
                    _ => {}
                }
            }
            cursor = cursor.max(e);
        }
        let at = best.map_or(cursor, |(_, o)| o);
        offsets[i] = at;
        arena = arena.max(at.saturating_add(b.size));
        placed.push(i);
    }
    (offsets, arena, work.max(1))
}

/// A small, fast, seeded generator (xorshift64*): the noise needs to be
/// reproducible, not cryptographic.
struct Rng(u64);

impl Rng {
    fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn sorted_by(bufs: &[Buffer], key: impl Fn(&Buffer) -> f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bufs.len()).collect();
    order.sort_by(|&a, &b| {
        key(&bufs[b])
            .total_cmp(&key(&bufs[a]))
            .then(bufs[a].lower.cmp(&bufs[b].lower))
            .then(a.cmp(&b))
    });
    order
}

/// Plans `bufs` with [`PlanOptions::default`].
pub fn plan(bufs: &[Buffer]) -> Result<Plan, MemsimError> {
    plan_with(bufs, PlanOptions::default())
}

/// Plans `bufs`; see the module docs.
pub fn plan_with(bufs: &[Buffer], opts: PlanOptions) -> Result<Plan, MemsimError> {
    // The CSV reader rejects these; library callers get the same answer
    // instead of a sweep that never closes the lifetime.
    if let Some(b) = bufs.iter().find(|b| b.upper <= b.lower) {
        return Err(MemsimError::Input {
            place: super::error::Place::file("buffers"),
            message: format!(
                "buffer `{}` lives over [{}, {}), which is empty",
                b.id, b.lower, b.upper
            ),
        });
    }
    let lb = load(bufs);
    let ov = Overlaps::new(bufs);
    let len = |b: &Buffer| b.upper.saturating_sub(b.lower) as f64;
    let fixed: [(&str, Vec<usize>); 3] = [
        ("greedy by size", sorted_by(bufs, |b| b.size as f64)),
        (
            "greedy by area",
            sorted_by(bufs, |b| b.size as f64 * len(b)),
        ),
        ("greedy by lifetime", sorted_by(bufs, len)),
    ];
    let mut best: Option<(Vec<u64>, u64, String)> = None;
    let mut work = 0u64;
    let mut runs = 0u32;
    let consider = |offsets: Vec<u64>,
                    arena: u64,
                    name: String,
                    best: &mut Option<(Vec<u64>, u64, String)>| {
        if best.as_ref().is_none_or(|(_, a, _)| arena < *a) {
            *best = Some((offsets, arena, name));
        }
    };
    for (name, order) in &fixed {
        for placement in [Placement::BestGap, Placement::FirstGap] {
            let (offs, arena, w) = greedy(bufs, ov.as_ref(), order, placement);
            work += w;
            runs += 1;
            let label = match placement {
                Placement::BestGap => format!("{name}, best gap"),
                Placement::FirstGap => format!("{name}, first gap"),
            };
            consider(offs, arena, label, &mut best);
        }
        if work > opts.work_budget {
            break;
        }
    }
    // Squeaky wheel from each fixed ordering, the starts side by side on
    // threads; each start is deterministic on its own and ties go to the
    // earlier start, so the result does not depend on scheduling.
    if best.as_ref().is_some_and(|(_, a, _)| *a > lb) && work < opts.work_budget {
        let starts = fixed.len() as u32;
        let per = Effort {
            rounds: opts.max_rounds / starts,
            work: (opts.work_budget - work) / u64::from(starts),
        };
        let ov = ov.as_ref();
        let results: Vec<Squeaked> = std::thread::scope(|scope| {
            let handles: Vec<_> = fixed
                .iter()
                .enumerate()
                .map(|(k, (_, order))| {
                    let seed = opts.seed ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    scope.spawn(move || squeak(bufs, ov, lb, order, per, seed))
                })
                .collect();
            // A start that panicked (it cannot on valid input) just offers nothing.
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        for (k, r) in results.into_iter().enumerate() {
            runs += r.runs;
            if let Some((offs, arena, round)) = r.best {
                let label = format!("squeaky wheel from ordering {}, round {round}", k + 1);
                consider(offs, arena, label, &mut best);
            }
        }
    }
    let Some((offsets, arena, found_by)) = best else {
        return Err(MemsimError::Verify("no buffers to plan".into()));
    };
    verify(bufs, &offsets, arena)?;
    Ok(Plan {
        offsets,
        arena,
        load: lb,
        found_by,
        runs,
    })
}

/// Rounds and work one start may spend.
#[derive(Clone, Copy)]
struct Effort {
    rounds: u32,
    work: u64,
}

/// What one start of the squeaky wheel found: (offsets, arena, round).
struct Squeaked {
    best: Option<(Vec<u64>, u64, u32)>,
    runs: u32,
}

/// Squeaky wheel from one ordering: whatever ended above a target between
/// LOAD and this start's best gets its priority raised in proportion to how
/// far it stuck out (with seeded noise), and the greedy runs again,
/// alternating the placement rule to shake the search out of ruts.
fn squeak(
    bufs: &[Buffer],
    ov: Option<&Overlaps>,
    lb: u64,
    order: &[usize],
    effort: Effort,
    seed: u64,
) -> Squeaked {
    let mut rng = Rng(seed | 1);
    let mut prio = vec![0f64; bufs.len()];
    for (rank, &i) in order.iter().enumerate() {
        prio[i] = (bufs.len() - rank) as f64;
    }
    let (mut last, first_arena, mut work) = greedy(bufs, ov, order, Placement::BestGap);
    let mut best: Option<(Vec<u64>, u64, u32)> = None;
    let mut best_arena = first_arena;
    let mut runs = 1;
    for round in 1..=effort.rounds {
        if best_arena <= lb || work >= effort.work {
            break;
        }
        let target = lb as f64 + 0.5 * (best_arena - lb) as f64;
        for (i, b) in bufs.iter().enumerate() {
            let top = last.get(i).map_or(0, |o| o.saturating_add(b.size)) as f64;
            if top > target {
                prio[i] *= 1.0 + (top - target) / lb as f64 + 0.3 * rng.next_f64();
            }
        }
        let order = sorted_by_prio(&prio, bufs);
        let rule = if round % 2 == 0 {
            Placement::BestGap
        } else {
            Placement::FirstGap
        };
        let (offs, arena, w) = greedy(bufs, ov, &order, rule);
        work += w;
        runs += 1;
        if arena < best_arena {
            best_arena = arena;
            best = Some((offs.clone(), arena, round));
        }
        last = offs;
    }
    Squeaked { best, runs }
}

fn sorted_by_prio(prio: &[f64], bufs: &[Buffer]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bufs.len()).collect();
    order.sort_by(|&a, &b| {
        prio[b]
            .total_cmp(&prio[a])
            .then(bufs[a].lower.cmp(&bufs[b].lower))
    });
    order
}
