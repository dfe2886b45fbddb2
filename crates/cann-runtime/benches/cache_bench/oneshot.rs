//! Measurements that destroy their input (aging passes, the first gc) or need the kernel's
//! caches dropped: each timed once on a freshly built, identical directory.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cann_runtime::cache::{
    clock::system_now, reference, CacheDir, GcOptions, GcOutcome, InfoSource, NoProgress,
};
use criterion::black_box;

use crate::fixtures::{
    build, build_cann, drop_caches, key, limits_for, open, remove_tree, sync_all, write_foreign,
};
use crate::floor::{files_of, files_of_fast, floor_pass, reference_hit, walk_names};

/// The files our gc would unlink in `dir` (a dry run), for the floor to unlink the same.
fn gc_victims(dir: &CacheDir, n: usize) -> Vec<PathBuf> {
    let GcOutcome::Done(plan) = open(dir, n)
        .gc(&GcOptions {
            dry_run: true,
            ..GcOptions::default()
        })
        .unwrap()
    else {
        panic!("a dry run reports its plan")
    };
    plan.removed
        .iter()
        .flat_map(|x| files_of(dir, &x.rel))
        .collect()
}

pub(crate) struct Row(pub(crate) String, pub(crate) Duration);

impl Row {
    /// Prints at once, so a long run that is interrupted still leaves its numbers.
    pub(crate) fn new(name: String, d: Duration) -> Row {
        println!("one-shot {name:<60} {:>10.3} ms", d.as_secs_f64() * 1e3);
        Row(name, d)
    }
}

pub(crate) fn one_shot_aging(root: &Path, n: usize, cold: bool, rows: &mut Vec<Row>) {
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
    let victims: Vec<PathBuf> = gc_victims(&dir, n);
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

pub(crate) fn one_shot_first_gc(root: &Path, n: usize, cold: bool, rows: &mut Vec<Row>) {
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
        let v = gc_victims(&plan_dir, n)
            .into_iter()
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

pub(crate) fn one_shot_cold_reads(root: &Path, n: usize, rows: &mut Vec<Row>) {
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
