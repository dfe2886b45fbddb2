//! `clear` racing `put`, replaced binaries, entries CANN is still writing, sparse files and
//! names that are not UTF-8.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cann_runtime::cache::{
    Cache, CacheDir, CommitStep, GcOptions, GcOutcome, Limits, Lookup, MaxSize, Miss, NoProgress,
    OpenOptions, Reason, SystemClock,
};

mod cache_support;
use cache_support::{age_entry, check_payload, payload, write_cann_entry, MIN};

fn open(dir: &CacheDir) -> Cache {
    Cache::open(
        dir,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(2), 50),
            clock: Arc::new(SystemClock),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap()
}

fn dir(t: &tempfile::TempDir) -> CacheDir {
    CacheDir::explicit(t.path().join("cache")).unwrap()
}

fn ago(ns: i64) -> i64 {
    cann_runtime::cache::clock::system_now() - ns
}

#[test]
fn clear_racing_put_never_leaves_a_committed_entry_torn() {
    let t = cache_support::tmp();
    let d = dir(&t);
    // Each put pauses between its binary's rename and its manifest's (a slow disk, a busy
    // machine), so clears land in that window often.
    let c = Arc::new(
        Cache::open(
            &d,
            OpenOptions {
                limits: Limits::fixed(MaxSize::Mb(2), 50),
                clock: Arc::new(SystemClock),
                durable: false,
                fault_hook: Some(Arc::new(|step| {
                    if step == CommitStep::BinRenamed {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    true
                })),
            },
        )
        .unwrap(),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let putter = {
        let (c, stop) = (Arc::clone(&c), Arc::clone(&stop));
        let soc = d.kernel_cache().join("soc");
        std::thread::spawn(move || {
            let mut seq = 0u64;
            let mut torn = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let key = format!("soc/te_{}", seq % 8);
                seq += 1;
                // A put may fail when clear removes its temporary mid-commit: then nothing
                // was committed, which is fine. What it committed must be whole: served,
                // or removed whole by a clear (absent), never a manifest without its binary.
                if c.put(&key, &payload(&key, seq), ".o", None).is_err() {
                    continue;
                }
                if let Lookup::Miss(Miss::Unusable(why)) = c.get(&key).unwrap() {
                    // Unusable also while a clear removes the entry (manifest first, then
                    // its binary); torn is a manifest still there whose binary is gone.
                    let m = soc.join(format!("te_{}.json", (seq - 1) % 8));
                    if let Ok(text) = std::fs::read(&m) {
                        let v: serde_json::Value = serde_json::from_slice(&text).unwrap();
                        let bin = format!("{}.o", v["binFileName"].as_str().unwrap());
                        if !soc.join(&bin).exists() && m.exists() {
                            torn.push(format!("{key}: {why}"));
                        }
                    }
                }
            }
            (seq, torn)
        })
    };
    let start = Instant::now();
    let mut clears = 0;
    while start.elapsed() < Duration::from_millis(1500) {
        if c.clear(&NoProgress).is_ok() {
            clears += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let (puts, torn) = putter.join().unwrap();
    assert!(torn.is_empty(), "{torn:?} ({puts} puts, {clears} clears)");
    assert!(puts > 10 && clears > 2, "puts {puts}, clears {clears}");
    for i in 0..8 {
        let key = format!("soc/te_{i}");
        match c.get(&key).unwrap() {
            Lookup::Hit(e) => {
                check_payload(&key, &e.binaries[0].1).unwrap();
            }
            Lookup::Miss(Miss::Absent) => {}
            other => panic!("{key}: {other:?} after {puts} puts and {clears} clears"),
        }
    }
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.torn.is_empty() && v.in_progress.is_empty(), "{v:?}");
}

#[test]
fn a_replaced_binary_is_reclaimed_at_once() {
    let t = cache_support::tmp();
    let d = dir(&t);
    let c = open(&d);
    for seq in 0..60 {
        c.put("soc/te_k", &payload("soc/te_k", seq), ".o", None)
            .unwrap();
    }
    let files: Vec<_> = std::fs::read_dir(d.kernel_cache().join("soc"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.orphans.is_empty() && v.ledger_matches, "{v:?}");
    let Lookup::Hit(e) = c.get("soc/te_k").unwrap() else {
        panic!("no hit")
    };
    assert_eq!(check_payload("soc/te_k", &e.binaries[0].1), Ok(59));
}

#[test]
fn an_entry_cann_is_still_writing_is_in_progress_not_torn() {
    let t = cache_support::tmp();
    let d = dir(&t);
    let c = open(&d);
    let soc = d.kernel_cache().join("ascend910b");
    write_cann_entry(&soc, "te_done", 4096);
    // CANN wrote the binary and half of the manifest, in place.
    std::fs::write(soc.join("te_busy.o"), vec![1u8; 4096]).unwrap();
    std::fs::write(soc.join("te_busy.json"), br#"{"binFileName":"te_bu"#).unwrap();
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.torn.is_empty() && !v.has_errors(), "{v:?}");
    assert_eq!(v.in_progress.len(), 1, "{v:?}");
    // Last written two hours ago and still half a manifest: torn.
    age_entry(&soc, "te_busy", ago(120 * MIN));
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.in_progress.is_empty() && v.torn.len() == 1, "{v:?}");
}

#[test]
fn a_sparse_gigabyte_does_not_flush_every_other_entry() {
    let t = cache_support::tmp();
    let d = dir(&t);
    let soc = d.kernel_cache().join("ascend910b");
    for i in 0..10 {
        write_cann_entry(&soc, &format!("te_{i}"), 32 * 1024);
        age_entry(&soc, &format!("te_{i}"), ago(120 * MIN));
    }
    write_cann_entry(&soc, "te_sparse", 0);
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(soc.join("te_sparse.o"))
        .unwrap();
    f.set_len(1 << 30).unwrap();
    drop(f);
    age_entry(&soc, "te_sparse", ago(120 * MIN));
    let c = open(&d);
    let GcOutcome::Done(r) = c.gc(&GcOptions::default()).unwrap() else {
        panic!("skipped")
    };
    assert!(r.removed.is_empty(), "{r:?}");
    assert!(r.bytes_before < 2 * 1_048_576, "{r:?}");
}

#[test]
fn files_with_non_utf8_names_are_cleared_and_aged() {
    let t = cache_support::tmp();
    let d = dir(&t);
    let soc = d.kernel_cache().join("ascend910b");
    write_cann_entry(&soc, "te_a", 1024);
    let odd = soc.join(OsStr::from_bytes(b"te_\xff\xfe.o"));
    std::fs::write(&odd, vec![1u8; 4096]).unwrap();
    let c = open(&d);
    let v = c.verify(&NoProgress).unwrap();
    assert!(
        v.orphans.iter().any(|o| o.starts_with("ascend910b/te_")),
        "{v:?}"
    );
    // gc removes it once idle, like any orphan: half an hour on.
    let later = Cache::open(
        &d,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(2), 50),
            clock: Arc::new(cann_runtime::cache::ManualClock::new(ago(-31 * MIN))),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap();
    let GcOutcome::Done(r) = later.gc(&GcOptions::default()).unwrap() else {
        panic!("skipped")
    };
    assert!(
        r.removed.iter().any(|x| x.reason == Reason::Orphan),
        "{r:?}"
    );
    assert!(std::fs::symlink_metadata(&odd).is_err());
    // clear removes one at once.
    std::fs::write(&odd, vec![1u8; 4096]).unwrap();
    let rep = c.clear(&NoProgress).unwrap();
    assert!(std::fs::symlink_metadata(&odd).is_err(), "{rep:?}");
    assert!(!soc.exists(), "{rep:?}");
}

/// Threads sharing one handle (a parallel pull commits this way) lose no ledger update: the
/// ledger lock excludes them as it excludes other processes.
#[test]
fn threads_sharing_one_handle_lose_no_ledger_update() {
    let t = cache_support::tmp();
    let d = dir(&t);
    let c = open(&d);
    std::thread::scope(|s| {
        for th in 0..8u8 {
            let c = &c;
            s.spawn(move || {
                for i in 0..150 {
                    c.put(
                        &format!("soc/kernel_meta/te_{th}_{i}"),
                        &[th; 512],
                        ".o",
                        None,
                    )
                    .unwrap();
                }
            });
        }
    });
    let v = c.verify(&NoProgress).unwrap();
    assert_eq!(v.entries, 1200, "{v:?}");
    assert!(
        v.ledger_matches,
        "ledger {:?} vs disk {} bytes",
        v.ledger, v.bytes
    );
}

#[test]
fn verify_racing_a_deleting_cann_ager_reports_nothing_torn() {
    let t = cache_support::tmp();
    let d = dir(&t);
    let kc = d.kernel_cache();
    let soc = kc.join("ascend910b");
    let c = open(&d);
    let (mut overlapped, mut runs) = (0, 0);
    for round in 0..4 {
        let n = 1500u64;
        for i in 0..n {
            let stem = format!("te_{round}_{i:04}");
            cache_support::cann::write_entry(&soc, &stem, 2048);
            for ext in ["json", "o"] {
                cache_support::age_file(&soc.join(format!("{stem}.{ext}")), ago(120 * MIN));
            }
        }
        let now_secs = cann_runtime::cache::clock::system_now() / 1_000_000_000;
        let ager = {
            let kc = kc.clone();
            // A limit of 1 MB retaining 1 %: it deletes nearly every entry, manifest first.
            std::thread::spawn(move || cache_support::cann::age(&kc, 1 << 20, 1, now_secs, true))
        };
        while !ager.is_finished() {
            let v = c.verify(&NoProgress).unwrap();
            runs += 1;
            assert!(v.torn.is_empty(), "round {round}: {:?}", v.torn);
            if v.entries > 0 && v.entries < n {
                overlapped += 1;
            }
        }
        let run = ager.join().unwrap();
        assert!(run.aged && run.deleted_entries > 1000, "{run:?}");
    }
    assert!(
        overlapped > 0,
        "no verify ran while the ager deleted ({runs} runs)"
    );
}

#[test]
fn a_manifest_with_a_non_utf8_name_is_a_manifest_not_an_orphan() {
    let t = cache_support::tmp();
    let d = dir(&t);
    let soc = d.kernel_cache().join("ascend910b");
    write_cann_entry(&soc, "te_a", 1024);
    // CANN names files after kernels; a kernel name with a byte that is not UTF-8 gives a
    // manifest and a binary no `String` can name.
    let manifest = soc.join(OsStr::from_bytes(b"te_\xfe.json"));
    let binary = soc.join(OsStr::from_bytes(b"te_\xfe.o"));
    std::fs::write(&binary, vec![1u8; 4096]).unwrap();
    std::fs::write(
        &manifest,
        b"{\"binFileName\":\"te_\xfe\",\"binFileSuffix\":\".o\"}".as_slice(),
    )
    .unwrap();
    let c = open(&d);
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.orphans.is_empty(), "{v:?}");
    assert_eq!(v.raw_manifests.len(), 1, "{v:?}");
    assert!(v.raw_manifests[0].ends_with(".json"), "{v:?}");
    // gc counts both files and removes neither, however old: CANN's ager ages that entry.
    let later = Cache::open(
        &d,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(2), 50),
            clock: Arc::new(cann_runtime::cache::ManualClock::new(ago(-31 * MIN))),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap();
    let GcOutcome::Done(r) = later.gc(&GcOptions::default()).unwrap() else {
        panic!("skipped")
    };
    assert!(r.removed.is_empty(), "{r:?}");
    assert!(manifest.exists() && binary.exists());
    assert_eq!(
        r.bytes_after,
        cache_support::cann::size(&d.kernel_cache()),
        "{r:?}"
    );
}
