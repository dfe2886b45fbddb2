//! What the start-up check and gc count, against what CANN counts: a binary CANN rewrote in
//! place (no directory time moves), a count that has grown old, and the first pass over a
//! cache nobody indexed at a retained share of 100 %.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::cache::{AgingNeed, GcOptions, GcOutcome, GcReport, NoProgress, BLIND_BOUND};

mod cache_support;
use cache_support::*;

const MB: u64 = 1_048_576;

fn done(o: GcOutcome) -> GcReport {
    match o {
        GcOutcome::Done(r) => r,
        GcOutcome::Skipped => panic!("skipped"),
    }
}

/// `n` CANN-style entries of `size` bytes in `kernel_cache/ascend910b`, last used a day ago.
fn populate(dir: &cann_runtime::cache::CacheDir, n: usize, size: usize) -> Vec<String> {
    let soc = kc(dir).join("ascend910b");
    (0..n)
        .map(|i| {
            let stem = format!("te_op_{i:04}");
            cache_support::cann::write_entry(&soc, &stem, size);
            for ext in ["json", "o"] {
                age_file(&soc.join(format!("{stem}.{ext}")), t0() - DAY + i as i64);
            }
            stem
        })
        .collect()
}

/// Overwrites a surviving entry's binary in place, as CANN's compiler does when it
/// recompiles: same name, no directory time moves.
fn rewrite_in_place(dir: &cann_runtime::cache::CacheDir, bytes: usize) {
    let soc = kc(dir).join("ascend910b");
    let survivor = std::fs::read_dir(&soc)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "o"))
        .expect("an entry survived");
    let before = std::fs::metadata(&soc).unwrap().modified().unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&survivor)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &vec![9u8; bytes]))
        .unwrap();
    assert_eq!(std::fs::metadata(&soc).unwrap().modified().unwrap(), before);
}

#[test]
fn a_binary_rewritten_in_place_after_gc_is_seen_by_the_startup_check() {
    // The reproduction: 320 entries, 8 MB limit, 50 %.
    let t = tmp();
    let d = dir_of(&t);
    populate(&d, 320, 40 * 1024);
    let (c, _clock) = manual(&d, Some(8), 50);
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert!(r.bytes_after <= 4 * MB, "{r:?}");
    let s = c.startup_check().unwrap();
    assert_eq!(s.need, AgingNeed::No, "{s:?}");
    assert!(!s.blind_to_rewrites && s.files_checked > 0, "{s:?}");
    rewrite_in_place(&d, 6 * MB as usize);
    assert!(cache_support::cann::size(&kc(&d)) > 8 * MB);
    let s = c.startup_check().unwrap();
    assert_eq!(s.need, AgingNeed::Yes, "{s:?}");
    assert!(s.known_bytes.unwrap() > 8 * MB, "{s:?}");
    // `info` says the same, from the ledger.
    let i = c.info(&NoProgress).unwrap();
    assert_eq!(i.startup.need, AgingNeed::Yes, "{i:?}");
}

#[test]
fn a_cache_too_large_to_sweep_answers_unknown_once_its_count_is_old() {
    let t = tmp();
    let d = dir_of(&t);
    // More indexed files than the start-up check sizes: it cannot see a rewrite in place.
    let n = cann_runtime::cache::SWEEP_MAX_FILES as usize / 2 + 50;
    populate(&d, n, 512);
    let (c, clock) = manual(&d, Some(8), 50);
    done(c.gc(&GcOptions::default()).unwrap());
    rewrite_in_place(&d, 9 * MB as usize);
    let s = c.startup_check().unwrap();
    // Young count: "no", with what it cannot see and how old its count is.
    assert_eq!(s.need, AgingNeed::No, "{s:?}");
    assert!(s.blind_to_rewrites && s.files_checked == 0, "{s:?}");
    assert_eq!(s.age_ns, Some(0), "{s:?}");
    clock.advance(BLIND_BOUND + MIN);
    let s = c.startup_check().unwrap();
    assert_eq!(s.need, AgingNeed::Unknown, "{s:?}");
    assert_eq!(s.age_ns, Some(BLIND_BOUND + MIN), "{s:?}");
    // The pass the "unknown" starts finds the rewrite.
    let r = done(c.gc(&GcOptions::default()).unwrap());
    assert!(r.bytes_before > 8 * MB, "{r:?}");
}

#[test]
fn info_that_counts_the_cache_over_its_limit_says_yes() {
    let t = tmp();
    let d = dir_of(&t);
    let (c, _clock) = manual(&d, Some(1), 50);
    done(c.gc(&GcOptions::default()).unwrap());
    // CANN writes 2 MB of new entries: the ledger cannot vouch, a walk counts them.
    populate(&d, 32, 64 * 1024);
    assert_eq!(c.startup_check().unwrap().need, AgingNeed::Unknown);
    let i = c.info(&NoProgress).unwrap();
    assert!(i.bytes > MB, "{i:?}");
    assert_eq!(i.startup.need, AgingNeed::Yes, "{i:?}");
}

#[test]
fn the_first_gc_at_ratio_100_ends_at_or_below_the_limit_as_cann_counts() {
    let t = tmp();
    let d = dir_of(&t);
    // 320 entries nobody indexed, 8 KiB each: 2.5 MiB against a 2 MiB limit kept whole.
    populate(&d, 320, 8 * 1024);
    let (c, _clock) = manual(&d, Some(2), 100);
    let r = done(c.gc(&GcOptions::default()).unwrap());
    let cann = cache_support::cann::size(&kc(&d));
    assert!(cann < 2 * MB, "CANN counts {cann} B after our pass: {r:?}");
    assert_eq!(r.bytes_after, cann, "{r:?}");
    // Within one entry of the limit, not far below it.
    assert!(cann + 9 * 1024 + 200 >= 2 * MB, "{cann}: {r:?}");
    // The next start-up's CANN scan finds nothing to do, and neither does ours.
    let again = done(c.gc(&GcOptions::default()).unwrap());
    assert!(again.removed.is_empty(), "{again:?}");
}
