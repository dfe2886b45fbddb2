//! Each policy on small hand-computed sequences, on the counting backend.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::memory::{
    ArenaConfig, CountingBackend, GrowthMode, MemoryBackend, SessionConfig, SessionError,
    SessionMemory, StaticGraph, StaticMemoryPolicy as P,
};

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

fn graph(bytes: u64) -> StaticGraph {
    StaticGraph {
        name: format!("g{bytes}"),
        feature_map_bytes: bytes,
        memset_outputs: Vec::new(),
    }
}

fn session(policy: P) -> SessionMemory<CountingBackend> {
    session_with(SessionConfig::new(policy))
}

fn session_with(cfg: SessionConfig) -> SessionMemory<CountingBackend> {
    SessionMemory::new(CountingBackend::new(), cfg).unwrap()
}

/// 64 KiB pages keep the hand computations small.
fn arena_cfg(policy: P) -> SessionConfig {
    SessionConfig {
        arena: ArenaConfig {
            reserve_bytes: 64 * MIB,
            page_bytes: 64 * KIB,
            ..ArenaConfig::default()
        },
        ..SessionConfig::new(policy)
    }
}

fn run(s: &mut SessionMemory<CountingBackend>, g: cann_runtime::memory::GraphId) {
    let e = s.begin(g).unwrap();
    s.end(e).unwrap();
}

#[test]
fn policy_0_static_graphs_get_exact_blocks_and_give_them_back() {
    let mut s = session(P::Dynamic);
    let a = s.register_static(&graph(10_000));
    let b = s.register_static(&graph(20_000));
    run(&mut s, a);
    run(&mut s, b);
    run(&mut s, a);
    let st = s.stats();
    assert_eq!(st.backend_alloc_calls, 3);
    assert_eq!(st.backend_free_calls, 3);
    assert_eq!(st.peak_reserved_bytes, 20_480); // 20 000 rounded to 4 KiB pages
    assert_eq!(st.peak_live_bytes, 20_000);
    assert_eq!((st.reserved_bytes, st.live_bytes), (0, 0));
    assert_eq!(st.executions, 3);
}

#[test]
fn policy_0_dynamic_tensors_are_exact_blocks() {
    let mut s = session(P::Dynamic);
    let d = s.register_dynamic();
    let e = s.begin(d).unwrap();
    let t1 = s.alloc(e, 5000).unwrap();
    let _t2 = s.alloc(e, 3000).unwrap();
    s.free(e, t1).unwrap();
    let _t3 = s.alloc(e, 1000).unwrap();
    let st = s.stats();
    assert_eq!(st.backend_alloc_calls, 3);
    assert_eq!(st.backend_free_calls, 1);
    assert_eq!(st.peak_reserved_bytes, 8192 + 4096);
    assert_eq!(st.peak_live_bytes, 8000);
    s.end(e).unwrap();
    assert_eq!(s.stats().reserved_bytes, 0);
    assert_eq!(s.stats().backend_free_calls, 3);
}

#[test]
fn policy_2_documented_growth_frees_then_allocates_bigger() {
    let mut s = session(P::StaticShapeExpand);
    let ids: Vec<_> = [3 * MIB, 5 * MIB, 4 * MIB, 5 * MIB + 1000]
        .into_iter()
        .map(|b| s.register_static(&graph(b)))
        .collect();
    run(&mut s, ids[0]);
    assert_eq!(s.pool().unwrap().capacity(), 3 * MIB);
    run(&mut s, ids[1]);
    assert_eq!(s.pool().unwrap().capacity(), 5 * MIB);
    run(&mut s, ids[2]); // smaller: reused, no backend call
    assert_eq!(s.stats().backend_alloc_calls, 2);
    run(&mut s, ids[3]);
    let st = s.stats();
    assert_eq!(s.pool().unwrap().capacity(), 5 * MIB + 4096);
    assert_eq!((st.backend_alloc_calls, st.backend_free_calls), (3, 2));
    // Freed before re-allocating: old and new pools never coexist.
    assert_eq!(st.peak_reserved_bytes, 5 * MIB + 4096);
    assert_eq!(st.peak_live_bytes, 5 * MIB + 1000);
    // The pool outlives executions.
    assert_eq!((st.reserved_bytes, st.live_bytes), (5 * MIB + 4096, 0));
    let backend = s.close().unwrap();
    assert_eq!(backend.usage().resident_bytes(), 0);
}

#[test]
fn policy_2_engine_code_growth_adds_the_shortfall_in_2_mib_blocks() {
    let cfg = SessionConfig {
        growth: GrowthMode::EngineCode,
        ..SessionConfig::new(P::StaticShapeExpand)
    };
    let mut s = session_with(cfg);
    let ids: Vec<_> = [3 * MIB, 5 * MIB, 4 * MIB, 5 * MIB + 1000]
        .into_iter()
        .map(|b| s.register_static(&graph(b)))
        .collect();
    run(&mut s, ids[0]); // shortfall 3 MiB -> 4 MiB
    assert_eq!(s.pool().unwrap().capacity(), 4 * MIB);
    run(&mut s, ids[1]); // shortfall 1 MiB -> 2 MiB more
    assert_eq!(s.pool().unwrap().capacity(), 6 * MIB);
    run(&mut s, ids[2]);
    run(&mut s, ids[3]); // fits in 6 MiB
    let st = s.stats();
    assert_eq!((st.backend_alloc_calls, st.backend_free_calls), (2, 0));
    assert_eq!(st.peak_reserved_bytes, 6 * MIB);
    assert_eq!(st.reserved_bytes, 6 * MIB);
}

#[test]
fn policy_2_and_4_refuse_concurrent_executions_without_disturbing_anything() {
    for policy in [P::StaticShapeExpand, P::AllShapeExpand] {
        let mut s = session_with(arena_cfg(policy));
        let a = s.register_static(&graph(MIB));
        let b = s.register_static(&graph(2 * MIB));
        let d = s.register_dynamic();
        let ea = s.begin(a).unwrap();
        let before = (s.stats(), s.backend().usage());
        for g in [b, d, a] {
            let err = s.begin(g).unwrap_err();
            assert_eq!(
                err,
                SessionError::ConcurrentExecution {
                    policy: policy.code(),
                    running: a,
                    requested: g
                }
            );
        }
        let after = s.stats();
        assert_eq!(after.refused_concurrent, 3);
        assert_eq!(s.backend().usage(), before.1, "backend untouched");
        assert_eq!(
            (after.live_bytes, after.reserved_bytes),
            (before.0.live_bytes, before.0.reserved_bytes)
        );
        assert_eq!(s.running(), 1);
        s.end(ea).unwrap();
        run(&mut s, b);
    }
}

#[test]
fn policy_0_and_3_allow_concurrent_executions() {
    for policy in [P::Dynamic, P::DynamicShapeExpand] {
        let mut s = session_with(arena_cfg(policy));
        let a = s.register_static(&graph(MIB));
        let d = s.register_dynamic();
        let e1 = s.begin(a).unwrap();
        let e2 = s.begin(d).unwrap();
        let e3 = s.begin(a).unwrap();
        s.alloc(e2, 1000).unwrap();
        assert_eq!(s.stats().live_bytes, 2 * MIB + 1000);
        for e in [e1, e2, e3] {
            s.end(e).unwrap();
        }
        assert_eq!(s.stats().refused_concurrent, 0);
        assert_eq!(s.stats().reserved_bytes, 0);
    }
}

#[test]
fn policy_3_commits_pages_on_demand_and_decommits_free_ones() {
    let mut s = session_with(arena_cfg(P::DynamicShapeExpand));
    let d = s.register_dynamic();
    let e = s.begin(d).unwrap();
    let t1 = s.alloc(e, 100 * KIB).unwrap(); // [0, 100K): pages 0-1
    assert_eq!(s.stats().reserved_bytes, 128 * KIB);
    let _t2 = s.alloc(e, 50 * KIB).unwrap(); // [100K, 150K): page 2 more
    assert_eq!(s.stats().reserved_bytes, 192 * KIB);
    s.free(e, t1).unwrap(); // page 0 free, page 1 still shared with t2
    assert_eq!(s.stats().reserved_bytes, 128 * KIB);
    let t3 = s.alloc(e, 30 * KIB).unwrap(); // best fit: the hole at 0, page 0 again
    assert_eq!(s.stats().reserved_bytes, 192 * KIB);
    let st = s.stats();
    assert_eq!((st.backend_alloc_calls, st.backend_free_calls), (3, 1));
    assert_eq!(st.peak_reserved_bytes, 192 * KIB);
    assert_eq!(st.peak_live_bytes, 150 * KIB);
    assert_eq!(s.arena().unwrap().stats().high_water_bytes, 150 * KIB);
    s.free(e, t3).unwrap();
    s.end(e).unwrap(); // t2's pages 1-2 go in one decommit
    let st = s.stats();
    assert_eq!((st.reserved_bytes, st.backend_free_calls), (0, 3));
}

#[test]
fn policy_3_static_graphs_still_get_exact_blocks() {
    let mut s = session_with(arena_cfg(P::DynamicShapeExpand));
    let a = s.register_static(&graph(10_000));
    run(&mut s, a);
    let st = s.stats();
    assert_eq!(
        (
            st.backend_alloc_calls,
            st.backend_free_calls,
            st.peak_reserved_bytes
        ),
        (1, 1, 12_288)
    );
}

#[test]
fn policy_4_static_and_dynamic_graphs_take_turns_on_the_same_pages() {
    let mut s = session_with(arena_cfg(P::AllShapeExpand));
    let st_graph = s.register_static(&graph(256 * KIB));
    let dy = s.register_dynamic();
    let e = s.begin(st_graph).unwrap();
    assert_eq!(s.stats().reserved_bytes, 256 * KIB); // committed before the run
    s.end(e).unwrap();
    assert_eq!(s.stats().reserved_bytes, 0); // released after
    let e = s.begin(dy).unwrap();
    let _t = s.alloc(e, 200 * KIB).unwrap();
    assert_eq!(s.stats().reserved_bytes, 256 * KIB);
    s.end(e).unwrap();
    run(&mut s, st_graph);
    let st = s.stats();
    // Never both at once: the peak is the larger of the two, not the sum.
    assert_eq!(st.peak_reserved_bytes, 256 * KIB);
    assert_eq!(s.arena().unwrap().stats().high_water_bytes, 256 * KIB);
    assert_eq!((st.backend_alloc_calls, st.backend_free_calls), (3, 3));
}

#[test]
fn misuse_is_a_typed_error() {
    let mut s = session(P::Dynamic);
    let a = s.register_static(&graph(4096));
    let e = s.begin(a).unwrap();
    assert_eq!(s.alloc(e, 10).unwrap_err(), SessionError::NotDynamic(a));
    s.end(e).unwrap();
    assert!(matches!(s.end(e), Err(SessionError::UnknownExecution(_))));
    let bogus = s.register_dynamic();
    let e = s.begin(bogus).unwrap();
    let t = s.alloc(e, 10).unwrap();
    s.free(e, t).unwrap();
    assert_eq!(s.free(e, t).unwrap_err(), SessionError::UnknownTensor(t));
    assert!(matches!(s.alloc(e, 0), Err(SessionError::Memory(_))));
}
