//! Pull of 10,000 typical entries from a real Redis on loopback, against copying the same
//! files locally (read each file, write it to a fresh directory: the floor of any pull),
//! side by side in one run, with the ratio.
//!
//! `cargo bench -p cann-cache-remote --bench pull` (needs `redis-server` on PATH; prints
//! "skipped" and exits without it, fails under `CI=true`). `PULL_BENCH_ENTRIES=N` changes the entry count.
//!
//! Entries are CANN-style (manifest naming one `.o`), binaries 2 to 32 KiB (spread evenly on
//! a log scale; kernels of element-wise and reduction operators are in this range), in 16
//! `kernel_meta` directories. Each measured pull goes into a fresh, empty cache directory; its
//! creation and removal are not timed. The pull is measured twice: as the CLI commits
//! (durable: grouped flushes per batch, so a crash never leaves a torn entry) against a copy
//! followed by one `syncfs` (the cheapest durable copy), and both without any flush.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cann_cache_remote::{self as remote, Options};
use cann_runtime::cache::{Cache, CacheDir, NoProgress, OpenOptions};
use criterion::Criterion;

// The Redis server the store tests start: one helper for both.
#[path = "../tests/support/mod.rs"]
mod support;

const SOC: &str = "Ascend910B";

fn size_of(i: u64) -> usize {
    // 2 KiB * 16^(u), u spread evenly in [0, 1): 2 KiB .. 32 KiB.
    let u = (i.wrapping_mul(2_654_435_761) % 1000) as f64 / 1000.0;
    (2048.0 * 16f64.powf(u)) as usize
}

fn build(root: &Path, n: u64) -> u64 {
    std::fs::write(
        root.join("op_cache.ini"),
        "[op_compiler_cache]\nadk_version=7.0.RC1\nops_version=7.0.RC1\n",
    )
    .unwrap();
    let mut total = 0;
    let mut x = 0x1234_5678_9abc_def1u64;
    for i in 0..n {
        let dir = root.join(format!("kernel_cache/{SOC}/kernel_meta_{:02}", i % 16));
        std::fs::create_dir_all(&dir).unwrap();
        let stem = format!("te_op{i}_{:016x}", i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        // An ELF header start (e_ident, e_type ET_REL, e_machine EM_AARCH64): one binary
        // format for every entry, as one node's compiles are.
        let mut bin = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x01\0\xb7\0".to_vec();
        while bin.len() < size_of(i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            bin.extend_from_slice(&x.to_le_bytes());
        }
        let m = format!(
            r#"{{"kernelName":"{stem}__kernel0","binFileName":"{stem}","binFileSuffix":".o","magic":"RT_DEV_BINARY_MAGIC_ELF","parameters":[0,0,1],"core_type":"AIV"}}"#
        );
        total += (bin.len() + m.len()) as u64;
        std::fs::write(dir.join(format!("{stem}.o")), bin).unwrap();
        std::fs::write(dir.join(format!("{stem}.json")), m).unwrap();
    }
    total
}

/// The floor: every file read and written to the same place under a fresh directory.
fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let name = e.file_name();
        if name == ".cann-cache" {
            continue;
        }
        let dst = to.join(&name);
        if e.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
            copy_tree(&p, &dst);
        } else {
            std::fs::write(&dst, std::fs::read(&p).unwrap()).unwrap();
        }
    }
}

/// The durable floor: the copy, then one `syncfs` of the file system (`cp -r` then
/// `sync -f`), the cheapest copy that survives a crash (it orders nothing, which a cache
/// CANN reads needs).
fn copy_tree_durable(from: &Path, to: &Path) {
    copy_tree(from, to);
    let d = std::fs::File::open(to).unwrap();
    rustix::fs::syncfs(&d).unwrap();
}

fn median(v: &Mutex<Vec<Duration>>) -> Duration {
    let mut v = v.lock().unwrap().clone();
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let n: u64 = std::env::var("PULL_BENCH_ENTRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let work = tempfile::tempdir().unwrap();
    let Some(redis) = support::servers::redis() else {
        return;
    };
    let src = work.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    let bytes = build(&src, n);
    println!("{n} entries, {:.1} MiB", bytes as f64 / 1_048_576.0);
    let src_dir = CacheDir::explicit(&src).unwrap();
    let versions = remote::versions(&src_dir).unwrap();
    let store = redis.store.open();
    let t = Instant::now();
    let src_cache = Arc::new(Cache::open(&src_dir, OpenOptions::default()).unwrap());
    let rep = remote::push(
        &src_cache,
        &store,
        &versions,
        &Options::default(),
        &NoProgress,
    )
    .unwrap();
    assert_eq!(rep.pushed, n);
    println!(
        "push of {n} entries to Redis: {:.2} s (once)",
        t.elapsed().as_secs_f64()
    );

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_secs(1));
    let mut g = c.benchmark_group(format!("pull_{n}"));
    // One pull per sample: a pull takes seconds, and linear sampling would run 55 of them.
    g.sampling_mode(criterion::SamplingMode::Flat);
    let fresh = |tag: &str, i: u64| -> PathBuf { work.path().join(format!("{tag}-{i}")) };
    let mut rows = Vec::new();
    for (label, durable) in [("redis_pull_fsync", true), ("redis_pull_no_fsync", false)] {
        let times = Arc::new(Mutex::new(Vec::new()));
        let t2 = Arc::clone(&times);
        g.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for i in 0..iters {
                    let d = fresh(label, i);
                    std::fs::create_dir_all(&d).unwrap();
                    std::fs::copy(src.join("op_cache.ini"), d.join("op_cache.ini")).unwrap();
                    let dir = CacheDir::explicit(&d).unwrap();
                    let start = Instant::now();
                    let cache = Arc::new(
                        Cache::open(
                            &dir,
                            OpenOptions {
                                durable,
                                ..OpenOptions::default()
                            },
                        )
                        .unwrap(),
                    );
                    let rep = remote::pull(
                        &cache,
                        &store,
                        &versions,
                        &[SOC.to_owned()],
                        &Options::default(),
                        &NoProgress,
                    )
                    .unwrap();
                    let el = start.elapsed();
                    assert_eq!(rep.pulled, n);
                    t2.lock().unwrap().push(el);
                    total += el;
                    drop(cache);
                    std::fs::remove_dir_all(&d).unwrap();
                }
                total
            })
        });
        rows.push((label, times));
    }
    let mut floors = Vec::new();
    for (label, durable) in [("local_copy_fsync", true), ("local_copy_no_fsync", false)] {
        let times = Arc::new(Mutex::new(Vec::new()));
        let t3 = Arc::clone(&times);
        g.bench_function(label, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for i in 0..iters {
                    let d = fresh(label, i).join("kernel_cache");
                    std::fs::create_dir_all(&d).unwrap();
                    let start = Instant::now();
                    if durable {
                        copy_tree_durable(&src.join("kernel_cache"), &d);
                    } else {
                        copy_tree(&src.join("kernel_cache"), &d);
                    }
                    let el = start.elapsed();
                    t3.lock().unwrap().push(el);
                    total += el;
                    std::fs::remove_dir_all(fresh(label, i)).unwrap();
                }
                total
            })
        });
        floors.push((label, times));
    }
    g.finish();
    for ((label, times), (floor_label, floor)) in rows.into_iter().zip(floors) {
        let m = median(&times);
        let f = median(&floor);
        println!(
            "{label}: {:.3} s (median); {floor_label}: {:.3} s; ratio {:.2}x",
            m.as_secs_f64(),
            f.as_secs_f64(),
            m.as_secs_f64() / f.as_secs_f64()
        );
    }
}
