//! Static planning: hand-computed plans, LOAD, the verifier, CSV errors,
//! the atomic-clean cost, and randomized instances (every plan verified).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_memsim::report::offsets_csv;
use cann_memsim::{
    load, parse_csv, plan, plan_policy, plan_with, verify, Buffer, CleanComparison, PlanOptions,
    PlanSummary,
};
use cann_runtime::memory::AtomicCleanPolicy;

fn bufs(text: &str) -> Vec<Buffer> {
    parse_csv("b.csv", text).unwrap()
}

#[test]
fn hand_computed_plan_reaches_load() {
    let b = bufs("id,lower,upper,size\na,0,2,10\nb,1,3,20\nc,2,4,10\n");
    assert_eq!(load(&b), 30);
    let p = plan(&b).unwrap();
    assert_eq!((p.arena, p.load), (30, 30));
    // b (largest) at 0; a and c do not overlap in time (half-open) and share 20.
    assert_eq!(p.offsets, [20, 0, 20]);
    assert!((p.ratio() - 1.0).abs() < 1e-12);
}

#[test]
fn half_open_lifetimes_share_memory() {
    let b = bufs("id,lower,upper,size\nx,0,1,64\ny,1,2,64\n");
    assert_eq!(load(&b), 64);
    let p = plan(&b).unwrap();
    assert_eq!((p.arena, p.offsets.as_slice()), (64, &[0, 0][..]));
}

#[test]
fn zero_size_buffers_take_no_space() {
    let b = bufs("id,lower,upper,size\nx,0,5,0\ny,0,5,8\n");
    let p = plan(&b).unwrap();
    assert_eq!((p.arena, p.load), (8, 8));
}

#[test]
fn verifier_rejects_overlaps_and_overruns() {
    let b = bufs("id,lower,upper,size\na,0,4,10\nb,3,6,10\nc,4,8,10\n");
    verify(&b, &[0, 10, 0], 20).unwrap();
    let e = verify(&b, &[0, 5, 15], 25).unwrap_err().to_string();
    assert!(
        e.contains("`a` [0, 4) at 0+10 and `b` [3, 6) at 5+10"),
        "{e}"
    );
    let e = verify(&b, &[0, 10, 10], 20).unwrap_err().to_string();
    assert!(e.contains("`b`") && e.contains("`c`"), "{e}");
    let e = verify(&b, &[0, 10, 0], 15).unwrap_err().to_string();
    assert!(e.contains("ends past the arena of 15"), "{e}");
    assert!(verify(&b, &[0, 10], 20).is_err());
}

#[test]
fn minimalloc_csv_reads_with_inclusive_ends() {
    // MiniMalloc's reader adds 1 to an `end` column (converter.cc FromCsv).
    let b = bufs("buffer,start,end,size\nb1,0,2,4\nb2,3,8,4\nb3,0,8,4\n");
    assert_eq!(
        b.iter().map(|x| (x.lower, x.upper)).collect::<Vec<_>>(),
        [(0, 3), (3, 9), (0, 9)]
    );
    // Columns in any order; our own `--offsets` output plans again.
    let b = bufs("size,upper,lower,buffer_id,offset\n4,3,0,b1,8\n");
    assert_eq!(
        (b[0].id.as_str(), b[0].size, b[0].lower, b[0].upper),
        ("b1", 4, 0, 3)
    );
    let p = plan(&bufs(
        "id,lower,upper,size,memset,offset\nx,0,2,8,0,0\ny,1,3,8,1,8\n",
    ))
    .unwrap();
    assert_eq!(p.arena, 16);
}

#[test]
fn csv_errors_in_chinese() {
    let e = cann_memsim::parse_csv_in(
        "b.csv",
        "id,lower,upper,size\na,0,1,x\n",
        cann_i18n::Lang::Zh,
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("b.csv:2: `size` 为 `x`"), "{e}");
}

#[test]
fn csv_errors_carry_file_and_line() {
    let cases = [
        ("", "b.csv: no buffers"),
        ("id,from,to,size\n", "b.csv:1: unknown column `from`"),
        (
            "id,lower,upper\na,0,1\n",
            "b.csv:1: the header has no `size` column",
        ),
        (
            "buffer,id,lower,upper,size\n",
            "b.csv:1: column `id` appears twice",
        ),
        (
            "id,lower,upper,size,alignment\n",
            "b.csv:1: column `alignment` (a MiniMalloc extension) is not supported",
        ),
        (
            "id,lower,upper,size\na,0,1,9223372036854775807\nb,0,1,1\n",
            "b.csv:3: size 1: the sizes up to this row add up past 9223372036854775807 bytes",
        ),
        (
            "id,lower,upper,size\na,0,1,18446744073709551615\n",
            "b.csv:2: size 18446744073709551615",
        ),
        (
            "buffer,start,end,size\na,0,18446744073709551615,1\n",
            "b.csv:2: `end` is `18446744073709551615`",
        ),
        ("id,lower,upper,size\n", "no buffer rows"),
        (
            "id,lower,upper,size\n\na,0,1\n",
            "b.csv:3: 3 fields, expected 4",
        ),
        ("id,lower,upper,size\na,0,x,1\n", "b.csv:2: `upper` is `x`"),
        ("id,lower,upper,size\na,0,1,-1\n", "`size` is `-1`"),
        (
            "id,lower,upper,size\na,3,3,1\n",
            "b.csv:2: buffer `a` lives over [3, 3), which is empty",
        ),
        (
            "id,lower,upper,size\na,0,1,1\na,1,2,1\n",
            "b.csv:3: buffer id `a` appears twice",
        ),
        (
            "id,lower,upper,size,memset\na,0,1,1,maybe\n",
            "`memset` is `maybe`",
        ),
    ];
    for (text, want) in cases {
        let e = parse_csv("b.csv", text).unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: got {e:?}");
    }
    let b = bufs("# comment\nID, Lower, Upper, Size, Memset\na,0,1,1,true\nb,0,1,1,0\nc,0,1,1,\n");
    assert_eq!(
        b.iter().map(|x| x.memset).collect::<Vec<_>>(),
        [true, false, false]
    );
}

const MEMSET: &str = "id,lower,upper,size,memset\nx,0,10,100,0\nm1,2,4,30,1\nm2,6,8,30,1\n";

#[test]
fn atomic_clean_cost_by_hand() {
    let b = bufs(MEMSET);
    let cmp = CleanComparison::new(&b, PlanOptions::default()).unwrap();
    // Policy 1: m1 and m2 never live together and share 30 bytes beside x.
    let s = &cmp.separate;
    assert_eq!(
        (s.plan.arena, s.plan.load, s.clean_ops, s.clean_bytes),
        (130, 130, 2, 60)
    );
    // Policy 0: both live from 0 to 8, side by side, one clean.
    let c = &cmp.centralized;
    assert_eq!(
        (c.plan.arena, c.plan.load, c.clean_ops, c.clean_bytes),
        (160, 160, 1, 60)
    );
    assert_eq!(
        c.plan.offsets[2],
        c.plan.offsets[1] + 30,
        "consecutive in one region"
    );
    assert_eq!((cmp.extra_arena_bytes(), cmp.extra_load_bytes()), (30, 30));
    let sum = PlanSummary::new(&b, &cmp, 0);
    assert_eq!(
        (sum.atomic_clean, sum.arena_bytes, sum.memset_buffers),
        (0, 160, 2)
    );
    assert_eq!(sum.separate_extra_clean_ops, 1);
    let json = serde_json::to_value(&sum).unwrap();
    for key in [
        "arena_bytes",
        "load_bytes",
        "ratio",
        "policies",
        "centralized_extra_arena_bytes",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    let csv = offsets_csv(&b, &c.plan.offsets);
    assert!(
        csv.starts_with("id,lower,upper,size,memset,offset\nx,0,10,100,0,"),
        "{csv}"
    );
}

#[test]
fn no_memset_means_no_cost() {
    let b = bufs("id,lower,upper,size\na,0,2,10\nb,1,3,20\n");
    let cmp = CleanComparison::new(&b, PlanOptions::default()).unwrap();
    assert_eq!(cmp.extra_arena_bytes(), 0);
    assert_eq!((cmp.centralized.clean_ops, cmp.separate.clean_ops), (0, 0));
}

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

#[test]
fn random_instances_always_verify() {
    let mut rng = Rng(0x1234_5678);
    for case in 0..150 {
        let n = 1 + rng.below(60) as usize;
        let b: Vec<Buffer> = (0..n)
            .map(|i| {
                let lower = rng.below(50);
                Buffer {
                    id: format!("{case}-{i}"),
                    lower,
                    upper: lower + 1 + rng.below(20),
                    size: rng.below(5000),
                    memset: rng.below(4) == 0,
                }
            })
            .collect();
        let opts = PlanOptions {
            work_budget: 2_000_000,
            ..PlanOptions::default()
        };
        for policy in [AtomicCleanPolicy::Centralized, AtomicCleanPolicy::Separate] {
            let p = plan_policy(&b, policy, opts).unwrap();
            let live = cann_memsim::as_live(&b, policy);
            verify(&live, &p.plan.offsets, p.plan.arena).unwrap();
            assert!(p.plan.arena >= p.plan.load, "case {case}");
            assert_eq!(p.plan.load, load(&live));
        }
    }
}

#[test]
fn planning_is_deterministic() {
    let mut rng = Rng(99);
    let b: Vec<Buffer> = (0..80)
        .map(|i| {
            let lower = rng.below(30);
            Buffer {
                id: i.to_string(),
                lower,
                upper: lower + 1 + rng.below(10),
                size: 1 + rng.below(1000),
                memset: false,
            }
        })
        .collect();
    let opts = PlanOptions {
        work_budget: 5_000_000,
        ..PlanOptions::default()
    };
    assert_eq!(plan_with(&b, opts).unwrap(), plan_with(&b, opts).unwrap());
}

#[test]
fn library_callers_get_errors_not_panics() {
    let b = vec![
        Buffer {
            id: "backwards".into(),
            lower: 5,
            upper: 3,
            size: 1,
            memset: false,
        },
        Buffer {
            id: "huge".into(),
            lower: 0,
            upper: 9,
            size: u64::MAX,
            memset: true,
        },
    ];
    let e = plan(&b).unwrap_err().to_string();
    assert!(e.contains("`backwards` lives over [5, 3)"), "{e}");
    assert_eq!(load(&b), u64::MAX);
    let huge = vec![
        b[1].clone(),
        Buffer {
            id: "x".into(),
            ..b[1].clone()
        },
    ];
    assert_eq!(load(&huge), u64::MAX, "saturates");
    // Two buffers that cannot both fit in the address space: the plan says
    // so through verification instead of overflowing.
    assert!(plan(&huge).is_err());
}
