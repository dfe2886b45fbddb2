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

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cann_runtime::cache::{
    clock::system_now, reference, Cache, CacheDir, GcOptions, GcOutcome, InfoSource, Limits,
    Lookup, ManualClock, MaxSize, NoProgress, OpenOptions, SystemClock,
};
use criterion::{black_box, Criterion};

const BIN: usize = 2048;
const DIRS: usize = 16;
const MIB: u64 = 1_048_576;

fn key(i: usize) -> String {
    format!("Ascend910B/kernel_meta_{:02}/te_op_{i:06}", i % DIRS)
}

fn limits_for(n: usize) -> Limits {
    // The limit is the binaries alone, so manifests always put the cache over it at any
    // size (rounding to whole MiB once left 100,000 entries just under); retaining 50 %
    // then removes a little over half.
    let approx = n as u64 * BIN as u64;
    Limits::fixed(
        MaxSize::Mb(u32::try_from((approx / MIB).max(1)).unwrap()),
        50,
    )
}

/// Builds `n` entries, idle between 37 minutes and 2 hours, with mtime older than atime so
/// that even a relatime mount does not move atime on read (the reference can then work).
fn build(root: &Path, n: usize) -> CacheDir {
    remove_tree(root);
    let dir = CacheDir::explicit(root).unwrap();
    let now = system_now();
    let clock = ManualClock::new(now);
    let c = Cache::open(
        &dir,
        OpenOptions {
            limits: limits_for(n),
            clock: Arc::new(clock.clone()),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap();
    let start = now - 2 * 3600 * 1_000_000_000;
    let step = (83 * 60 * 1_000_000_000) / n as i64;
    for i in 0..n {
        let at = start + i as i64 * step;
        clock.set(at);
        c.put(&key(i), &[(i % 251) as u8; BIN], ".o", None).unwrap();
        let m = dir.kernel_cache().join(format!("{}.json", key(i)));
        cann_runtime::cache::set_file_times(&m, at, now - 3 * 3600 * 1_000_000_000).unwrap();
    }
    dir
}

/// Removes a directory tree between measurements (not timed), unlinking on a few threads:
/// where each unlink waits on the device (see `cache::pool`), one thread takes minutes at
/// 100,000 entries.
fn remove_tree(root: &Path) {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                _ => files.push(e.path()),
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(p) = files.get(i) else { break };
                let _ = std::fs::remove_file(p);
            });
        }
    });
    let _ = std::fs::remove_dir_all(root);
}

fn open(dir: &CacheDir, n: usize) -> Cache {
    Cache::open(
        dir,
        OpenOptions {
            limits: limits_for(n),
            clock: Arc::new(SystemClock),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap()
}

fn drop_caches() -> bool {
    std::fs::write("/proc/sys/vm/drop_caches", b"3\n").is_ok()
}

fn sync_all() {
    let _ = std::process::Command::new("sync").status();
}

fn files_of(dir: &CacheDir, manifest_rel: &str) -> Vec<PathBuf> {
    let m = dir.kernel_cache().join(manifest_rel);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&m).unwrap()).unwrap();
    let bin = format!(
        "{}{}",
        v["binFileName"].as_str().unwrap(),
        v["binFileSuffix"].as_str().unwrap()
    );
    vec![m.clone(), m.with_file_name(bin)]
}

struct Row(String, Duration);

impl Row {
    /// Prints at once, so a long run that is interrupted still leaves its numbers.
    fn new(name: String, d: Duration) -> Row {
        println!("one-shot {name:<60} {:>10.3} ms", d.as_secs_f64() * 1e3);
        Row(name, d)
    }
}

fn one_shot_aging(root: &Path, n: usize, cold: bool, rows: &mut Vec<Row>) {
    let tag = if cold { "cold" } else { "warm" };
    // Ours.
    let dir = build(root, n);
    sync_all();
    if cold && !drop_caches() {
        eprintln!("cannot drop caches (not root?): skipping cold runs");
        return;
    }
    let c = open(&dir, n);
    let t = Instant::now();
    let GcOutcome::Done(r) = c.gc(&GcOptions::default()).unwrap() else {
        panic!("skipped")
    };
    rows.push(Row::new(
        format!("aging/{n}/{tag}/ours ({} entries removed)", r.removed.len()),
        t.elapsed(),
    ));
    // Floor: unlink exactly the same files.
    let dir = build(root, n);
    let c = open(&dir, n);
    let GcOutcome::Done(plan) = c
        .gc(&GcOptions {
            dry_run: true,
            ..GcOptions::default()
        })
        .unwrap()
    else {
        panic!()
    };
    let victims: Vec<PathBuf> = plan
        .removed
        .iter()
        .flat_map(|x| files_of(&dir, &x.rel))
        .collect();
    sync_all();
    if cold {
        drop_caches();
    }
    let t = Instant::now();
    for p in &victims {
        std::fs::remove_file(p).unwrap();
    }
    rows.push(Row::new(
        format!("aging/{n}/{tag}/floor-unlink ({} files)", victims.len()),
        t.elapsed(),
    ));
    // Reference.
    let dir = build(root, n);
    sync_all();
    if cold {
        drop_caches();
    }
    let l = limits_for(n);
    let t = Instant::now();
    let out = reference::run(
        &dir.kernel_cache(),
        l.max_bytes().unwrap(),
        l.remain_ratio,
        system_now() / 1_000_000_000,
    )
    .unwrap();
    rows.push(Row::new(
        format!(
            "aging/{n}/{tag}/reference ({} entries removed)",
            out.deleted_entries
        ),
        t.elapsed(),
    ));
}

/// `n` entries as CANN's compiler leaves them (manifest naming its binary, no `cannCache`
/// field, no index), with the same sizes and access order as [`build`].
fn build_cann(root: &Path, n: usize) -> CacheDir {
    remove_tree(root);
    let dir = CacheDir::explicit(root).unwrap();
    let now = system_now();
    let start = now - 2 * 3600 * 1_000_000_000;
    let step = (83 * 60 * 1_000_000_000) / n as i64;
    for i in 0..n {
        let m = dir.kernel_cache().join(format!("{}.json", key(i)));
        let d = m.parent().unwrap();
        if i < DIRS {
            std::fs::create_dir_all(d).unwrap();
        }
        let stem = m.file_stem().unwrap().to_str().unwrap().to_owned();
        let bin = d.join(format!("{stem}.o"));
        std::fs::write(&bin, [(i % 251) as u8; BIN]).unwrap();
        let text = format!(
            r#"{{"binFileName":"{stem}","binFileSuffix":".o","kernelName":"{stem}","sha256":"00"}}"#
        );
        std::fs::write(&m, text).unwrap();
        let at = start + i as i64 * step;
        let old = now - 3 * 3600 * 1_000_000_000;
        cann_runtime::cache::set_file_times(&bin, old, old).unwrap();
        cann_runtime::cache::set_file_times(&m, at, old).unwrap();
    }
    dir
}

/// The floor of a first pass: what any ager must do to know sizes and binaries and free them.
fn floor_pass(dir: &Path, victims: &std::collections::HashSet<PathBuf>) -> usize {
    let mut unlinked = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_some_and(|x| x == "json") {
                let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap())
                    .unwrap_or(serde_json::Value::Null);
                black_box(v);
            }
            if victims.contains(&p) {
                std::fs::remove_file(&p).unwrap();
                unlinked += 1;
            }
        }
    }
    unlinked
}

fn one_shot_first_gc(root: &Path, n: usize, cold: bool, rows: &mut Vec<Row>) {
    let tag = if cold { "cold" } else { "warm" };
    let dir = build_cann(root, n);
    sync_all();
    if cold && !drop_caches() {
        eprintln!("cannot drop caches (not root?): skipping cold runs");
        return;
    }
    let t = Instant::now();
    let c = open(&dir, n);
    let GcOutcome::Done(r) = c.gc(&GcOptions::default()).unwrap() else {
        panic!("skipped")
    };
    let ours = t.elapsed();
    rows.push(Row::new(
        format!(
            "first-gc/{n}/{tag}/ours ({} discovered, {} removed)",
            r.discovered,
            r.removed.len()
        ),
        ours,
    ));
    drop(c);
    let dir = build_cann(root, n);
    let victims: std::collections::HashSet<PathBuf> = {
        let plan_dir = build_cann(&root.with_extension("plan"), n);
        let c = open(&plan_dir, n);
        let GcOutcome::Done(plan) = c
            .gc(&GcOptions {
                dry_run: true,
                ..GcOptions::default()
            })
            .unwrap()
        else {
            panic!()
        };
        let v = plan
            .removed
            .iter()
            .flat_map(|x| files_of(&plan_dir, &x.rel))
            .map(|p| dir.base.join(p.strip_prefix(&plan_dir.base).unwrap()))
            .collect();
        remove_tree(&plan_dir.base);
        v
    };
    sync_all();
    if cold {
        drop_caches();
    }
    let t = Instant::now();
    let unlinked = floor_pass(&dir.kernel_cache(), &victims);
    let floor = t.elapsed();
    rows.push(Row::new(
        format!("first-gc/{n}/{tag}/floor-walk-stat-read-unlink ({unlinked} files)"),
        floor,
    ));
    let ratio = ours.as_secs_f64() / floor.as_secs_f64();
    println!("first-gc/{n}/{tag}: ours / floor = {ratio:.2}x");
    rows.push(Row(
        format!("first-gc/{n}/{tag}/ratio {ratio:.2}x (ours minus floor)"),
        ours.saturating_sub(floor),
    ));
}

fn one_shot_cold_reads(root: &Path, n: usize, rows: &mut Vec<Row>) {
    let dir = build(root, n);
    let c = open(&dir, n);
    sync_all();
    let hits = 1000.min(n);
    for (label, which) in [
        ("startup/ours", 0),
        ("startup/reference-size-scan", 1),
        ("hit/ours x1000", 2),
        ("hit/floor-open-read x1000", 3),
        ("hit/reference x1000", 4),
        ("info/ours-nothing-changed", 5),
        ("info/floor-walk-names", 6),
        ("info/ours-after-a-cann-write", 7),
    ] {
        if which == 7 {
            write_foreign(&dir);
        }
        if !drop_caches() {
            return;
        }
        let t = Instant::now();
        match which {
            0 => {
                black_box(c.startup_check().unwrap());
            }
            1 => {
                black_box(reference::dir_size(&dir.kernel_cache()).unwrap());
            }
            2 => {
                for i in 0..hits {
                    black_box(c.get(&key(i * (n / hits))).unwrap());
                }
            }
            3 => {
                for i in 0..hits {
                    for f in files_of_fast(&dir, i * (n / hits)) {
                        black_box(std::fs::read(f).ok());
                    }
                }
            }
            4 => {
                for i in 0..hits {
                    black_box(reference_hit(&dir, i * (n / hits)));
                }
            }
            5 => {
                let i = c.info(&NoProgress).unwrap();
                assert_eq!(i.source, InfoSource::Ledger);
            }
            6 => {
                black_box(walk_names(&dir));
            }
            _ => {
                black_box(c.info(&NoProgress).unwrap());
            }
        }
        rows.push(Row::new(format!("{label}/{n}/cold"), t.elapsed()));
    }
}

/// The bin name is derived from the manifest in the floor loop too, but only as bytes read:
/// the floor is "open + read the manifest, open + read the binary".
fn files_of_fast(dir: &CacheDir, i: usize) -> Vec<PathBuf> {
    let m = dir.kernel_cache().join(format!("{}.json", key(i)));
    let text = std::fs::read(&m).unwrap_or_default();
    let start = text
        .windows(14)
        .position(|w| w == b"\"binFileName\":")
        .map_or(0, |p| p + 15);
    let end = text[start..]
        .iter()
        .position(|b| *b == b'"')
        .map_or(start, |e| start + e);
    vec![m.with_file_name(format!("{}.o", String::from_utf8_lossy(&text[start..end])))]
}

/// Upstream's hit: open, read and parse the manifest, then open and read the binary; recency
/// is left to the kernel's atime.
fn reference_hit(dir: &CacheDir, i: usize) -> Option<Vec<u8>> {
    let m = dir.kernel_cache().join(format!("{}.json", key(i)));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&m).ok()?).ok()?;
    let bin = format!(
        "{}{}",
        v["binFileName"].as_str()?,
        v["binFileSuffix"].as_str()?
    );
    std::fs::read(m.with_file_name(bin)).ok()
}

/// CANN compiles one kernel beside ours (written in place, as CANN does).
fn write_foreign(dir: &CacheDir) {
    let foreign = dir
        .kernel_cache()
        .join("Ascend910B/kernel_meta_00/te_cann_new");
    std::fs::write(foreign.with_extension("o"), [1u8; BIN]).unwrap();
    std::fs::write(
        foreign.with_extension("json"),
        r#"{"binFileName":"te_cann_new","binFileSuffix":".o"}"#,
    )
    .unwrap();
}

/// The floor of any walk: every directory read, every name seen once.
fn walk_names(dir: &CacheDir) -> usize {
    let mut names = 0usize;
    let mut stack = vec![dir.kernel_cache()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
            names += 1;
        }
    }
    names
}

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
