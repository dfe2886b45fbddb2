//! Put/get, atomic commit under injected faults, `force` with concurrent readers, and access
//! recency stamped explicitly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use cann_runtime::cache::{
    AgingNeed, Cache, CommitStep, ExactCommit, ExactEntry, GcOptions, GcOutcome, Limits, Lookup,
    MaxSize, Miss, NoProgress, OpenOptions, Reason,
};

mod cache_support;
use cache_support::*;

fn hit(c: &Cache, key: &str) -> Vec<u8> {
    match c.get(key).unwrap() {
        Lookup::Hit(e) => e.binaries[0].1.clone(),
        other => panic!("expected a hit for {key}, got {other:?}"),
    }
}

#[test]
fn put_get_round_trip_and_layout() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, _) = manual(&d, Some(500), 50);
    assert_eq!(
        c.get("Ascend910B/kernel_meta/te_add_1").unwrap(),
        Lookup::Miss(Miss::Absent)
    );
    let out = c
        .put("Ascend910B/kernel_meta/te_add_1", b"ELF...", ".o", None)
        .unwrap();
    assert!(!out.over_limit);
    assert_eq!(hit(&c, "Ascend910B/kernel_meta/te_add_1"), b"ELF...");
    // CANN layout: the manifest names its binary by binFileName + binFileSuffix.
    let mpath = kc(&d).join("Ascend910B/kernel_meta/te_add_1.json");
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(&mpath).unwrap()).unwrap();
    let bin = format!(
        "{}{}",
        m["binFileName"].as_str().unwrap(),
        m["binFileSuffix"].as_str().unwrap()
    );
    assert_eq!(
        std::fs::read(kc(&d).join("Ascend910B/kernel_meta").join(bin)).unwrap(),
        b"ELF..."
    );
    let s = c.startup_check().unwrap();
    assert_eq!(s.need, AgingNeed::No);
    // The entry, plus our state files (CANN's size scan counts them, so we do too).
    let state: u64 = std::fs::read_dir(kc(&d).join(".cann-cache"))
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert_eq!(s.ledger.unwrap().total_bytes, out.bytes + state);
    let v = c.verify(&NoProgress).unwrap();
    assert!(
        !v.has_errors() && v.orphans.is_empty() && v.temporaries.is_empty() && v.ledger_matches,
        "{v:?}"
    );
}

#[test]
fn reads_real_cann_entries_including_mixed_kernels() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, _) = manual(&d, Some(500), 50);
    write_cann_entry(&kc(&d).join("soc"), "te_mul_9", 10);
    write_mix_entry(&kc(&d).join("soc"), "te_mix_3", 5);
    assert_eq!(hit(&c, "soc/te_mul_9"), vec![7u8; 10]);
    match c.get("soc/te_mix_3").unwrap() {
        Lookup::Hit(e) => assert_eq!(
            e.binaries.iter().map(|b| b.0.as_str()).collect::<Vec<_>>(),
            ["te_mix_3_mix_aic.o", "te_mix_3_mix_aiv.o"]
        ),
        other => panic!("{other:?}"),
    }
    // Parts are not entries.
    assert!(c.get("soc/te_mix_3_mix_aic").is_err());
    let v = c.verify(&NoProgress).unwrap();
    assert_eq!((v.entries, v.orphans.len()), (2, 0), "{v:?}");
}

#[test]
fn replacing_an_entry_reclaims_the_old_binary_at_once_and_readers_find_the_new_one() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(500), 50);
    c.put("k", b"v1", ".o", None).unwrap();
    let old_manifest = std::fs::read(kc(&d).join("k.json")).unwrap();
    // A reader holding the old manifest open (as `get` does between its two reads) keeps
    // its bytes; unlinking never takes data from an open file.
    let held = std::fs::File::open(kc(&d).join("k.json")).unwrap();
    clock.advance(MIN);
    c.put("k", b"v2", ".o", None).unwrap();
    assert_eq!(hit(&c, "k"), b"v2");
    // No manifest names the old binary any more: it is gone, not an orphan for 30 minutes.
    let m: serde_json::Value = serde_json::from_slice(&old_manifest).unwrap();
    let old_bin = format!("{}.o", m["binFileName"].as_str().unwrap());
    assert!(!kc(&d).join(&old_bin).exists());
    drop(held);
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.orphans.is_empty() && v.ledger_matches, "{v:?}");
    let GcOutcome::Done(r) = c.gc(&GcOptions::default()).unwrap() else {
        panic!()
    };
    assert!(r.removed.is_empty(), "{r:?}");
    assert_eq!(hit(&c, "k"), b"v2");
}

#[test]
fn force_never_breaks_a_concurrent_reader() {
    let t = tmp();
    let d = dir_of(&t);
    let (reader, clock) = manual(&d, Some(500), 50);
    reader.put("op/a", b"A", ".o", None).unwrap();
    reader.put("op/b", b"B", ".o", None).unwrap();
    clock.advance(MIN);
    // Another process starts in force mode.
    let forcer = open_with(&d, Arc::new(clock.clone()), Some(500), 50);
    forcer.invalidate_all().unwrap();
    assert_eq!(forcer.get("op/a").unwrap(), Lookup::Miss(Miss::Invalidated));
    // The reader that was already running keeps its entries: nothing was deleted.
    assert_eq!(hit(&reader, "op/a"), b"A");
    clock.advance(SECOND_NS);
    forcer.put("op/a", b"A2", ".o", None).unwrap();
    assert_eq!(hit(&reader, "op/a"), b"A2");
    assert_eq!(hit(&reader, "op/b"), b"B");
    // gc (even right away) does not remove invalidated entries that were used recently.
    let GcOutcome::Done(r) = forcer.gc(&GcOptions::default()).unwrap() else {
        panic!()
    };
    assert!(
        r.removed.iter().all(|x| x.reason != Reason::Invalidated),
        "{r:?}"
    );
    // After the reader stops and the floor passes, they go.
    clock.advance(31 * MIN);
    let GcOutcome::Done(r) = forcer.gc(&GcOptions::default()).unwrap() else {
        panic!()
    };
    assert!(
        r.removed
            .iter()
            .any(|x| x.rel == "op/b.json" && x.reason == Reason::Invalidated),
        "{r:?}"
    );
    assert_eq!(hit(&forcer, "op/a"), b"A2");
    // A reader that refreshes adopts the epoch.
    reader.refresh().unwrap();
    assert_eq!(reader.get("op/b").unwrap(), Lookup::Miss(Miss::Absent));
}

const SECOND_NS: i64 = 1_000_000_000;

#[test]
fn hits_stamp_atime_explicitly_and_minus_one_stops_it() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(500), 50);
    c.put("k", b"x", ".o", None).unwrap();
    let m = kc(&d).join("k.json");
    age_file(&m, t0() - 3 * DAY);
    clock.set(t0() + 5 * MIN);
    hit(&c, "k");
    // Set explicitly: independent of relatime/noatime, visible to any tool that reads atime.
    assert_eq!(atime_of(&m), t0() + 5 * MIN);
    // Our own full reads (verify, info) do not move it.
    age_file(&m, t0() - 3 * DAY);
    c.verify(&NoProgress).unwrap();
    c.info(&NoProgress).unwrap();
    assert_eq!(atime_of(&m), t0() - 3 * DAY);
    // max_op_cache_size = -1: no access-time updates.
    let off = Cache::open(
        &d,
        OpenOptions {
            limits: Limits::fixed(MaxSize::AgingOff, 50),
            clock: Arc::new(clock.clone()),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap();
    hit(&off, "k");
    assert_eq!(atime_of(&m), t0() - 3 * DAY);
    assert_eq!(off.startup_check().unwrap().need, AgingNeed::Off);
}

fn open_faulty(d: &cann_runtime::cache::CacheDir, at: CommitStep, armed: Arc<AtomicBool>) -> Cache {
    let hook: cann_runtime::cache::FaultHook =
        Arc::new(move |s| !(s == at && armed.load(Ordering::SeqCst)));
    Cache::open(
        d,
        OpenOptions {
            limits: Limits::fixed(MaxSize::Mb(500), 50),
            clock: Arc::new(cann_runtime::cache::ManualClock::new(t0())),
            durable: true,
            fault_hook: Some(hook),
        },
    )
    .unwrap()
}

#[test]
fn a_commit_interrupted_at_any_step_never_shows_a_torn_entry() {
    for step in [
        CommitStep::BinWritten,
        CommitStep::BinRenamed,
        CommitStep::ManifestWritten,
        CommitStep::Committed,
    ] {
        let t = tmp();
        let d = dir_of(&t);
        let armed = Arc::new(AtomicBool::new(false));
        let c = open_faulty(&d, step, armed.clone());
        c.put("k", b"first", ".o", None).unwrap();
        armed.store(true, Ordering::SeqCst);
        assert!(
            c.put("k", b"second-longer", ".o", None).is_err(),
            "{step:?}"
        );
        let got = hit(&c, "k");
        let want: &[u8] = if step == CommitStep::Committed {
            b"second-longer"
        } else {
            b"first"
        };
        assert_eq!(got, want, "{step:?}");
        let v = c.verify(&NoProgress).unwrap();
        assert!(!v.has_errors(), "{step:?}: {v:?}");
        // A fresh key interrupted before its commit is simply absent.
        assert!(c.put("fresh", b"x", ".o", None).is_err());
        if step == CommitStep::Committed {
            assert_eq!(hit(&c, "fresh"), b"x");
        } else {
            assert_eq!(
                c.get("fresh").unwrap(),
                Lookup::Miss(Miss::Absent),
                "{step:?}"
            );
        }
    }
}

#[test]
fn over_limit_is_reported_but_puts_never_block() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, _) = manual(&d, Some(1), 50);
    let mut over = false;
    for i in 0..5 {
        over = c
            .put(&format!("k{i}"), &vec![0u8; 300_000], ".o", None)
            .unwrap()
            .over_limit;
    }
    assert!(over);
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::Yes);
    for i in 0..5 {
        hit(&c, &format!("k{i}"));
    }
}

#[test]
fn remove_takes_a_mixed_kernel_whole_parts_and_their_binaries() {
    let t = tmp();
    let d = dir_of(&t);
    let soc = kc(&d).join("ascend910b");
    write_mix_entry(&soc, "te_mix", 2048);
    write_cann_entry(&soc, "te_keep", 1024);
    let (c, _clock) = manual(&d, Some(100), 50);
    c.gc(&GcOptions::default()).unwrap();
    assert!(c.remove("ascend910b/te_mix").unwrap());
    let left: Vec<String> = std::fs::read_dir(&soc)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        left.iter().all(|n| n.starts_with("te_keep")),
        "remove left {left:?}"
    );
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.orphans.is_empty() && v.ledger_matches, "{v:?}");
}

#[test]
fn a_pull_over_a_torn_mixed_kernel_reclaims_every_part_it_can_name() {
    // A pull replaces a torn local entry through the same reclaim as `remove`: a mixed
    // kernel that lost one part's manifest still has its other part and that part's binary
    // named, and they go with it instead of staying behind unreferenced.
    let t = tmp();
    let d = dir_of(&t);
    let soc = kc(&d).join("ascend910b");
    write_mix_entry(&soc, "te_mix", 2048);
    std::fs::remove_file(soc.join("te_mix_mix_aiv.json")).unwrap();
    std::fs::remove_file(soc.join("te_mix_mix_aiv.o")).unwrap();
    let (c, _clock) = manual(&d, Some(100), 50);
    let pulled = ExactEntry {
        manifest: br#"{"binFileName":"te_mix","binFileSuffix":".o","kernelName":"te_mix"}"#
            .to_vec(),
        files: std::collections::BTreeMap::from([("te_mix.o".to_owned(), vec![7u8; 512])]),
    };
    let got = c.commit_exact("ascend910b/te_mix", &pulled).unwrap();
    assert!(matches!(got, ExactCommit::Committed(_)), "{got:?}");
    let mut left: Vec<String> = std::fs::read_dir(&soc)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["te_mix.json", "te_mix.o"], "the pull left {left:?}");
    let v = c.verify(&NoProgress).unwrap();
    assert!(v.orphans.is_empty() && !v.has_errors(), "{v:?}");
}
