//! Foreign writes since our last look: CANN's compiler adds entries, rewrites a binary in
//! place, recompiles an entry after a `force`. The start-up check and `info` must never say
//! "no aging needed" while CANN has written unseen, and gc must count what is on disk.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;

use cann_runtime::cache::{
    AgingNeed, Cache, CacheDir, GcOptions, GcOutcome, GcReport, InfoSource, Limits, Lookup,
    ManualClock, MaxSize, NoProgress, OpenOptions, Reason, SystemClock,
};

mod cache_support;
use cache_support::{age_file, cann, MIN};

const MB: u64 = 1_048_576;
const ENTRY: usize = 32 * 1024;

fn open(dir: &CacheDir, clock: Arc<dyn cann_runtime::cache::Clock>) -> Cache {
    Cache::open(
        dir,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(2), 50),
            clock,
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap()
}

fn done(o: GcOutcome) -> GcReport {
    match o {
        GcOutcome::Done(r) => r,
        GcOutcome::Skipped => panic!("skipped"),
    }
}

fn now_ns() -> i64 {
    cann_runtime::cache::clock::system_now()
}

/// CANN-written entries last used `ago` before now.
fn cann_entries(soc: &Path, prefix: &str, n: usize, size: usize, ago: i64) {
    for i in 0..n {
        let stem = format!("{prefix}_{i:04}");
        cann::write_entry(soc, &stem, size);
        for ext in ["json", "o"] {
            age_file(&soc.join(format!("{stem}.{ext}")), now_ns() - ago);
        }
    }
}

#[test]
fn startup_check_and_info_see_entries_cann_added_since_the_last_reconcile() {
    for into in ["ascend910b", "ascend310p"] {
        let t = cache_support::tmp();
        let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
        let c = open(&dir, Arc::new(SystemClock));
        for i in 0..4 {
            c.put(&format!("ascend910b/te_ours_{i}"), &[1; ENTRY], ".o", None)
                .unwrap();
        }
        // Our own puts keep the record exact: "no", straight from the ledger.
        let s = c.startup_check().unwrap();
        assert_eq!((s.need, s.foreign_changes), (AgingNeed::No, false), "{s:?}");
        let i = c.info(&NoProgress).unwrap();
        assert_eq!((i.source, i.entries), (InfoSource::Ledger, 4), "{i:?}");
        done(c.gc(&GcOptions::default()).unwrap());
        assert_eq!(c.startup_check().unwrap().need, AgingNeed::No);

        // CANN compiles 170 kernels: 5.4 MB against a 2 MB limit, 2.7 times over.
        cann_entries(&dir.kernel_cache().join(into), "te_cann", 170, ENTRY, 0);
        let s = c.startup_check().unwrap();
        assert_eq!(s.need, AgingNeed::Unknown, "{into}: {s:?}");
        assert!(s.foreign_changes, "{into}: {s:?}");
        let i = c.info(&NoProgress).unwrap();
        assert_eq!(i.source, InfoSource::Changed, "{into}: {i:?}");
        assert_eq!(i.entries, 174, "{into}: {i:?}");
        assert!(i.bytes > 5 * MB, "{into}: {i:?}");
        // A fresh handle (another process starting) answers the same.
        let other = open(&dir, Arc::new(SystemClock));
        assert_ne!(other.startup_check().unwrap().need, AgingNeed::No);

        // gc reconciles: the check is exact again, and says what is true.
        let r = done(c.gc(&GcOptions::default()).unwrap());
        assert_eq!(r.discovered, 170, "{r:?}");
        let s = c.startup_check().unwrap();
        assert_eq!(
            (s.need, s.foreign_changes),
            (AgingNeed::Yes, false),
            "{s:?}"
        );
    }
}

/// CANN writes `kernel_cache/<soc>/kernel_meta/` and deeper, not only `<soc>/`: every level
/// it writes to is compared, whether our put created the directory or a gc listed it.
#[test]
fn startup_check_and_info_see_cann_writes_at_every_depth() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let c = open(&dir, Arc::new(SystemClock));
    for i in 0..4 {
        c.put(
            &format!("ascend910b/kernel_meta/te_ours_{i}"),
            &[1; ENTRY],
            ".o",
            None,
        )
        .unwrap();
    }
    let s = c.startup_check().unwrap();
    assert_eq!((s.need, s.foreign_changes), (AgingNeed::No, false), "{s:?}");
    // Into the directory our put created (two levels below kernel_cache).
    let meta = dir.kernel_cache().join("ascend910b/kernel_meta");
    cann_entries(&meta, "te_cann", 70, ENTRY, 0);
    let s = c.startup_check().unwrap();
    assert_eq!(
        (s.need, s.foreign_changes),
        (AgingNeed::Unknown, true),
        "{s:?}"
    );
    let i = c.info(&NoProgress).unwrap();
    assert_eq!((i.source, i.entries), (InfoSource::Changed, 74), "{i:?}");

    // After a gc listed every directory: a write three levels down, into a directory the
    // gc found (CANN made it), and into a directory CANN creates afterwards.
    let deep = meta.join("kernel_meta_temp_1");
    cann_entries(&deep, "te_deep", 1, 1024, 0);
    done(c.gc(&GcOptions::default()).unwrap());
    let s = c.startup_check().unwrap();
    assert!(!s.foreign_changes, "{s:?}");
    let total = s.ledger.unwrap().total_bytes;
    cann_entries(&deep, "te_deeper", 1, 1024, 0);
    let s = c.startup_check().unwrap();
    assert!(s.foreign_changes, "{s:?}");
    let i = c.info(&NoProgress).unwrap();
    assert_eq!(i.source, InfoSource::Changed, "{i:?}");
    assert!(i.bytes > total, "{i:?} vs {total}");
    done(c.gc(&GcOptions::default()).unwrap());
    assert!(!c.startup_check().unwrap().foreign_changes);
    cann_entries(&deep.join("new_level"), "te_new", 1, 1024, 0);
    assert!(c.startup_check().unwrap().foreign_changes);
    // And a fresh handle (another process) agrees.
    assert!(
        open(&dir, Arc::new(SystemClock))
            .startup_check()
            .unwrap()
            .foreign_changes
    );
}

#[test]
fn a_cann_write_during_a_gc_pass_leaves_the_check_unknown() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let soc = dir.kernel_cache().join("ascend910b");
    cann_entries(&soc, "te_old", 10, ENTRY, 120 * MIN);
    let c = open(&dir, Arc::new(SystemClock));
    // The writer lands after the walk listed the directory, before the pass commits.
    struct Writer(std::path::PathBuf, std::sync::atomic::AtomicBool);
    impl cann_runtime::cache::Progress for Writer {
        fn inc(&self, _n: u64) {
            if !self.1.swap(true, std::sync::atomic::Ordering::Relaxed) {
                cann_entries(&self.0, "te_late", 80, ENTRY, 0);
            }
        }
    }
    let w = Writer(soc.clone(), false.into());
    done(c.gc_with_progress(&GcOptions::default(), &w).unwrap());
    // 90 entries, 2.8 MB: over the limit, and the pass did not see all of them.
    let s = c.startup_check().unwrap();
    assert_ne!(s.need, AgingNeed::No, "{s:?}");
    done(c.gc(&GcOptions::default()).unwrap());
    assert!(!c.startup_check().unwrap().foreign_changes);
}

#[test]
fn an_indexed_binary_cann_rewrote_larger_is_measured_again() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let soc = dir.kernel_cache().join("ascend910b");
    cann_entries(&soc, "te_k", 10, ENTRY, 120 * MIN);
    let c = open(&dir, Arc::new(SystemClock));
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert!(r.removed.is_empty() && r.discovered == 10, "{r:?}");
    // CANN recompiles three kernels in place, ten times larger each (and more): same names,
    // same inodes, no directory change.
    for i in 0..3 {
        let stem = format!("te_k_{i:04}");
        std::fs::write(soc.join(format!("{stem}.o")), vec![9u8; 33 * ENTRY]).unwrap();
    }
    let r = done(c.gc(&GcOptions::default()).unwrap());
    let on_disk = cann::census(&dir.kernel_cache());
    assert!(r.bytes_before > 3 * MB, "kept the old sizes: {r:?}");
    // Over the limit: the seven untouched (idle) entries age; the three fresh ones stay.
    assert_eq!(r.removed.len(), 7, "{r:?}");
    assert!(r.removed.iter().all(|x| x.reason == Reason::Aged), "{r:?}");
    // What CANN's own size scan sums (our state files included).
    let cann_total = cann::age(&dir.kernel_cache(), u64::MAX, 50, 0, true).total_bytes;
    assert!(cann_total > on_disk.bytes, "{on_disk:?}");
    assert_eq!(r.bytes_after, cann_total, "{r:?} vs {on_disk:?}");
    let l = c.startup_check().unwrap().ledger.unwrap();
    assert_eq!(l.total_bytes, cann_total);
}

#[test]
fn an_entry_cann_recompiled_after_a_force_is_kept_and_served() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let soc = dir.kernel_cache().join("ascend910b");
    cann_entries(&soc, "te_k", 4, ENTRY, 120 * MIN);
    let c = open(&dir, Arc::new(SystemClock));
    done(c.gc(&GcOptions::default()).unwrap());
    // `force` an hour ago; CANN recompiled te_k_0000 in place ten minutes later, and it has
    // not been used for fifty minutes since.
    let forced = open(&dir, Arc::new(ManualClock::new(now_ns() - 60 * MIN)));
    forced.invalidate_all().unwrap();
    cann::write_entry(&soc, "te_k_0000", ENTRY);
    for ext in ["json", "o"] {
        age_file(&soc.join(format!("te_k_0000.{ext}")), now_ns() - 50 * MIN);
    }
    let c = open(&dir, Arc::new(SystemClock));
    let r = done(c.gc(&GcOptions::default()).unwrap());
    let invalidated: Vec<&str> = r
        .removed
        .iter()
        .filter(|x| x.reason == Reason::Invalidated)
        .map(|x| x.rel.as_str())
        .collect();
    assert_eq!(invalidated.len(), 3, "{r:?}");
    assert!(!invalidated.contains(&"ascend910b/te_k_0000.json"), "{r:?}");
    assert!(matches!(
        c.get("ascend910b/te_k_0000").unwrap(),
        Lookup::Hit(_)
    ));
}

#[test]
fn a_cann_write_into_another_directory_during_our_put_is_seen() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let c = open(&dir, Arc::new(SystemClock));
    c.put("ascend910b/te_ours_0", &[1; ENTRY], ".o", None)
        .unwrap();
    c.put("ascend310p/te_ours_1", &[1; ENTRY], ".o", None)
        .unwrap();
    done(c.gc(&GcOptions::default()).unwrap());
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::No);
    // CANN compiles into ascend310p while our put into ascend910b is between its two
    // readings of the directory times (just before its manifest becomes visible).
    let other = dir.kernel_cache().join("ascend310p");
    let hook: cann_runtime::cache::FaultHook = Arc::new(move |s| {
        if s == cann_runtime::cache::CommitStep::ManifestWritten {
            cann::write_entry(&other, "te_cann_during", ENTRY);
        }
        true
    });
    let c = Cache::open(
        &dir,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(2), 50),
            clock: Arc::new(SystemClock),
            durable: false,
            fault_hook: Some(hook),
        },
    )
    .unwrap();
    c.put("ascend910b/te_ours_2", &[1; ENTRY], ".o", None)
        .unwrap();
    let s = c.startup_check().unwrap();
    assert_eq!(s.need, AgingNeed::Unknown, "{s:?}");
    let i = c.info(&NoProgress).unwrap();
    assert_eq!((i.source, i.entries), (InfoSource::Changed, 4), "{i:?}");
}
