//! Cache benchmarks: start-up check, hit path, put and full aging pass at 10,000 and 100,000
//! entries, each against a faithful model of the upstream algorithm
//! ([`cann_runtime::cache::reference`]) and against the bare system-call floor.
//!
//! `cargo bench -p cann-runtime --bench cache_bench`
//! - `CACHE_BENCH_SIZES=10000,100000` (default) chooses the entry counts.
//! - `CACHE_BENCH_ONESHOT_MAX=N` skips the destructive one-shot aging runs above N entries
//!   (each 100,000-entry run unlinks 100,000 files; about 5 minutes apiece on a slow disk).
//! - `CACHE_BENCH_FIRST_GC_ONLY=1` runs only the first-gc one-shots (and, with
//!   `CACHE_BENCH_COLD=1`, the cold start-up, hit and `info` reads) after criterion.
//! - `CACHE_BENCH_COLD=1` also measures with the kernel caches dropped
//!   (`echo 3 > /proc/sys/vm/drop_caches`, needs root) before each one-shot measurement.
//!
//! Warm start-up, hit and `info` numbers come from criterion (small samples). Aging passes
//! destroy their input, so each is timed once on a freshly built, identical directory.
//!
//! `first-gc`: the first gc over a cache CANN wrote (no index yet: every manifest must be
//! read), against the floor on an identical copy: walk every directory, `lstat` every file,
//! read and parse every manifest, unlink the files our pass removed. Printed as a ratio. The
//! floor makes those calls one at a time; our pass keeps a few in flight (`cache::pool`), so
//! where each call waits on the device the ratio falls below 1.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fixtures;
mod floor;
mod oneshot;

use std::path::PathBuf;
use std::time::Duration;

use cann_runtime::cache::{reference, InfoSource, Lookup, NoProgress};
use criterion::{black_box, Criterion};

use fixtures::{build, key, open, remove_tree, write_foreign, BIN, DIRS};
use floor::{files_of, reference_hit, walk_names};
use oneshot::{one_shot_aging, one_shot_cold_reads, one_shot_first_gc, Row};

fn main() {
    let sizes: Vec<usize> = std::env::var("CACHE_BENCH_SIZES")
        .unwrap_or_else(|_| "10000,100000".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let cold = std::env::var("CACHE_BENCH_COLD").is_ok_and(|v| v == "1");
    let base = std::env::temp_dir().join(format!("cann-cache-bench-{}", std::process::id()));
    let mut crit = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let mut rows = Vec::new();
    for &n in &sizes {
        let root = base.join(format!("n{n}"));
        let dir = build(&root, n);
        let c = open(&dir, n);
        let mut g = crit.benchmark_group(format!("cache/{n}"));
        g.bench_function("startup/ours", |b| {
            b.iter(|| black_box(c.startup_check().unwrap()))
        });
        g.bench_function("startup/floor-stat", |b| {
            b.iter(|| black_box(std::fs::metadata(dir.kernel_cache()).unwrap()))
        });
        g.bench_function("startup/reference-size-scan", |b| {
            b.iter(|| black_box(reference::dir_size(&dir.kernel_cache()).unwrap()))
        });
        let mut i = 0usize;
        g.bench_function("hit/ours", |b| {
            b.iter(|| {
                i = (i + 7919) % n;
                assert!(matches!(c.get(&key(i)).unwrap(), Lookup::Hit(_)));
            })
        });
        let bins: Vec<PathBuf> = (0..n)
            .map(|i| files_of(&dir, &format!("{}.json", key(i)))[1].clone())
            .collect();
        let mut j = 0usize;
        g.bench_function("hit/floor-open-read", |b| {
            b.iter(|| {
                j = (j + 7919) % n;
                black_box(
                    std::fs::read(dir.kernel_cache().join(format!("{}.json", key(j)))).unwrap(),
                );
                black_box(std::fs::read(&bins[j]).unwrap());
            })
        });
        let mut k = 0usize;
        g.bench_function("hit/reference", |b| {
            b.iter(|| {
                k = (k + 7919) % n;
                black_box(reference_hit(&dir, k).unwrap());
            })
        });
        g.bench_function("info/ours-nothing-changed", |b| {
            b.iter(|| {
                let i = c.info(&NoProgress).unwrap();
                assert_eq!(i.source, InfoSource::Ledger);
                black_box(i)
            })
        });
        // CANN compiles one kernel: the next `info` lists the one directory whose time moved.
        write_foreign(&dir);
        // Which path it takes is printed, not assumed: the label must match the numbers.
        println!(
            "info after a CANN write answers from: {:?}",
            c.info(&NoProgress).unwrap().source
        );
        g.bench_function("info/ours-after-a-cann-write", |b| {
            b.iter(|| black_box(c.info(&NoProgress).unwrap()))
        });
        g.bench_function("info/floor-walk-names", |b| {
            b.iter(|| black_box(walk_names(&dir)))
        });
        // A new kernel committed (binary, manifest by rename, ledger and index), without
        // flushes like every put here: with them it would time the disk, not the cache.
        let mut p = 0usize;
        g.bench_function("put/ours", |b| {
            b.iter(|| {
                p += 1;
                let k = format!("Ascend910B/kernel_meta_{:02}/te_new_{p:07}", p % DIRS);
                black_box(c.put(&k, &[(p % 251) as u8; BIN], ".o", None).unwrap())
            })
        });
        g.finish();
        drop(c);
        let oneshot_max: usize = std::env::var("CACHE_BENCH_ONESHOT_MAX")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(usize::MAX);
        if n > oneshot_max {
            remove_tree(&root);
            continue;
        }
        one_shot_first_gc(&root, n, false, &mut rows);
        if cold {
            one_shot_first_gc(&root, n, true, &mut rows);
            one_shot_cold_reads(&root, n, &mut rows);
        }
        if std::env::var("CACHE_BENCH_FIRST_GC_ONLY").is_ok() {
            remove_tree(&root);
            continue;
        }
        one_shot_aging(&root, n, false, &mut rows);
        if cold {
            one_shot_aging(&root, n, true, &mut rows);
        }
        remove_tree(&root);
    }
    remove_tree(&base);
    println!("\none-shot measurements:");
    for Row(name, d) in rows {
        println!("  {name:<60} {:>10.3} ms", d.as_secs_f64() * 1e3);
    }
    crit.final_summary();
}
