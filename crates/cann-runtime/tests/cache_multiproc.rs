//! Several processes on one cache: gc lock contention, a bounded stress run with puts, gets,
//! gc and `force` at once, and a writer killed with SIGKILL in the middle of a commit.
//!
//! Workers are this test binary re-executed with `CACHE_WORKER_ROLE` set; the `worker` test
//! does nothing in a normal run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cann_runtime::cache::{
    Cache, CacheDir, CommitStep, ExactEntry, GcOptions, GcOutcome, Limits, Lookup, ManualClock,
    MaxSize, Miss, NoProgress, OpenOptions, Progress, SystemClock,
};

mod cache_support;
use cache_support::*;

const DEADLINE: Duration = Duration::from_secs(60);

fn spawn(role: &str, dir: &CacheDir, extra: &[(&str, String)]) -> Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "worker", "--nocapture", "--test-threads", "1"])
        .env("CACHE_WORKER_ROLE", role)
        .env("CACHE_DIR", &dir.base);
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd.spawn().unwrap()
}

fn wait_for(path: &Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < DEADLINE, "worker never reached {path:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn wait_ok(mut child: Child) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "worker failed: {status}");
            return;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("worker exceeded its time bound");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn open_sys(dir: &CacheDir, max_mb: u32) -> Cache {
    Cache::open(
        dir,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(max_mb), 50),
            clock: Arc::new(SystemClock),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap()
}

/// The cache as a worker that stops at a commit step opens it.
fn open_hooked(dir: &CacheDir, hook: cann_runtime::cache::FaultHook) -> Cache {
    Cache::open(
        dir,
        OpenOptions {
            fault_hook: Some(hook),
            ..OpenOptions::default()
        },
    )
    .unwrap()
}

/// The cache as the next process opens it after a worker was killed, on a clock the test
/// moves (to age what the kill left).
fn open_after_crash(dir: &CacheDir) -> (Cache, ManualClock) {
    let clock = ManualClock::new(cann_runtime::cache::clock::system_now());
    let c = Cache::open(
        dir,
        OpenOptions {
            clock: Arc::new(clock.clone()),
            limits: Limits::fixed(MaxSize::Mb(500), 50),
            ..OpenOptions::default()
        },
    )
    .unwrap();
    (c, clock)
}

/// Blocks inside a gc pass (so the gc lock is held) until released or timed out.
struct Stall(PathBuf, PathBuf);

impl Progress for Stall {
    fn inc(&self, _n: u64) {
        let _ = std::fs::write(&self.0, b"");
        let start = Instant::now();
        while !self.1.exists() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

#[test]
fn worker() {
    let Ok(role) = std::env::var("CACHE_WORKER_ROLE") else {
        return;
    };
    let dir = CacheDir::explicit(std::env::var("CACHE_DIR").unwrap()).unwrap();
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let code = match role.as_str() {
        "hold_gc" => {
            let c = open_sys(&dir, 500);
            let stall = Stall(var("CACHE_MARKER").into(), var("CACHE_RELEASE").into());
            matches!(
                c.gc_with_progress(&GcOptions::default(), &stall).unwrap(),
                GcOutcome::Done(_)
            )
            .then_some(0)
            .unwrap_or(4)
        }
        "crash_put" => {
            let marker = PathBuf::from(var("CACHE_MARKER"));
            let at = if var("CACHE_STEP") == "bin" {
                CommitStep::BinWritten
            } else {
                CommitStep::ManifestWritten
            };
            let hook: cann_runtime::cache::FaultHook = Arc::new(move |s| {
                if s == at {
                    let _ = std::fs::write(&marker, b"");
                    std::thread::sleep(Duration::from_secs(30));
                }
                true
            });
            let c = open_hooked(&dir, hook);
            c.put("k", &payload("k", 2), ".o", None).unwrap();
            0
        }
        "crash_batch" => {
            let marker = PathBuf::from(var("CACHE_MARKER"));
            let seen = Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let hook: cann_runtime::cache::FaultHook = Arc::new(move |s| {
                // Killed while the third manifest of the batch has just become visible.
                if s == CommitStep::Committed
                    && seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 2
                {
                    let _ = std::fs::write(&marker, b"");
                    std::thread::sleep(Duration::from_secs(30));
                }
                true
            });
            let c = open_hooked(&dir, hook);
            let entries: Vec<(String, ExactEntry)> = (0..8).map(batch_entry).collect();
            let refs: Vec<(&str, &ExactEntry)> =
                entries.iter().map(|(k, e)| (k.as_str(), e)).collect();
            c.commit_exact_batch(&refs).unwrap();
            0
        }
        // A gc pass killed between an eviction's two unlinks (manifest gone, binary not).
        "crash_evict" => {
            let marker = PathBuf::from(var("CACHE_MARKER"));
            let hook: cann_runtime::cache::FaultHook = Arc::new(move |s| {
                if s == CommitStep::Evicting {
                    let _ = std::fs::write(&marker, b"");
                    std::thread::sleep(Duration::from_secs(30));
                }
                true
            });
            let c = Cache::open(
                &dir,
                OpenOptions {
                    // 1.2 MB of entries, 943 KB kept: one eviction.
                    limits: Limits::fixed(MaxSize::Mb(1), 90),
                    fault_hook: Some(hook),
                    durable: false,
                    ..OpenOptions::default()
                },
            )
            .unwrap();
            c.gc(&GcOptions::default()).unwrap();
            0
        }
        "stress" => stress_worker(
            &dir,
            var("CACHE_W").parse().unwrap(),
            &PathBuf::from(var("CACHE_OUT")),
        ),
        "gc_force" => {
            let c = open_sys(&dir, 1);
            let mut epoch = 0;
            for i in 0..60 {
                if i == 10 {
                    epoch = c.invalidate_all().unwrap();
                }
                c.gc(&GcOptions::default()).unwrap();
                std::thread::sleep(Duration::from_millis(5));
            }
            std::fs::write(var("CACHE_OUT"), epoch.to_string()).unwrap();
            0
        }
        _ => 5,
    };
    std::process::exit(code);
}

/// Entry `i` of the pulled batch: a CANN-style manifest naming its `.o`.
fn batch_entry(i: usize) -> (String, ExactEntry) {
    let key = format!("soc/m{}/k{i}", i % 3);
    let stem = format!("k{i}");
    let entry = ExactEntry {
        manifest: format!(
            r#"{{"binFileName":"{stem}","binFileSuffix":".o","kernelName":"{stem}"}}"#
        )
        .into_bytes(),
        files: [(format!("{stem}.o"), payload(&key, i as u64))].into(),
    };
    (key, entry)
}

#[test]
fn sigkill_during_a_pulled_batch_leaves_whole_entries_only() {
    let t = tmp();
    let d = dir_of(&t);
    Cache::open(&d, OpenOptions::default()).unwrap();
    let marker = t.path().join("in-batch");
    let mut child = spawn(
        "crash_batch",
        &d,
        &[("CACHE_MARKER", marker.display().to_string())],
    );
    wait_for(&marker);
    child.kill().unwrap();
    child.wait().unwrap();
    let (c, clock) = open_after_crash(&d);
    let mut hits = 0;
    for i in 0..8 {
        let (key, _) = batch_entry(i);
        match c.get(&key).unwrap() {
            Lookup::Hit(e) => {
                assert_eq!(check_payload(&key, &e.binaries[0].1), Ok(i as u64));
                hits += 1;
            }
            Lookup::Miss(Miss::Absent) => {}
            other => panic!("{key}: neither whole nor absent: {other:?}"),
        }
    }
    assert_eq!(hits, 3);
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.torn.is_empty() && !v.has_errors(), "{v:?}");
    clock.advance(31 * MIN);
    c.gc(&GcOptions::default()).unwrap();
    let v = c.verify(&NoProgress).unwrap();
    assert!(
        v.temporaries.is_empty() && v.orphans.is_empty() && v.ledger_matches,
        "{v:?}"
    );
    assert_eq!(v.entries, 3, "{v:?}");
}

fn stress_worker(dir: &CacheDir, w: u64, out: &Path) -> i32 {
    let c = open_sys(dir, 1);
    let start = Instant::now();
    let mut last: std::collections::BTreeMap<String, (u64, i64)> = Default::default();
    let mut bad = 0;
    for i in 0..150u64 {
        if start.elapsed() > Duration::from_secs(20) {
            break;
        }
        if i % 3 == 0 {
            let key = format!("w{w}/k{}", i % 10);
            let t = cann_runtime::cache::clock::system_now();
            c.put(&key, &payload(&key, i), ".o", None).unwrap();
            last.insert(key, (i, t));
        } else {
            let key = if i % 3 == 1 {
                format!("w{}/k{}", (w + i) % 3, i % 10)
            } else {
                format!("old/o{}", i % 30)
            };
            if let Lookup::Hit(e) = c.get(&key).unwrap() {
                if let Err(why) = check_payload(&key, &e.binaries[0].1) {
                    eprintln!("worker {w}: torn read of {key}: {why}");
                    bad += 1;
                }
            }
        }
    }
    let text: String = last
        .iter()
        .map(|(k, (s, t))| format!("{k} {s} {t}\n"))
        .collect();
    std::fs::write(out, text).unwrap();
    if bad == 0 {
        0
    } else {
        3
    }
}

#[test]
fn one_process_ages_at_a_time_and_others_skip_without_waiting() {
    let t = tmp();
    let d = dir_of(&t);
    let c = open_sys(&d, 500);
    c.put("a", b"1", ".o", None).unwrap();
    let marker = t.path().join("holding");
    let release = t.path().join("release");
    let child = spawn(
        "hold_gc",
        &d,
        &[
            ("CACHE_MARKER", marker.display().to_string()),
            ("CACHE_RELEASE", release.display().to_string()),
        ],
    );
    wait_for(&marker);
    let started = Instant::now();
    assert_eq!(c.gc(&GcOptions::default()).unwrap(), GcOutcome::Skipped);
    // Puts and gets go on while the other process ages.
    c.put("b", b"2", ".o", None).unwrap();
    assert!(matches!(c.get("a").unwrap(), Lookup::Hit(_)));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "a skipped gc and the hot path must not wait for the ager"
    );
    std::fs::write(&release, b"").unwrap();
    wait_ok(child);
    assert!(matches!(
        c.gc(&GcOptions::default()).unwrap(),
        GcOutcome::Done(_)
    ));
    // The ager's index rewrite kept the put made during its pass.
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.ledger_matches && v.entries == 2, "{v:?}");
}

#[test]
fn a_killed_ager_does_not_wedge_the_lock() {
    let t = tmp();
    let d = dir_of(&t);
    let c = open_sys(&d, 500);
    c.put("a", b"1", ".o", None).unwrap();
    let marker = t.path().join("holding");
    let mut child = spawn(
        "hold_gc",
        &d,
        &[
            ("CACHE_MARKER", marker.display().to_string()),
            (
                "CACHE_RELEASE",
                t.path().join("never").display().to_string(),
            ),
        ],
    );
    wait_for(&marker);
    assert_eq!(c.gc(&GcOptions::default()).unwrap(), GcOutcome::Skipped);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(matches!(
        c.gc(&GcOptions::default()).unwrap(),
        GcOutcome::Done(_)
    ));
}

#[test]
fn sigkill_during_a_commit_leaves_no_torn_entry() {
    for step in ["bin", "manifest"] {
        let t = tmp();
        let d = dir_of(&t);
        Cache::open(&d, OpenOptions::default())
            .unwrap()
            .put("k", &payload("k", 1), ".o", None)
            .unwrap();
        let marker = t.path().join("in-commit");
        let mut child = spawn(
            "crash_put",
            &d,
            &[
                ("CACHE_MARKER", marker.display().to_string()),
                ("CACHE_STEP", step.into()),
            ],
        );
        wait_for(&marker);
        child.kill().unwrap();
        child.wait().unwrap();
        let (c, clock) = open_after_crash(&d);
        match c.get("k").unwrap() {
            Lookup::Hit(e) => assert_eq!(check_payload("k", &e.binaries[0].1), Ok(1), "{step}"),
            other => panic!("{step}: the committed entry must survive: {other:?}"),
        }
        let v = c.verify(&NoProgress).unwrap();
        assert!(!v.has_errors(), "{step}: {v:?}");
        assert_eq!(
            v.temporaries.len() + v.orphans.len(),
            if step == "bin" { 1 } else { 2 },
            "{step}: {v:?}"
        );
        clock.advance(31 * MIN);
        c.gc(&GcOptions::default()).unwrap();
        let v = c.verify(&NoProgress).unwrap();
        assert!(
            v.temporaries.is_empty() && v.orphans.is_empty() && v.ledger_matches,
            "{step}: {v:?}"
        );
    }
}

#[test]
fn bounded_stress_puts_gets_gc_and_force_across_processes() {
    let t = tmp();
    let d = dir_of(&t);
    // Old entries, over the 1 MB limit, for the ager to remove while the others work.
    let c = open_sys(&d, 1);
    for i in 0..30 {
        c.put(
            &format!("old/o{i}"),
            &payload(&format!("old/o{i}"), i),
            ".o",
            None,
        )
        .unwrap();
    }
    for e in std::fs::read_dir(kc(&d).join("old")).unwrap() {
        age_file(
            &e.unwrap().path(),
            cann_runtime::cache::clock::system_now() - 2 * DAY,
        );
    }
    let outs: Vec<PathBuf> = (0..3).map(|w| t.path().join(format!("out{w}"))).collect();
    let gc_out = t.path().join("gc_out");
    let mut children: Vec<Child> = (0..3u64)
        .map(|w| {
            spawn(
                "stress",
                &d,
                &[
                    ("CACHE_W", w.to_string()),
                    ("CACHE_OUT", outs[w as usize].display().to_string()),
                ],
            )
        })
        .collect();
    children.push(spawn(
        "gc_force",
        &d,
        &[("CACHE_OUT", gc_out.display().to_string())],
    ));
    for ch in children {
        wait_ok(ch);
    }
    let epoch: i64 = std::fs::read_to_string(&gc_out).unwrap().parse().unwrap();
    let c = open_sys(&d, 1);
    let mut checked = 0;
    for out in &outs {
        for line in std::fs::read_to_string(out).unwrap().lines() {
            let f: Vec<&str> = line.split(' ').collect();
            let (key, seq, started): (&str, u64, i64) =
                (f[0], f[1].parse().unwrap(), f[2].parse().unwrap());
            match c.get(key).unwrap() {
                Lookup::Hit(e) => {
                    assert_eq!(check_payload(key, &e.binaries[0].1), Ok(seq), "{key}")
                }
                Lookup::Miss(Miss::Invalidated) => {
                    assert!(started < epoch, "{key} committed after force was lost")
                }
                other => panic!("{key}: committed entry lost: {other:?}"),
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 30);
    let v = c.verify(&NoProgress).unwrap();
    assert!(!v.has_errors(), "{v:?}");
}

#[test]
fn sigkill_between_an_evictions_unlinks_leaves_an_orphan_the_next_gc_reclaims() {
    let t = tmp();
    let d = dir_of(&t);
    {
        // Compiled (and last used) a day ago.
        let day_ago = cann_runtime::cache::clock::system_now() - DAY;
        let c = Cache::open(
            &d,
            OpenOptions {
                clock: Arc::new(ManualClock::new(day_ago)),
                durable: false,
                ..OpenOptions::default()
            },
        )
        .unwrap();
        for i in 0..3 {
            c.put(&format!("soc/k{i}"), &vec![i as u8; 400_000], ".o", None)
                .unwrap();
        }
    }
    // Unused for a day: the 1 MB limit of the worker ages them.
    let soc = d.kernel_cache().join("soc");
    for e in std::fs::read_dir(&soc).unwrap() {
        age_file(
            &e.unwrap().path(),
            cann_runtime::cache::clock::system_now() - DAY,
        );
    }
    let marker = t.path().join("evicting");
    let mut child = spawn(
        "crash_evict",
        &d,
        &[("CACHE_MARKER", marker.display().to_string())],
    );
    wait_for(&marker);
    child.kill().unwrap();
    child.wait().unwrap();
    let (c, clock) = open_after_crash(&d);
    let v = c.verify(&NoProgress).unwrap();
    assert!(!v.has_errors(), "{v:?}");
    assert_eq!(v.orphans.len(), 1, "the kill left one binary: {v:?}");
    let orphan = soc.join(v.orphans[0].trim_start_matches("soc/"));
    assert!(orphan.exists(), "{v:?}");
    // Meanwhile it counts toward the limit.
    let r = match c.gc(&GcOptions::default()).unwrap() {
        GcOutcome::Done(r) => r,
        GcOutcome::Skipped => panic!("skipped"),
    };
    assert!(orphan.exists(), "too young to be past a writer: {r:?}");
    let s = c.startup_check().unwrap();
    assert!(s.known_bytes.unwrap() >= 400_000 * 3, "{s:?}");
    // Past any writer (well below the 30-minute aging floor): reclaimed.
    clock.advance(2 * MIN);
    c.gc(&GcOptions::default()).unwrap();
    assert!(!orphan.exists());
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.orphans.is_empty() && v.ledger_matches, "{v:?}");
}
