//! `info` after CANN wrote: only the directories whose times moved since the last reconcile
//! are read; the rest comes from the ledger. Shown without timing: a file slipped into a
//! directory whose time is then put back is invisible to `info` (no directory listing sees
//! it) while every moved directory is counted exactly as `verify`'s full walk counts it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;

use cann_runtime::cache::{
    set_file_times, AgingNeed, Cache, CacheDir, GcOptions, GcOutcome, InfoReport, InfoSource,
    NoProgress, SystemClock,
};

mod cache_support;
use cache_support::{cann, open_with};

const ENTRY: usize = 8 * 1024;
const SLIPPED: usize = 4096;

fn open(dir: &CacheDir) -> Cache {
    open_with(dir, Arc::new(SystemClock), Some(64), 50)
}

fn gc(c: &Cache) {
    assert!(matches!(
        c.gc(&GcOptions::default()).unwrap(),
        GcOutcome::Done(_)
    ));
}

fn times_ns(p: &Path) -> (i64, i64) {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(p).unwrap();
    (
        m.atime() * 1_000_000_000 + m.atime_nsec(),
        m.mtime() * 1_000_000_000 + m.mtime_nsec(),
    )
}

/// Adds a file to `dir` and puts the directory's times back: no time moved.
fn slip_in(dir: &Path) {
    let (a, m) = times_ns(dir);
    std::fs::write(dir.join("slipped.o"), [7u8; SLIPPED]).unwrap();
    set_file_times(dir, a, m).unwrap();
    assert_eq!(times_ns(dir).1, m);
}

/// `info` agrees with a full walk on everything but the slipped file.
fn matches_walk_but_slipped(c: &Cache, i: &InfoReport) {
    let v = c.verify(&NoProgress).unwrap();
    assert_eq!(i.entries, v.entries, "{i:?} vs {v:?}");
    assert_eq!(i.bytes, v.bytes - SLIPPED as u64, "{i:?} vs {v:?}");
}

#[test]
fn info_after_a_cann_write_lists_only_the_directories_that_moved() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let c = open(&dir);
    for d in 0..8 {
        for i in 0..5 {
            c.put(
                &format!("ascend910b/kernel_meta_{d}/te_ours_{i}"),
                &[1; ENTRY],
                ".o",
                None,
            )
            .unwrap();
        }
    }
    for i in 0..3 {
        c.put(
            &format!("ascend910b/kernel_meta_0/deep/te_deep_{i}"),
            &[2; ENTRY],
            ".o",
            None,
        )
        .unwrap();
    }
    gc(&c);
    let i = c.info(&NoProgress).unwrap();
    assert_eq!((i.source, i.dirs_listed), (InfoSource::Ledger, 0), "{i:?}");

    // Nobody moved kernel_meta_3's time: info must not look inside it.
    let kc = dir.kernel_cache();
    slip_in(&kc.join("ascend910b/kernel_meta_3"));
    // CANN compiles three kernels three levels down.
    let deep = kc.join("ascend910b/kernel_meta_0/deep");
    for i in 0..3 {
        cann::write_entry(&deep, &format!("te_cann_{i}"), ENTRY);
    }
    let s = c.startup_check().unwrap();
    assert!(s.foreign_changes, "{s:?}");
    assert_ne!(s.need, AgingNeed::No);
    let i = c.info(&NoProgress).unwrap();
    assert_eq!((i.source, i.dirs_listed), (InfoSource::Changed, 1), "{i:?}");
    assert_eq!(i.entries, 46, "{i:?}");
    matches_walk_but_slipped(&c, &i);

    // CANN's ager removes one of our entries elsewhere: that directory is read too.
    let five = kc.join("ascend910b/kernel_meta_5");
    let victim = std::fs::read_dir(&five)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&victim).unwrap()).unwrap();
    let bin = format!(
        "{}{}",
        v["binFileName"].as_str().unwrap(),
        v["binFileSuffix"].as_str().unwrap()
    );
    std::fs::remove_file(&victim).unwrap();
    std::fs::remove_file(five.join(bin)).unwrap();
    let i = c.info(&NoProgress).unwrap();
    assert_eq!((i.source, i.dirs_listed), (InfoSource::Changed, 2), "{i:?}");
    assert_eq!(i.entries, 45, "{i:?}");
    matches_walk_but_slipped(&c, &i);

    // A directory CANN creates inside a moved one is new: walked whole.
    for i in 0..2 {
        cann::write_entry(&deep.join("newer"), &format!("te_newer_{i}"), ENTRY);
    }
    let i = c.info(&NoProgress).unwrap();
    assert_eq!((i.source, i.dirs_listed), (InfoSource::Changed, 3), "{i:?}");
    assert_eq!(i.entries, 47, "{i:?}");
    matches_walk_but_slipped(&c, &i);

    // gc lists everything: the slipped file is counted from then on.
    gc(&c);
    let i = c.info(&NoProgress).unwrap();
    assert_eq!(i.source, InfoSource::Ledger, "{i:?}");
    let v = c.verify(&NoProgress).unwrap();
    assert_eq!((i.entries, i.bytes), (v.entries, v.bytes), "{i:?} vs {v:?}");
}

/// Loose files gc kept (an orphan too young to go) are counted once, whether their
/// directory moved or not; a record that does not belong to the ledger's pass means a walk.
#[test]
fn loose_files_count_once_and_a_foreign_record_means_a_full_walk() {
    let t = cache_support::tmp();
    let dir = CacheDir::explicit(t.path().join("cache")).unwrap();
    let c = open(&dir);
    for d in 0..3 {
        c.put(&format!("ascend910b/m{d}/te_ours"), &[1; ENTRY], ".o", None)
            .unwrap();
    }
    let kc = dir.kernel_cache();
    for d in 0..3 {
        std::fs::write(
            kc.join(format!("ascend910b/m{d}/young_orphan.o")),
            [3u8; 5000],
        )
        .unwrap();
    }
    gc(&c);
    cann::write_entry(&kc.join("ascend910b/m1"), "te_cann", ENTRY);
    let i = c.info(&NoProgress).unwrap();
    assert_eq!((i.source, i.dirs_listed), (InfoSource::Changed, 1), "{i:?}");
    let v = c.verify(&NoProgress).unwrap();
    assert_eq!((i.entries, i.bytes), (v.entries, v.bytes), "{i:?} vs {v:?}");

    // The loose record of another pass (or none) cannot be subtracted from this ledger.
    let loose = kc.join(".cann-cache/loose");
    std::fs::write(&loose, b"L1\t1\n").unwrap();
    let i = c.info(&NoProgress).unwrap();
    assert_eq!(i.source, InfoSource::Walk, "{i:?}");
    let v = c.verify(&NoProgress).unwrap();
    assert_eq!((i.entries, i.bytes), (v.entries, v.bytes), "{i:?} vs {v:?}");
    std::fs::remove_file(&loose).unwrap();
    let i = c.info(&NoProgress).unwrap();
    assert_eq!(i.source, InfoSource::Walk, "{i:?}");
}
