//! The planner on the public instances in `shared/data/memplan/` (beside the
//! repository). Prints arena / LOAD per instance. The data is not in the
//! repository, so the tests are `#[ignore]`d and fail without it when run
//! (README, "Tests on real data"). Timing lives in `benches/memsim.rs`; this
//! test only checks quality.
//! Unoptimized test builds run the greedy ~20x slower, so there the planner
//! gets a smaller effort and the adversarial bound is looser; an optimized
//! run (`cargo test --release`) checks the targets of the issue.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use cann_memsim::{parse_csv, plan_with, PlanOptions};

/// `shared/data/memplan` beside the checkout, however deep it is.
fn data_dir() -> Option<PathBuf> {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/data/memplan"))
        .find(|d| d.is_dir())
}

fn run(name: &str, limit: f64, opts: PlanOptions) {
    let dir = data_dir().unwrap_or_else(|| {
        panic!("{name}: shared/data/memplan not found beside the repository or above it")
    });
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let bufs = parse_csv(name, &text).unwrap();
    let t = std::time::Instant::now();
    let p = plan_with(&bufs, opts).unwrap();
    println!(
        "{name}: {} buffers, arena {} LOAD {} ratio {:.4} ({:?}, {} runs, {:?})",
        bufs.len(),
        p.arena,
        p.load,
        p.ratio(),
        p.found_by,
        p.runs,
        t.elapsed()
    );
    assert!(
        p.ratio() <= limit,
        "{name}: ratio {} over {limit}",
        p.ratio()
    );
}

const DEBUG: bool = cfg!(debug_assertions);

/// The fixed greedy orderings only (enough on the SOMAS dumps).
fn quick() -> PlanOptions {
    PlanOptions {
        work_budget: if DEBUG {
            1
        } else {
            PlanOptions::default().work_budget
        },
        ..PlanOptions::default()
    }
}

#[test]
#[ignore = "needs shared/data/memplan beside the repository (README: Tests on real data)"]
fn somas_resnet50() {
    run("somas-resnet50.csv", 1.01, quick());
}

#[test]
#[ignore = "needs shared/data/memplan beside the repository (README: Tests on real data)"]
fn somas_pangu() {
    run("somas-pangu-2.6b.csv", 1.01, quick());
}

#[test]
#[ignore = "needs shared/data/memplan beside the repository (README: Tests on real data)"]
fn challenging() {
    let (opts, limit) = if DEBUG {
        let o = PlanOptions {
            work_budget: 200_000_000,
            ..PlanOptions::default()
        };
        (o, 1.32)
    } else {
        (PlanOptions::default(), 1.25)
    };
    for c in ["A", "B", "C", "D", "E", "F"] {
        run(&format!("minimalloc-challenging-{c}.csv"), limit, opts);
    }
}
