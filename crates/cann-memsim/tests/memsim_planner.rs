//! The planner's search: optimal plans on small instances whose optimum is
//! known by brute force, planted perfect packings solved to LOAD, the same
//! plan for the same seed whatever the thread count, the time limit as a
//! bound, and every plan verified.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use cann_memsim::generate::{dense, planted};
use cann_memsim::planner::strategy::{Gap, Strategy};
use cann_memsim::{load, plan_with, verify, Buffer, PlanOptions};

/// A seeded xorshift, so failures reproduce.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Whether `bufs` fit in `cap` bytes: every offset of every buffer tried.
fn fits(bufs: &[Buffer], cap: u64, offsets: &mut Vec<u64>) -> bool {
    let k = offsets.len();
    if k == bufs.len() {
        return true;
    }
    let b = &bufs[k];
    if b.size > cap {
        return false;
    }
    for off in 0..=cap - b.size {
        let clash = (0..k).any(|j| {
            let o = &bufs[j];
            o.overlaps_in_time(b) && offsets[j] < off + b.size && off < offsets[j] + o.size
        });
        if !clash {
            offsets.push(off);
            if fits(bufs, cap, offsets) {
                return true;
            }
            offsets.pop();
        }
    }
    false
}

fn brute_force_optimum(bufs: &[Buffer]) -> u64 {
    (load(bufs)..)
        .find(|&c| fits(bufs, c, &mut Vec::new()))
        .unwrap()
}

fn small(rng: &mut Rng, n: usize) -> Vec<Buffer> {
    (0..n)
        .map(|i| {
            let lower = rng.below(6);
            Buffer {
                id: i.to_string(),
                lower,
                upper: lower + 1 + rng.below(5),
                size: 1 + rng.below(4),
                memset: false,
            }
        })
        .collect()
}

#[test]
fn small_instances_are_proven_optimal() {
    let mut rng = Rng(0x0dd_ba11);
    for case in 0..300 {
        let n = 2 + rng.below(6) as usize;
        let b = small(&mut rng, n);
        let opt = brute_force_optimum(&b);
        let p = plan_with(&b, PlanOptions::default()).unwrap();
        verify(&b, &p.offsets, p.arena).unwrap();
        assert_eq!(p.arena, opt, "case {case}: {b:?}");
        assert!(
            p.proven_optimal,
            "case {case}: not proven ({:?})",
            p.found_by
        );
        assert_eq!(p.lower_bound, opt, "case {case}");
    }
}

#[test]
fn the_exact_stage_proves_what_greedy_cannot_reach() {
    // A triangle of lifetimes each pair of which overlaps only in part.
    let text = "id,lower,upper,size\na,0,4,3\nb,2,6,3\nc,4,8,3\nd,0,2,2\ne,6,8,2\nf,3,5,1\n";
    let b = cann_memsim::parse_csv("t.csv", text).unwrap();
    let opt = brute_force_optimum(&b);
    let p = plan_with(&b, PlanOptions::default()).unwrap();
    assert_eq!(p.arena, opt);
    assert!(p.proven_optimal);
}

#[test]
fn planted_packings_are_solved_to_load() {
    // Larger planted packings (300 to 2,000 buffers) are measured by the planner bench: in an
    // unoptimised test build they meet the time limit before the search reaches LOAD.
    for (n, seed) in [(40, 2), (60, 1)] {
        let (b, planted_offsets) = planted(n, 1 << 20, 10_000, seed);
        verify(&b, &planted_offsets, 1 << 20).unwrap();
        assert_eq!(load(&b), 1 << 20);
        let p = plan_with(&b, PlanOptions::default()).unwrap();
        verify(&b, &p.offsets, p.arena).unwrap();
        assert_eq!(
            p.arena,
            1 << 20,
            "{n} buffers: ratio {} ({:?})",
            p.ratio(),
            p.found_by
        );
        assert!(p.proven_optimal);
    }
}

#[test]
fn same_seed_same_plan_whatever_the_threads() {
    let mut rng = Rng(7);
    let b: Vec<Buffer> = (0..400)
        .map(|i| {
            let lower = rng.below(200);
            Buffer {
                id: i.to_string(),
                lower,
                upper: lower + 1 + rng.below(40),
                size: 1 + rng.below(1000),
                memset: false,
            }
        })
        .collect();
    let opts = PlanOptions {
        work_budget: 60_000_000,
        time_limit: Duration::from_secs(600),
        ..PlanOptions::default()
    };
    let one = plan_with(&b, opts).unwrap();
    assert!(!one.timed_out);
    let again = plan_with(&b, opts).unwrap();
    let three = plan_with(&b, PlanOptions { threads: 3, ..opts }).unwrap();
    assert_eq!(one, again);
    assert_eq!(one, three);
    let other = plan_with(&b, PlanOptions { seed: 1, ..opts }).unwrap();
    verify(&b, &other.offsets, other.arena).unwrap();
}

#[test]
fn the_time_limit_bounds_the_search() {
    // Dense enough that the overlap graph is not held (the sweep), then a
    // medium instance where every stage runs.
    let limit = Duration::from_millis(300);
    let big = dense(40_000, 1_000_000, 5);
    let mut planted_big = planted(1500, 1 << 20, 50_000, 9).0;
    planted_big.truncate(1400); // no longer perfect: the search cannot stop at LOAD
    for b in [big, planted_big] {
        let opts = PlanOptions {
            work_budget: u64::MAX,
            time_limit: limit,
            ..PlanOptions::default()
        };
        let t = Instant::now();
        let p = plan_with(&b, opts).unwrap();
        let took = t.elapsed();
        verify(&b, &p.offsets, p.arena).unwrap();
        // A bound, with room for one greedy pass and the verifier on a
        // loaded machine, not a benchmark.
        assert!(took < limit + Duration::from_secs(20), "{took:?}");
        assert!(p.arena >= p.lower_bound && p.lower_bound >= p.load);
    }
}

/// The sweep's arena, as the planner's floor computes it.
fn sweep_arena(bufs: &[Buffer]) -> u64 {
    let mut b = cann_memsim::planner::budget::Budget::new(
        u64::MAX,
        Instant::now() + Duration::from_secs(3600),
    );
    cann_memsim::greedy::sweep(bufs, cann_memsim::Placement::BestGap, &mut b).1
}

#[test]
fn a_tiny_time_limit_never_gives_a_plan_worse_than_the_sweep() {
    // Before the sweep was the floor, a limit that cut the sweep short
    // stacked the rest of the buffers on top (2.6 x LOAD at 100,000 buffers).
    let limit = Duration::from_millis(1);
    let dense_b = dense(60_000, 1_000_000, 8);
    let mut planted_b = planted(3000, 1 << 20, 50_000, 4).0;
    planted_b.truncate(2900);
    for b in [dense_b, planted_b] {
        let opts = PlanOptions {
            time_limit: limit,
            ..PlanOptions::default()
        };
        let p = plan_with(&b, opts).unwrap();
        verify(&b, &p.offsets, p.arena).unwrap();
        let floor = sweep_arena(&b);
        assert!(
            p.arena <= floor,
            "arena {} over the sweep's {floor}",
            p.arena
        );
        assert!(p.arena >= p.lower_bound && p.lower_bound >= p.load);
    }
}

#[test]
fn a_passed_deadline_stops_every_stage_after_the_sweep() {
    // A limit of zero has passed at the first reading of the clock, so this
    // times nothing: every stage must read the clock before its first pass.
    // The old planner ran its six fixed greedy passes (and built the overlap
    // graph) whatever the clock said, which is how a 30 s run took 31.3 s.
    let b = dense(3000, 30_000, 12);
    let opts = PlanOptions {
        time_limit: Duration::ZERO,
        ..PlanOptions::default()
    };
    let p = plan_with(&b, opts).unwrap();
    verify(&b, &p.offsets, p.arena).unwrap();
    assert_eq!(p.found_by, Strategy::Sweep { gap: Gap::Best });
    assert_eq!(p.runs, 0, "greedy passes after the deadline");
    assert_eq!(p.arena, sweep_arena(&b));
    assert!(p.timed_out);
    // The same instance with time: the stages run and do better.
    let q = plan_with(&b, PlanOptions::default()).unwrap();
    assert!(q.runs > 0 && q.arena <= p.arena, "{:?}", q.found_by);
}

#[test]
fn an_exact_split_in_time_stitches_its_parts() {
    // Two planted packings one after the other in time, under a band that
    // lives throughout: the optimum is the band plus the larger packing, and
    // each part is solved alone.
    let (mut a, _) = planted(200, 1 << 16, 1000, 3);
    let (b, _) = planted(150, 1 << 15, 1000, 4);
    a.extend(b.into_iter().map(|mut x| {
        x.lower += 1000;
        x.upper += 1000;
        x
    }));
    a.push(Buffer {
        id: "band".into(),
        lower: 0,
        upper: 2000,
        size: 777,
        memset: false,
    });
    let p = plan_with(&a, PlanOptions::default()).unwrap();
    verify(&a, &p.offsets, p.arena).unwrap();
    assert_eq!(p.load, (1 << 16) + 777);
    assert_eq!(p.arena, p.load, "{:?}", p.found_by);
    assert!(p.proven_optimal);
    assert!(
        matches!(p.found_by, Strategy::Split { .. }),
        "{:?}",
        p.found_by
    );
}
