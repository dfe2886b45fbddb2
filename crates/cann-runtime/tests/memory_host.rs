//! The real mmap backend: resident memory really drops after decommit, huge
//! pages are asked of the kernel for real (on a machine without reserved huge
//! pages the fallback and error paths run), and the policies run on it.
//! Nothing here changes system huge-page settings.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::memory::{
    ArenaConfig, AtomicCleanPolicy, BackendError, Block, CleanTarget, ExpandableArena, HostBackend,
    HugePageError, MemoryBackend, MemsetOutput, PageSize, Reservation, SessionConfig,
    SessionMemory, StaticGraph, StaticMemoryPolicy as P, VariableMemory, VariableUse1gHugePage,
};

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

#[test]
fn arena_free_gives_pages_back_on_the_real_backend() {
    let mut b = HostBackend::new();
    let cfg = ArenaConfig {
        reserve_bytes: 256 * MIB,
        ..ArenaConfig::default()
    };
    let mut arena = ExpandableArena::new(&mut b, cfg).unwrap();
    let a = arena.alloc(&mut b, 16 * MIB).unwrap();
    let keep = arena.alloc(&mut b, MIB).unwrap();
    b.fill_zero(
        CleanTarget::Reservation(arena.reservation()),
        a.offset(),
        a.len(),
    )
    .unwrap();
    let r = (arena.reservation().addr(), arena.reservation().len());
    assert!(rss_of_range(r.0, r.1) >= 16 * MIB);
    arena.free(&mut b, a).unwrap();
    // Only the page shared with `keep` (2 MiB) may stay resident.
    assert!(rss_of_range(r.0, r.1) <= 2 * MIB);
    assert_eq!(arena.stats().committed_bytes, 2 * MIB);
    arena.free(&mut b, keep).unwrap();
    assert_eq!(rss_of_range(r.0, r.1), 0);
    arena.release(&mut b).unwrap();
}

#[test]
fn writes_outside_usable_memory_and_foreign_handles_are_refused() {
    let mut b = HostBackend::new();
    let r = b.reserve(4 * MIB).unwrap();
    let err = b
        .fill_zero(CleanTarget::Reservation(&r), 0, 4096)
        .unwrap_err();
    assert!(
        matches!(err, BackendError::OutOfRange { .. }),
        "uncommitted: no fault, an error"
    );
    assert!(matches!(
        b.commit(&r, 1, 4096),
        Err(BackendError::Misaligned { .. })
    ));
    assert!(matches!(
        b.commit(&r, 0, 8 * MIB),
        Err(BackendError::OutOfRange { .. })
    ));
    let forged = Block::new(999, r.addr(), 4096, PageSize::Base);
    assert_eq!(b.free(forged), Err(BackendError::UnknownHandle { id: 999 }));
    let forged = Reservation::new(r.id(), r.addr() + 4096, r.len());
    assert!(matches!(
        b.release(forged),
        Err(BackendError::UnknownHandle { .. })
    ));
    let blk = b.allocate(10, PageSize::Base).unwrap();
    assert!(b.fill_zero(CleanTarget::Block(&blk), 4000, 200).is_err());
    b.fill_zero(CleanTarget::Block(&blk), 0, blk.len()).unwrap();
    b.free(blk).unwrap();
    b.release(r).unwrap();
}

/// Free huge pages of a size, and whether the kernel may create surplus ones.
fn huge_pages_possible(kb: u64) -> bool {
    let dir = format!("/sys/kernel/mm/hugepages/hugepages-{kb}kB");
    let read = |f: &str| {
        std::fs::read_to_string(format!("{dir}/{f}"))
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    read("free_hugepages") > 0 || read("nr_overcommit_hugepages") > 0
}

#[test]
fn huge_page_requests_go_to_the_kernel() {
    // Which outcome depends on the machine; either must be a value, never an abort.
    let mut b = HostBackend::new();
    for (page, kb) in [(PageSize::Huge2M, 2048), (PageSize::Huge1G, 1 << 20)] {
        match b.allocate(1, page) {
            Ok(blk) => {
                assert_eq!(blk.len(), kb * 1024);
                b.free(blk).unwrap();
            }
            Err(BackendError::HugePagesUnavailable { errno, .. }) => {
                assert!(errno == 12 || errno == 22, "ENOMEM or EINVAL, got {errno}");
            }
            Err(e) => panic!("unexpected {e}"),
        }
    }
}

#[test]
fn huge_page_ladder_on_real_memory() {
    let g1 = huge_pages_possible(1 << 20);
    let m2 = huge_pages_possible(2048);
    let mut b = HostBackend::new();
    let mut v = VariableMemory::new(VariableUse1gHugePage::Require1g);
    match v.allocate(&mut b, MIB) {
        Ok(blk) => b.free(blk).unwrap(),
        Err(HugePageError::Unavailable { tried, .. }) => {
            assert!(!g1, "1 GiB pages were available yet refused");
            assert_eq!(tried.len(), 1);
        }
        Err(e) => panic!("unexpected {e}"),
    }
    let mut v = VariableMemory::new(VariableUse1gHugePage::Prefer1g);
    match v.allocate(&mut b, MIB) {
        Ok(blk) => {
            assert_eq!(blk.len(), 1 << 30, "same 1 GiB granularity on either rung");
            assert_eq!(v.is_downgraded(), blk.page_size() == PageSize::Huge2M);
            b.free(blk).unwrap();
        }
        Err(HugePageError::Unavailable { tried, .. }) => {
            assert!(!(g1 && m2));
            assert!(v.is_downgraded(), "sticky downgrade after 1 GiB failed");
            assert_eq!(
                tried.iter().map(|t| t.0).collect::<Vec<_>>(),
                [PageSize::Huge1G, PageSize::Huge2M]
            );
        }
        Err(e) => panic!("unexpected {e}"),
    }
    // Default pages always work.
    let mut v = VariableMemory::new(VariableUse1gHugePage::DefaultPages);
    let blk = v.allocate(&mut b, MIB).unwrap();
    b.free(blk).unwrap();
}

#[test]
fn a_policy_4_session_runs_on_real_memory() {
    let cfg = SessionConfig {
        atomic_clean: AtomicCleanPolicy::Separate,
        arena: ArenaConfig {
            reserve_bytes: 256 * MIB,
            ..ArenaConfig::default()
        },
        ..SessionConfig::new(P::AllShapeExpand)
    };
    let mut s = SessionMemory::new(HostBackend::new(), cfg).unwrap();
    let g = s.register_static(&StaticGraph {
        name: "train".into(),
        feature_map_bytes: 8 * MIB,
        memset_outputs: vec![MemsetOutput {
            size: MIB,
            producer: 0,
            end: 2,
        }],
    });
    let d = s.register_dynamic();
    for _ in 0..3 {
        let e = s.begin(g).unwrap();
        s.end(e).unwrap();
        let e = s.begin(d).unwrap();
        let t = s.alloc(e, 6 * MIB).unwrap();
        s.alloc(e, 3 * MIB).unwrap();
        s.free(e, t).unwrap();
        s.end(e).unwrap();
    }
    let st = s.stats();
    assert_eq!(st.clean_ops, 3);
    assert_eq!(st.peak_reserved_bytes, 10 * MIB);
    assert_eq!(st.reserved_bytes, 0);
    let backend = s.close().unwrap();
    assert_eq!(backend.usage().reserved_address_bytes, 0);
}
