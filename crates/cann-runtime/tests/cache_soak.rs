//! Soak: everything that touches a compile cache at once, for a given time. Two CANN-style
//! writers (new kernels and recompiled ones, written in place), a CANN-style ager at every
//! "process start" (`cache_support::cann`, written from REFERENCE-CACHE.md), our `gc` in a
//! process killed with SIGKILL at random moments, and, in this process, readers, `verify`
//! and the start-up check. At the end: no torn entry, no orphan after a final gc, the size
//! (as CANN's size scan counts it) within one entry of the target, and the start-up check
//! never said "no" while the cache was over its limit.
//!
//! `CANN_SOAK_SECS=300 cargo test -p cann-runtime --test cache_soak -- --nocapture` runs it
//! for five minutes; a plain `cargo test` (and CI) runs it for 30 seconds. The seed of the
//! random kills is printed; `CANN_SOAK_SEED` replays one.
//!
//! Workers are this test binary re-executed with `SOAK_ROLE` set; the `worker` test does
//! nothing in a normal run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cann_runtime::cache::{
    clock::system_now, AgingNeed, Cache, CacheDir, GcOptions, GcOutcome, Limits, Lookup,
    ManualClock, MaxSize, NoProgress, OpenOptions, SystemClock,
};

mod cache_support;
use cache_support::{cann, MIN};

const MB: u64 = 1_048_576;
const LIMIT_MB: u32 = 4;
const RATIO: u8 = 50;
const LIMIT: u64 = LIMIT_MB as u64 * MB;
const TARGET: u64 = LIMIT * RATIO as u64 / 100;
/// Entries were last used two hours ago when written (so both agers may take them), except
/// what the readers touch.
const OLD: i64 = 2 * 3600 * 1_000_000_000;

/// A small xorshift generator: enough to place kills and sizes, replayable by its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn open(dir: &CacheDir) -> Cache {
    Cache::open(
        dir,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(LIMIT_MB), RATIO),
            clock: Arc::new(SystemClock),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap()
}

fn spawn(role: &str, dir: &CacheDir, stop: &Path, seed: u64) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "worker", "--nocapture", "--test-threads", "1"])
        .env("SOAK_ROLE", role)
        .env("SOAK_DIR", &dir.base)
        .env("SOAK_STOP", stop)
        .env("SOAK_SEED", seed.to_string())
        .spawn()
        .unwrap()
}

/// Writes a CANN-style entry last used two hours ago.
fn write_old(soc: &Path, stem: &str, size: usize) {
    cann::write_entry(soc, stem, size);
    let at = system_now() - OLD;
    for ext in ["o", "json"] {
        // Gone already when an ager took it: fine.
        let _ = cann_runtime::cache::set_file_times(&soc.join(format!("{stem}.{ext}")), at, at);
    }
}

#[test]
fn worker() {
    let Ok(role) = std::env::var("SOAK_ROLE") else {
        return;
    };
    let var = |k: &str| std::env::var(k).unwrap();
    let dir = CacheDir::explicit(var("SOAK_DIR")).unwrap();
    let stop = PathBuf::from(var("SOAK_STOP"));
    let mut rng = Rng(var("SOAK_SEED").parse::<u64>().unwrap() | 1);
    let kc = dir.kernel_cache();
    let deadline = Instant::now() + Duration::from_secs(3600);
    let running = || !stop.exists() && Instant::now() < deadline;
    match role.as_str() {
        // CANN's compiler: new kernels, and now and then one recompiled in place, larger.
        "writer0" | "writer1" => {
            let soc = kc.join(if role == "writer0" {
                "ascend910b"
            } else {
                "ascend910b/kernel_meta"
            });
            let mut i = 0u64;
            while running() {
                let size = 8 * 1024 + rng.below(40 * 1024) as usize;
                let stem = if i > 10 && rng.below(8) == 0 {
                    format!("te_{role}_{:05}", rng.below(i))
                } else {
                    i += 1;
                    format!("te_{role}_{i:05}")
                };
                write_old(&soc, &stem, size);
                std::thread::sleep(Duration::from_millis(15));
            }
        }
        // A compiling process starting, again and again: CANN's aging at each start.
        "ager" => {
            while running() {
                let now = system_now() / 1_000_000_000;
                cann::age(&kc, LIMIT, u64::from(RATIO), now, true);
                std::thread::sleep(Duration::from_millis(rng.below(50)));
            }
        }
        // Our gc, pass after pass, until the test kills it.
        "gc" => {
            let c = open(&dir);
            while running() {
                c.gc(&GcOptions::default()).unwrap();
                std::thread::sleep(Duration::from_millis(rng.below(20)));
            }
        }
        other => panic!("unknown role {other}"),
    }
    std::process::exit(0);
}

fn finish(mut child: Child) {
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            assert!(st.success(), "worker failed: {st}");
            return;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "worker hangs");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Every manifest stem under `kc` (for the readers).
fn stems(kc: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["ascend910b", "ascend910b/kernel_meta"] {
        let Ok(rd) = std::fs::read_dir(kc.join(sub)) else {
            continue;
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".json") {
                out.push(format!("{sub}/{stem}"));
            }
        }
    }
    out
}

#[test]
fn soak_writers_agers_gc_killed_verify_and_readers() {
    let secs: u64 = std::env::var("CANN_SOAK_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let seed: u64 = std::env::var("CANN_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| system_now() as u64);
    println!("soak: {secs} s, seed {seed}");
    let mut rng = Rng(seed | 1);
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let kc = dir.kernel_cache();
    let c = Arc::new(open(&dir));
    let stop = t.path().join("stop");
    let workers: Vec<Child> = ["writer0", "writer1", "ager"]
        .iter()
        .map(|r| spawn(r, &dir, &stop, rng.next()))
        .collect();

    // Readers: hits stamp access times, as a compiling process's lookups do.
    let quit = Arc::new(AtomicBool::new(false));
    let hits = Arc::new(AtomicU64::new(0));
    let readers: Vec<_> = (0..2)
        .map(|r| {
            let (c, quit, hits, kc) = (
                Arc::clone(&c),
                Arc::clone(&quit),
                Arc::clone(&hits),
                kc.clone(),
            );
            std::thread::spawn(move || {
                let mut rng = Rng(seed.wrapping_add(r) | 1);
                while !quit.load(Ordering::Relaxed) {
                    let all = stems(&kc);
                    for _ in 0..20 {
                        let Some(k) = all.get(rng.below(all.len() as u64) as usize) else {
                            break;
                        };
                        if let Lookup::Hit(e) = c.get(k).unwrap() {
                            assert!(!e.binaries.is_empty(), "{k}");
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            })
        })
        .collect();

    let start = Instant::now();
    let (mut kills, mut verifies, mut checks, mut said_no) = (0, 0, 0, 0);
    let mut gc = spawn("gc", &dir, &stop, rng.next());
    let mut kill_at = Instant::now() + Duration::from_millis(50 + rng.below(600));
    while start.elapsed() < Duration::from_secs(secs) {
        if Instant::now() >= kill_at {
            gc.kill().unwrap();
            gc.wait().unwrap();
            kills += 1;
            gc = spawn("gc", &dir, &stop, rng.next());
            kill_at = Instant::now() + Duration::from_millis(50 + rng.below(600));
        }
        let v = c.verify(&NoProgress).unwrap();
        assert!(
            v.torn.is_empty(),
            "torn after {:?}: {:?}",
            start.elapsed(),
            v.torn
        );
        verifies += 1;
        // "no" while the cache is over its limit before and after the check is a lie (the
        // size can only have dipped in between if an ager ran, which leaves it lower).
        let before = cann::size(&kc);
        let s = c.startup_check().unwrap();
        let after = cann::size(&kc);
        checks += 1;
        if s.need == AgingNeed::No {
            said_no += 1;
            assert!(
                before < LIMIT || after < LIMIT,
                "start-up check said no at {before} / {after} B over {LIMIT}: {s:?}"
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::write(&stop, b"").unwrap();
    quit.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().unwrap();
    }
    for w in workers {
        finish(w);
    }
    // A last kill, wherever the pass is.
    gc.kill().unwrap();
    gc.wait().unwrap();

    // Over the limit again, so the final pass ages to the target.
    let soc = kc.join("ascend910b");
    let mut extra = 0;
    while cann::size(&kc) < LIMIT {
        write_old(&soc, &format!("te_final_{extra:04}"), 32 * 1024);
        extra += 1;
    }
    // Half an hour on: everything the readers touched is past the aging floor, and every
    // orphan past any writer.
    let later = Cache::open(
        &dir,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(LIMIT_MB), RATIO),
            clock: Arc::new(ManualClock::new(system_now() + 31 * MIN)),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap();
    let GcOutcome::Done(r) = later.gc(&GcOptions::default()).unwrap() else {
        panic!("the final gc was skipped");
    };
    let census = cann::census(&kc);
    let size = cann::size(&kc);
    let v = later.verify(&NoProgress).unwrap();
    let context = format!(
        "seed {seed}: {kills} kills, {verifies} verifies, {checks} checks ({said_no} no), \
         {} hits; final pass {r:?}; {census:?}, CANN counts {size} B",
        hits.load(Ordering::Relaxed)
    );
    println!("{context}");
    assert_eq!(census.torn, 0, "{context}");
    assert!(!v.has_errors(), "{v:?}\n{context}");
    assert!(
        v.orphans.is_empty() && v.temporaries.is_empty(),
        "{v:?}\n{context}"
    );
    assert!(
        size <= TARGET && size + census.largest >= TARGET,
        "not within one entry of {TARGET} B: {context}"
    );
    assert_eq!(r.bytes_after, size, "{context}");
    let s = later.startup_check().unwrap();
    assert_eq!(s.need, AgingNeed::No, "{s:?}\n{context}");
    assert!(kills > 0 && verifies > 0, "{context}");
}
