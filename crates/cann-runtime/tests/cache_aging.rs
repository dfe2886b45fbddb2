//! Aging rules: the 30-minute floor, LRU order, the retained share, dry runs, the start-up
//! check without a rescan, foreign CANN entries, and the relatime case the reference fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::cache::{
    reference, AgingNeed, GcOptions, GcOutcome, GcReport, NoProgress, Reason,
};

mod cache_support;
use cache_support::*;

const KB100: usize = 100 * 1024;
/// Entry binaries of 120 KiB: ten of them exceed 1 MiB.
const KB120: usize = 120 * 1024;

fn done(o: GcOutcome) -> GcReport {
    match o {
        GcOutcome::Done(r) => r,
        GcOutcome::Skipped => panic!("skipped"),
    }
}

fn aged(r: &GcReport) -> Vec<String> {
    r.removed
        .iter()
        .filter(|x| x.reason == Reason::Aged)
        .map(|x| x.rel.clone())
        .collect()
}

/// 10 entries of ~120 KiB = ~1.2 MiB against a 1 MB limit, retaining 50 %.
fn fill(c: &cann_runtime::cache::Cache, clock: &cann_runtime::cache::ManualClock) {
    for i in 0..10 {
        c.put(&format!("e{i}"), &vec![i as u8; KB120], ".o", None)
            .unwrap();
        clock.advance(MIN);
    }
}

#[test]
fn nothing_younger_than_thirty_minutes_is_removed() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(1), 50);
    fill(&c, &clock);
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::Yes);
    // Last entry put at t0+9min; now t0+10min. e0 is 10 minutes old: all are too young.
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert!(r.removed.is_empty() && r.stopped_by_floor, "{r:?}");
    // Exactly at the floor for e0 (accessed t0): 30 min is old enough; e1 (t0+1min) is not.
    clock.set(t0() + 30 * MIN);
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert_eq!(aged(&r), ["e0.json"]);
    assert!(r.stopped_by_floor);
    clock.set(t0() + 30 * MIN + MIN - 1);
    assert!(done(c.gc(&GcOptions::default()).unwrap())
        .removed
        .is_empty());
}

#[test]
fn least_recently_used_first_until_the_retained_share() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(1), 50);
    fill(&c, &clock);
    // Touch e0 and e1 late: they become the most recently used.
    clock.set(t0() + 40 * MIN);
    for k in ["e0", "e1"] {
        assert!(matches!(
            c.get(k).unwrap(),
            cann_runtime::cache::Lookup::Hit(_)
        ));
    }
    clock.set(t0() + 2 * 60 * MIN);
    let dry = done(
        c.gc(&GcOptions {
            dry_run: true,
            ..GcOptions::default()
        })
        .unwrap(),
    );
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert_eq!(aged(&dry), aged(&r), "a dry run predicts the real pass");
    // 1 MiB limit, 50 % kept: down to <= 524288 bytes, i.e. 6 of 10 entries of ~120 KiB go.
    assert_eq!(
        aged(&r),
        ["e2.json", "e3.json", "e4.json", "e5.json", "e6.json", "e7.json"]
    );
    assert!(
        r.bytes_after <= 524_288 && r.bytes_after + KB120 as u64 > 524_288,
        "{r:?}"
    );
    assert_eq!(r.target_bytes, Some(524_288));
    // Ledger reconciled: the start-up check now says no.
    let s = c.startup_check().unwrap();
    assert_eq!(
        (s.need, s.ledger.unwrap().total_bytes),
        (AgingNeed::No, r.bytes_after)
    );
    let v = c.verify(&NoProgress).unwrap();
    assert!(
        v.ledger_matches && v.orphans.is_empty() && !v.has_errors(),
        "{v:?}"
    );
}

#[test]
fn under_the_limit_nothing_ages() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(2), 50);
    fill(&c, &clock);
    clock.advance(DAY);
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert!(r.removed.is_empty() && !r.stopped_by_floor);
    // Aging off: nothing ages however large and old.
    let (off, clock) = manual(&d, None, 50);
    clock.advance(DAY);
    assert!(done(off.gc(&GcOptions::default()).unwrap())
        .removed
        .is_empty());
}

#[test]
fn startup_check_reads_only_the_ledger() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(1), 50);
    fill(&c, &clock);
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::Yes);
    // Remove every entry behind the cache's back: a check that rescanned would say "No".
    for e in std::fs::read_dir(kc(&d)).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::remove_file(p).unwrap();
        }
    }
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::Yes);
    // The next gc reconciles lazily: what is left is our 128-byte ledger (state files count,
    // as CANN's size scan counts them), an empty index and the one-line record of loose
    // files (none).
    done(c.gc(&GcOptions::default()).unwrap());
    let loose = std::fs::metadata(kc(&d).join(".cann-cache/loose"))
        .unwrap()
        .len();
    assert!(loose < 32, "{loose}");
    let s = c.startup_check().unwrap();
    assert_eq!(
        (
            s.need,
            s.ledger.unwrap().total_bytes,
            s.ledger.unwrap().entries
        ),
        (AgingNeed::No, 128 + loose, 0)
    );
}

#[test]
fn foreign_cann_entries_are_discovered_and_aged_as_units() {
    let t = tmp();
    let d = dir_of(&t);
    let soc = kc(&d).join("Ascend910B/kernel_meta");
    write_cann_entry(&soc, "te_old", KB100 * 6);
    write_mix_entry(&soc, "te_mix", KB100 * 3);
    write_cann_entry(&soc, "te_new", KB100 * 6);
    let (c, _) = manual(&d, Some(1), 50);
    // A directory filled by another tool: the ledger cannot vouch for it.
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::Unknown);
    age_entry(&soc, "te_old", t0() - 3 * DAY);
    age_entry(&soc, "te_mix", t0() - 2 * DAY);
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert_eq!(r.discovered, 3);
    // Oldest first; the mixed kernel goes whole (manifest, parts, binaries); the young entry
    // stays although the cache is still above the retained share.
    let removed: Vec<_> = r
        .removed
        .iter()
        .map(|x| x.rel.rsplit('/').next().unwrap().to_owned())
        .collect();
    assert_eq!(removed, ["te_old.json", "te_mix.json"], "{r:?}");
    assert!(r.stopped_by_floor);
    let mut left: Vec<_> = std::fs::read_dir(&soc)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["te_new.json", "te_new.o"]);
    // Above the retained share but below the limit: no aging needed at the next start.
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::No);
}

#[test]
fn on_a_relatime_mount_aging_frees_what_the_rules_say_and_the_reference_frees_nothing() {
    // The test directory lives on the machine's root file system, mounted relatime. An entry
    // untouched for days has an atime more than 24 h old, so any read moves it.
    let t = tmp();
    let d = dir_of(&t);
    let now = cann_runtime::cache::clock::system_now();
    let build = |dir: &std::path::Path| {
        for i in 0..8 {
            write_cann_entry(dir, &format!("te_{i}"), KB100 * 2);
            age_entry(dir, &format!("te_{i}"), now - (10 - i) * DAY);
        }
    };
    // Reference first, on its own copy.
    let ref_dir = t.path().join("ref/kernel_cache");
    build(&ref_dir);
    let out = reference::run(&ref_dir, 1_048_576, 50, now / 1_000_000_000).unwrap();
    assert!(out.aging_ran);
    let relatime = out.deleted_entries == 0;
    // Ours, on an identical copy.
    build(&kc(&d));
    let c = open_with(
        &d,
        std::sync::Arc::new(cann_runtime::cache::SystemClock),
        Some(1),
        50,
    );
    let r = done(c.gc(&GcOptions::default()).unwrap());
    // 8 x ~200 KiB = ~1.6 MiB; keep <= 512 KiB: the 6 oldest go, oldest first.
    assert_eq!(
        aged(&r).iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        [
            "te_0.json",
            "te_1.json",
            "te_2.json",
            "te_3.json",
            "te_4.json",
            "te_5.json"
        ]
    );
    if mount_options(t.path()).split(',').any(|o| o == "relatime") {
        assert!(
            relatime,
            "on relatime the reference's re-stat check must fail: {out:?}"
        );
    }
}

/// Mount options of the file system holding `path`, from /proc/self/mountinfo.
fn mount_options(path: &std::path::Path) -> String {
    let info = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let path = path.canonicalize().unwrap();
    let mut best = (0, String::new());
    for line in info.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        if f.len() > 5 && path.starts_with(f[4]) && f[4].len() >= best.0 {
            best = (f[4].len(), f[5].to_owned());
        }
    }
    best.1
}

#[test]
fn process_start_ages_in_the_background_without_waiting() {
    let t = tmp();
    let d = dir_of(&t);
    let soc = kc(&d).join("soc");
    for i in 0..12 {
        write_cann_entry(&soc, &format!("te_{i}"), KB100);
        age_entry(
            &soc,
            &format!("te_{i}"),
            cann_runtime::cache::clock::system_now() - DAY,
        );
    }
    let c = std::sync::Arc::new(open_with(
        &d,
        std::sync::Arc::new(cann_runtime::cache::SystemClock),
        Some(1),
        50,
    ));
    // Unknown (never reconciled): a background pass is started and the caller goes on.
    let handle = c.age_in_background().unwrap().expect("a pass is needed");
    assert!(matches!(
        c.get("soc/te_11").unwrap(),
        cann_runtime::cache::Lookup::Hit(_) | cann_runtime::cache::Lookup::Miss(_)
    ));
    let r = done(handle.join().unwrap().unwrap());
    assert!(!aged(&r).is_empty());
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::No);
    assert!(c.age_in_background().unwrap().is_none());
}
