//! Resident memory really drops after decommit on the real backend.
//!
//! Alone in its own test binary so the whole-process figure from
//! /proc/self/statm is not disturbed by other tests allocating in parallel.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::memory::{CleanTarget, HostBackend, MemoryBackend, PageSize};

const MIB: u64 = 1 << 20;

/// Resident bytes of the mappings inside `[start, start + len)`, from smaps.
/// mprotect splits a reservation into several VMAs, so all of them are summed.
fn rss_of_range(start: u64, len: u64) -> u64 {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let mut inside = false;
    let mut total = 0;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((a, b)) = first.split_once('-') {
            if let (Ok(a), Ok(b)) = (u64::from_str_radix(a, 16), u64::from_str_radix(b, 16)) {
                inside = a >= start && b <= start + len;
                continue;
            }
        }
        if inside {
            if let Some(kb) = line.strip_prefix("Rss:") {
                let kb: u64 = kb.trim().trim_end_matches("kB").trim().parse().unwrap();
                total += kb * 1024;
            }
        }
    }
    total
}

/// Whole-process resident bytes from /proc/self/statm.
fn rss_total() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * rustix_page()
}

fn rustix_page() -> u64 {
    HostBackend::new().page_bytes(PageSize::Base)
}

#[test]
fn decommit_really_drops_resident_memory() {
    let mut b = HostBackend::new();
    let r = b.reserve(64 * MIB).unwrap();
    assert_eq!(
        rss_of_range(r.addr(), r.len()),
        0,
        "a reservation costs no memory"
    );
    b.commit(&r, 0, 32 * MIB).unwrap();
    let before = rss_total();
    // Cleaning touches every page, as a graph's first write would.
    b.fill_zero(CleanTarget::Reservation(&r), 0, 32 * MIB)
        .unwrap();
    let touched = rss_of_range(r.addr(), r.len());
    assert!(touched >= 32 * MIB, "resident after touch: {touched}");
    let grown = rss_total();
    assert!(grown >= before + 24 * MIB, "statm: {before} -> {grown}");
    b.decommit(&r, 0, 32 * MIB).unwrap();
    assert_eq!(
        rss_of_range(r.addr(), r.len()),
        0,
        "decommit returns the pages"
    );
    let after = rss_total();
    assert!(after + 24 * MIB <= grown, "statm: {grown} -> {after}");
    assert_eq!(b.usage().committed_bytes, 0);
    b.release(r).unwrap();
}
