//! Planner quality and time on the public instances in `shared/data/memplan/`
//! (beside the repository; skipped with a message when absent), and replay
//! time of the example traces under every policy.
//!
//! `cargo bench -p cann-memsim --bench memsim` prints arena / LOAD per
//! instance before criterion times the whole `plan` call.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::time::Duration;

use cann_memsim::{compare, load_trace, parse_csv, plan, ImportOptions};
use cann_runtime::memory::{AtomicCleanPolicy, GrowthMode};
use criterion::{criterion_group, criterion_main, Criterion};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn planner(c: &mut Criterion) {
    let dir = repo().join("../shared/data/memplan");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!(
            "{} not found; skipping the planner benchmark",
            dir.display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    files.sort();
    let mut group = c.benchmark_group("plan");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let bufs = parse_csv(&name, &std::fs::read_to_string(&path).unwrap()).unwrap();
        let t = std::time::Instant::now();
        let p = plan(&bufs).unwrap();
        println!(
            "{name}: {} buffers, arena {} / LOAD {} = {:.4} ({:?}, {} greedy runs) in {:.3?}",
            bufs.len(),
            p.arena,
            p.load,
            p.ratio(),
            p.found_by,
            p.runs,
            t.elapsed()
        );
        group.bench_function(&name, |b| b.iter(|| plan(&bufs).unwrap()));
    }
    group.finish();
}

fn replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("compare");
    for name in ["training", "dynamic-seq"] {
        let path = repo().join(format!("examples/traces/{name}.jsonl"));
        let (trace, _) = load_trace(&path, ImportOptions::default()).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                compare(
                    &trace,
                    AtomicCleanPolicy::Centralized,
                    GrowthMode::Documented,
                )
                .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, planner, replay);
criterion_main!(benches);
