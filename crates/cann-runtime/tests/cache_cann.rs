//! Our gc beside CANN: a CANN-style ager (`cache_support::cann`, written from
//! REFERENCE-CACHE.md) in another process, a writer that writes entries in place as CANN's
//! compiler does, and deletions nobody announced. The cache must end within one entry of the
//! retained share, with no torn entry, and CANN's lock file must survive.
//!
//! Workers are this test binary re-executed with `CANN_WORKER_ROLE` set; the `worker` test
//! does nothing in a normal run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cann_runtime::cache::{
    AgingNeed, Cache, CacheDir, GcOptions, GcOutcome, GcReport, Limits, MaxSize, OpenOptions,
    Progress, SystemClock,
};

mod cache_support;
use cache_support::cann;

const KIB: usize = 1024;
const MB: u64 = 1_048_576;
/// Entries of 32 KiB; 120 of them are 3.75 MiB against a 2 MiB limit retaining 50 %.
const ENTRY: usize = 32 * KIB;
const LIMIT_MB: u32 = 2;
const RATIO: u8 = 50;
const TARGET: u64 = LIMIT_MB as u64 * MB * RATIO as u64 / 100;

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
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

/// `n` entries written the way CANN writes them, last used two hours ago and more, one
/// second apart (oldest first), so both agers see the same LRU order.
fn populate(soc: &Path, n: usize) -> Vec<String> {
    let base = now_secs() - 2 * 3600;
    (0..n)
        .map(|i| {
            let stem = format!("te_op_{i:04}");
            cann::write_entry(soc, &stem, ENTRY);
            let at = (base - (n - i) as i64) * 1_000_000_000;
            for ext in ["json", "o"] {
                cache_support::age_file(&soc.join(format!("{stem}.{ext}")), at);
            }
            stem
        })
        .collect()
}

fn done(o: GcOutcome) -> GcReport {
    match o {
        GcOutcome::Done(r) => r,
        GcOutcome::Skipped => panic!("skipped"),
    }
}

fn spawn(role: &str, dir: &CacheDir, stop: &Path, out: &Path) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "worker", "--nocapture", "--test-threads", "1"])
        .env("CANN_WORKER_ROLE", role)
        .env("CANN_KC", dir.kernel_cache())
        .env("CANN_STOP", stop)
        .env("CANN_OUT", out)
        .spawn()
        .unwrap()
}

fn wait(mut child: Child) {
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            assert!(st.success(), "worker failed: {st}");
            return;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("worker exceeded its time bound");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn worker() {
    let Ok(role) = std::env::var("CANN_WORKER_ROLE") else {
        return;
    };
    let var = |k: &str| PathBuf::from(std::env::var(k).unwrap());
    let (kc, stop, out) = (var("CANN_KC"), var("CANN_STOP"), var("CANN_OUT"));
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut log = String::new();
    match role.as_str() {
        // A compiling process starting up, again and again: CANN's own aging at each start.
        "ager" | "ager_once" => {
            let once = role == "ager_once";
            while (once && log.is_empty()) || (!once && !stop.exists() && Instant::now() < deadline)
            {
                // The first start-up of the looping ager is a long pass (a large cache's
                // unlinks), so ours starts while it holds the lock and deletes.
                let pace = if once || !log.is_empty() {
                    cann::Pace::default()
                } else {
                    cann::Pace {
                        per_delete: Duration::from_millis(3),
                        ready: Some(stop.with_extension("ready")),
                    }
                };
                let r = cann::age_paced(
                    &kc,
                    u64::from(LIMIT_MB) * MB,
                    u64::from(RATIO),
                    now_secs(),
                    true,
                    pace,
                );
                log.push_str(&format!(
                    "{} {} {} {}\n",
                    r.total_bytes, r.aged, r.locked_out, r.deleted_bytes
                ));
            }
        }
        // CANN's compiler writing new kernels in place.
        "writer" => {
            let soc = kc.join("ascend910b");
            let mut i = 0;
            while !stop.exists() && Instant::now() < deadline && i < 10 {
                cann::write_entry(&soc, &format!("te_new_{i:04}"), ENTRY);
                i += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            log.push_str(&format!("{i}\n"));
        }
        // Holds CANN's lock as a CANN ager in the middle of its pass would.
        "hold" => {
            let f = std::fs::OpenOptions::new()
                .append(true)
                .read(true)
                .create(true)
                .open(kc.join(cann::LOCK))
                .unwrap();
            rustix::fs::fcntl_lock(&f, rustix::fs::FlockOperation::NonBlockingLockExclusive)
                .unwrap();
            std::fs::write(&out, b"").unwrap();
            while !stop.exists() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            std::process::exit(0);
        }
        _ => std::process::exit(5),
    }
    std::fs::write(out, log).unwrap();
    std::process::exit(0);
}

#[test]
fn gc_beside_a_cann_ager_and_writer_ends_within_one_entry_of_the_target() {
    for round in 0..3 {
        let t = cache_support::tmp();
        let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
        let soc = dir.kernel_cache().join("ascend910b");
        populate(&soc, 120);
        let c = open(&dir);
        let stop = t.path().join("stop");
        let ager = spawn("ager", &dir, &stop, &t.path().join("ager.log"));
        // CANN's ager is mid-pass (lock held, deleting) when ours starts.
        let ready = stop.with_extension("ready");
        let waited = Instant::now();
        while !ready.exists() {
            assert!(
                waited.elapsed() < Duration::from_secs(20),
                "CANN ager never started"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let writer = spawn("writer", &dir, &stop, &t.path().join("writer.log"));
        let start = Instant::now();
        let mut ours = 0;
        while start.elapsed() < Duration::from_millis(1500) {
            if let GcOutcome::Done(r) = c.gc(&GcOptions::default()).unwrap() {
                ours += r.removed.len();
            }
        }
        std::fs::write(&stop, b"").unwrap();
        wait(ager);
        wait(writer);
        // Both agers are done; one more pass of ours settles what the last writes added.
        c.gc(&GcOptions::default()).unwrap();
        let census = cann::census(&dir.kernel_cache());
        let ager_log = std::fs::read_to_string(t.path().join("ager.log")).unwrap();
        let cann_deleted: u64 = ager_log
            .lines()
            .filter_map(|l| l.split(' ').nth(3)?.parse::<u64>().ok())
            .sum();
        let context = format!(
            "round {round}: {census:?}, ours removed {ours}, CANN deleted {cann_deleted} B, \
             ager runs {}",
            ager_log.lines().count()
        );
        assert_eq!(census.torn, 0, "{context}");
        assert!(
            census.bytes + census.largest >= TARGET,
            "ended below the target by more than one entry: {context}"
        );
        let check = c.startup_check().unwrap();
        assert!(
            census.bytes < u64::from(LIMIT_MB) * MB || check.need != AgingNeed::No,
            "start-up check says no while over the limit: {check:?}, {context}"
        );
        assert!(
            dir.kernel_cache().join(cann::LOCK).exists() || cann_deleted == 0,
            "CANN's lock file was deleted: {context}"
        );
    }
}

#[test]
fn each_ager_skips_while_the_other_holds_the_lock() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    populate(&dir.kernel_cache().join("ascend910b"), 120);
    let c = open(&dir);
    // CANN holds its lock, in another process (record locks belong to a process).
    let stop = t.path().join("stop");
    let ready = t.path().join("ready");
    let holder = spawn("hold", &dir, &stop, &ready);
    let start = Instant::now();
    while !ready.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "lock holder never started"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(c.gc(&GcOptions::default()).unwrap(), GcOutcome::Skipped);
    assert!(c.clear(&cann_runtime::cache::NoProgress).is_err());
    std::fs::write(&stop, b"").unwrap();
    wait(holder);
    // Released: ours ages, and while it holds both locks a CANN start-up is locked out.
    struct DuringPass(CacheDir, PathBuf, AtomicU64);
    impl Progress for DuringPass {
        fn inc(&self, _n: u64) {
            if self.2.fetch_add(1, Ordering::Relaxed) == 0 {
                wait(spawn(
                    "ager_once",
                    &self.0,
                    &self.1.join("stop"),
                    &self.1.join("once.log"),
                ));
            }
        }
    }
    let during = DuringPass(dir.clone(), t.path().to_path_buf(), AtomicU64::new(0));
    let r = done(c.gc_with_progress(&GcOptions::default(), &during).unwrap());
    assert!(!r.removed.is_empty(), "{r:?}");
    let once = std::fs::read_to_string(t.path().join("once.log")).unwrap();
    let fields: Vec<&str> = once.split_whitespace().collect();
    assert_eq!(
        fields.get(2),
        Some(&"true"),
        "CANN's ager was not locked out: {once}"
    );
    assert_eq!(fields.get(3), Some(&"0"), "{once}");
    assert!(dir.kernel_cache().join(cann::LOCK).exists());
}

#[test]
fn entries_deleted_by_someone_else_during_a_pass_are_not_freed_twice() {
    for which in ["oldest", "newest"] {
        let t = cache_support::tmp();
        let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
        let soc = dir.kernel_cache().join("ascend910b");
        let stems = populate(&soc, 120);
        // 40 entries vanish while the pass walks: the 40 it would free first, or 40 it would
        // never look at; `rm` takes no lock.
        let victims: Vec<String> = match which {
            "oldest" => stems[..40].to_vec(),
            _ => stems[80..].to_vec(),
        };
        struct Rogue(PathBuf, Vec<String>, AtomicU64);
        impl Progress for Rogue {
            fn inc(&self, _n: u64) {
                if self.2.fetch_add(1, Ordering::Relaxed) == 110 {
                    for s in &self.1 {
                        let _ = std::fs::remove_file(self.0.join(format!("{s}.json")));
                        let _ = std::fs::remove_file(self.0.join(format!("{s}.o")));
                    }
                }
            }
        }
        let c = open(&dir);
        let rogue = Rogue(soc.clone(), victims, AtomicU64::new(0));
        let r = done(c.gc_with_progress(&GcOptions::default(), &rogue).unwrap());
        let census = cann::census(&dir.kernel_cache());
        let context = format!("{which}: {census:?}, report {r:?}");
        assert_eq!(census.torn, 0, "{context}");
        assert!(
            census.bytes + census.largest >= TARGET,
            "over-evicted: {context}"
        );
        assert!(census.bytes <= TARGET, "under-evicted: {context}");
        let freed: u64 = r.removed.iter().map(|x| x.bytes).sum();
        assert!(
            freed < 3 * MB,
            "the report counts bytes someone else freed: {context}"
        );
        assert!(r.bytes_after + census.largest >= census.bytes, "{context}");
    }
}

#[test]
fn both_agers_measure_the_same_size() {
    // Our state (ledger, index, gc lock) lives in kernel_cache/.cann-cache/, which CANN's
    // size scan sums with everything else: our totals count it, so both agers agree on
    // when the limit is reached.
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    populate(&dir.kernel_cache().join("ascend910b"), 10);
    let c = open(&dir);
    let cann_size = || cann::age(&dir.kernel_cache(), u64::MAX, 50, now_secs(), true).total_bytes;
    let ours = || c.startup_check().unwrap().ledger.unwrap().total_bytes;
    done(c.gc(&GcOptions::default()).unwrap());
    assert_eq!(ours(), cann_size());
    for i in 0..5 {
        c.put(&format!("ascend910b/te_ours_{i}"), &[1; ENTRY], ".o", None)
            .unwrap();
    }
    c.put("ascend910b/te_ours_0", &[2; ENTRY], ".o", None)
        .unwrap();
    assert!(c.remove("ascend910b/te_ours_1").unwrap());
    assert_eq!(ours(), cann_size());
    let v = c.verify(&cann_runtime::cache::NoProgress).unwrap();
    assert!(v.ledger_matches, "{v:?}");
    c.clear(&cann_runtime::cache::NoProgress).unwrap();
    assert_eq!(ours(), cann_size());
}
