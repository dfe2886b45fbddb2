//! Injected failures: the huge-page ladder's success and fallback paths, and
//! allocation failures that must leave everything as it was.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::memory::{
    ArenaConfig, BackendError, CountingBackend, FaultInjecting, GrowthMode, HugePageError,
    HugePageEvent, MemoryBackend, MemoryError, PageSize, SessionConfig, SessionError,
    SessionMemory, StaticGraph, StaticMemoryPolicy as P, VariableMemory,
    VariableUse1gHugePage as H,
};

const GIB: u64 = 1 << 30;
const MIB: u64 = 1 << 20;

#[test]
fn policy_0_uses_default_pages_at_default_granularity() {
    let mut b = CountingBackend::new();
    let mut v = VariableMemory::new(H::DefaultPages);
    let blk = v.allocate(&mut b, 5000).unwrap();
    assert_eq!((blk.page_size(), blk.len()), (PageSize::Base, 8192));
}

#[test]
fn policy_1_gets_1g_pages_when_available() {
    let mut b = CountingBackend::new();
    let mut v = VariableMemory::new(H::Require1g);
    let blk = v.allocate(&mut b, 3 * MIB).unwrap();
    assert_eq!((blk.page_size(), blk.len()), (PageSize::Huge1G, GIB));
    v.free(&mut b, blk).unwrap();
}

#[test]
fn policy_1_fails_with_a_typed_error_without_1g_pages() {
    let mut b = FaultInjecting::new(CountingBackend::new()).unavailable(PageSize::Huge1G);
    let mut v = VariableMemory::new(H::Require1g);
    let err = v.allocate(&mut b, 3 * MIB).unwrap_err();
    assert_eq!(
        err,
        HugePageError::Unavailable {
            policy: 1,
            len: 3 * MIB,
            tried: vec![(PageSize::Huge1G, 12)]
        }
    );
    assert!(!v.is_downgraded());
    assert_eq!(b.usage().allocated_bytes, 0);
}

#[test]
fn policy_2_prefers_1g_pages() {
    let mut b = CountingBackend::new();
    let mut v = VariableMemory::new(H::Prefer1g);
    let blk = v.allocate(&mut b, GIB + 1).unwrap();
    assert_eq!((blk.page_size(), blk.len()), (PageSize::Huge1G, 2 * GIB));
    assert!(v.events().is_empty());
}

#[test]
fn policy_2_falls_back_to_2m_pages_at_the_same_granularity_and_stays_there() {
    let mut b = FaultInjecting::new(CountingBackend::new()).unavailable(PageSize::Huge1G);
    let mut v = VariableMemory::new(H::Prefer1g);
    let blk = v.allocate(&mut b, 3 * MIB).unwrap();
    assert_eq!((blk.page_size(), blk.len()), (PageSize::Huge2M, GIB));
    assert!(v.is_downgraded());
    assert_eq!(
        v.events(),
        &[HugePageEvent::Downgraded {
            len: 3 * MIB,
            errno: 12
        }]
    );
    assert_eq!(b.injected(), 1);
    // Sticky: the next request goes straight to 2 MiB pages.
    let blk2 = v.allocate(&mut b, 10).unwrap();
    assert_eq!(blk2.page_size(), PageSize::Huge2M);
    assert_eq!(b.injected(), 1, "1 GiB pages not tried again");
    assert_eq!(v.current_page(), PageSize::Huge2M);
}

#[test]
fn policy_2_fails_when_neither_size_is_available() {
    let mut b = FaultInjecting::new(CountingBackend::new())
        .unavailable(PageSize::Huge1G)
        .unavailable(PageSize::Huge2M);
    let mut v = VariableMemory::new(H::Prefer1g);
    let err = v.allocate(&mut b, MIB).unwrap_err();
    assert_eq!(
        err,
        HugePageError::Unavailable {
            policy: 2,
            len: MIB,
            tried: vec![(PageSize::Huge1G, 12), (PageSize::Huge2M, 12)]
        }
    );
    // Once downgraded, a later failure names only the 2 MiB attempt.
    let err = v.allocate(&mut b, MIB).unwrap_err();
    assert!(
        matches!(err, HugePageError::Unavailable { ref tried, .. } if tried == &[(PageSize::Huge2M, 12)])
    );
}

#[test]
fn plain_out_of_memory_passes_through_the_ladder() {
    let mut b = FaultInjecting::new(CountingBackend::new()).fail_after(0);
    let mut v = VariableMemory::new(H::Prefer1g);
    let err = v.allocate(&mut b, MIB).unwrap_err();
    assert_eq!(
        err,
        HugePageError::Backend(BackendError::OutOfMemory { len: GIB })
    );
    assert!(!v.is_downgraded(), "OOM is not 'huge pages unavailable'");
}

#[test]
fn session_variables_use_the_ladder() {
    let backend = FaultInjecting::new(CountingBackend::new()).unavailable(PageSize::Huge1G);
    let cfg = SessionConfig {
        huge_pages: H::Prefer1g,
        ..SessionConfig::new(P::Dynamic)
    };
    let mut s = SessionMemory::new(backend, cfg).unwrap();
    let v = s.alloc_variable(100 * MIB).unwrap();
    assert!(s.variables().is_downgraded());
    assert_eq!(s.stats().live_bytes, 100 * MIB);
    assert_eq!(s.stats().reserved_bytes, GIB);
    s.free_variable(v).unwrap();
    assert_eq!(s.stats().reserved_bytes, 0);
}

#[test]
fn failed_commit_rolls_back_and_the_arena_keeps_working() {
    // One reserve for the arena, one commit for the first tensor, then failure.
    let backend = FaultInjecting::new(CountingBackend::new()).fail_after(2);
    let cfg = SessionConfig {
        arena: ArenaConfig {
            reserve_bytes: 64 * MIB,
            page_bytes: 64 << 10,
            ..ArenaConfig::default()
        },
        ..SessionConfig::new(P::DynamicShapeExpand)
    };
    let mut s = SessionMemory::new(backend, cfg).unwrap();
    let d = s.register_dynamic();
    let e = s.begin(d).unwrap();
    let t = s.alloc(e, 100 << 10).unwrap();
    let before = (s.stats(), s.arena().unwrap().stats());
    // [100K, 400K) needs pages 2..=6 committed: one 320 KiB run, refused.
    let err = s.alloc(e, 300 << 10).unwrap_err();
    assert_eq!(
        err,
        SessionError::Memory(MemoryError::Backend(BackendError::OutOfMemory {
            len: 320 << 10
        }))
    );
    assert_eq!(s.stats(), before.0);
    assert_eq!(s.arena().unwrap().stats(), before.1);
    // A request that fits in already-committed pages needs no backend call.
    let t2 = s.alloc(e, 20 << 10).unwrap();
    s.free(e, t2).unwrap();
    s.free(e, t).unwrap();
    s.end(e).unwrap();
    assert_eq!(s.stats().reserved_bytes, 0);
}

#[test]
fn failed_documented_growth_is_an_error_and_leaks_nothing() {
    // Budget: the first pool allocation only.
    let backend = FaultInjecting::new(CountingBackend::new()).fail_after(1);
    let cfg = SessionConfig {
        growth: GrowthMode::Documented,
        ..SessionConfig::new(P::StaticShapeExpand)
    };
    let mut s = SessionMemory::new(backend, cfg).unwrap();
    let small = s.register_static(&StaticGraph {
        feature_map_bytes: MIB,
        ..StaticGraph::default()
    });
    let big = s.register_static(&StaticGraph {
        feature_map_bytes: 4 * MIB,
        ..StaticGraph::default()
    });
    let e = s.begin(small).unwrap();
    s.end(e).unwrap();
    let err = s.begin(big).unwrap_err();
    assert!(matches!(
        err,
        SessionError::Memory(MemoryError::Backend(BackendError::OutOfMemory { .. }))
    ));
    assert_eq!(s.running(), 0);
    assert_eq!(s.stats().live_bytes, 0);
    // The old pool was freed first (the documented order) and could not be
    // restored under the exhausted budget: nothing is held, nothing leaked.
    assert_eq!(s.pool().unwrap().capacity(), 0);
    assert_eq!(s.stats().reserved_bytes, 0);
}
