//! `atomic_clean_policy`: layout, clean operations and what policy 0 costs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::memory::atomic_clean::plan;
use cann_runtime::memory::{
    centralized_extra_bytes, AtomicCleanPolicy as C, CleanOp, CountingBackend, MemoryBackend,
    MemsetOutput, SessionConfig, SessionMemory, StaticGraph, StaticMemoryPolicy as P,
};

/// Feature map 4096; a [1,3) 1024 B, b [2,4) 2048 B, c [4,6) 1024 B.
fn graph() -> StaticGraph {
    let out = |size, producer, end| MemsetOutput {
        size,
        producer,
        end,
    };
    StaticGraph {
        name: "g".into(),
        feature_map_bytes: 4096,
        memset_outputs: vec![out(1024, 1, 3), out(2048, 2, 4), out(1024, 4, 6)],
    }
}

#[test]
fn centralized_places_outputs_together_and_cleans_once() {
    let p = plan(&graph(), C::Centralized);
    assert_eq!(p.offsets, vec![4096, 5120, 7168]);
    assert_eq!(p.region_bytes, 4096);
    assert_eq!(p.memory_bytes, 8192);
    assert_eq!(
        p.ops,
        vec![CleanOp {
            before_step: 0,
            offset: 4096,
            len: 4096
        }]
    );
}

#[test]
fn separate_shares_memory_between_outputs_that_never_overlap() {
    let p = plan(&graph(), C::Separate);
    // Largest first: b at 0; a overlaps b in time -> after it; c overlaps nobody -> 0.
    assert_eq!(p.offsets, vec![4096 + 2048, 4096, 4096]);
    assert_eq!(p.region_bytes, 3072);
    assert_eq!(p.memory_bytes, 7168);
    let before: Vec<u32> = p.ops.iter().map(|o| o.before_step).collect();
    assert_eq!(before, vec![1, 2, 4]);
    assert_eq!(p.clean_bytes(), 4096);
    assert_eq!(centralized_extra_bytes(&graph()), 1024);
}

#[test]
fn no_memset_outputs_means_no_cleans_and_no_extra() {
    let g = StaticGraph {
        feature_map_bytes: 100,
        ..StaticGraph::default()
    };
    for policy in [C::Centralized, C::Separate] {
        let p = plan(&g, policy);
        assert!(p.ops.is_empty());
        assert_eq!(p.memory_bytes, 100);
    }
    assert_eq!(centralized_extra_bytes(&g), 0);
}

fn session(clean: C) -> SessionMemory<CountingBackend> {
    let cfg = SessionConfig {
        atomic_clean: clean,
        ..SessionConfig::new(P::Dynamic)
    };
    SessionMemory::new(CountingBackend::new(), cfg).unwrap()
}

#[test]
fn policy_0_cleans_once_at_the_start_of_each_execution() {
    let mut s = session(C::Centralized);
    let g = s.register_static(&graph());
    for _ in 0..2 {
        let e = s.begin(g).unwrap();
        assert_eq!(s.stats().live_bytes, 8192); // outputs live from the start
        s.step(e, 5).unwrap();
        s.end(e).unwrap();
    }
    let st = s.stats();
    assert_eq!((st.clean_ops, st.clean_bytes), (2, 8192));
    assert_eq!(st.peak_reserved_bytes, 8192);
}

#[test]
fn policy_1_cleans_each_output_before_its_producer() {
    let mut s = session(C::Separate);
    let g = s.register_static(&graph());
    let e = s.begin(g).unwrap();
    assert_eq!(s.stats().clean_ops, 0);
    s.step(e, 0).unwrap();
    assert_eq!(s.stats().clean_ops, 0);
    s.step(e, 1).unwrap();
    assert_eq!((s.stats().clean_ops, s.stats().clean_bytes), (1, 1024));
    s.step(e, 3).unwrap();
    assert_eq!((s.stats().clean_ops, s.stats().clean_bytes), (2, 3072));
    s.end(e).unwrap(); // the rest of the graph runs: c is cleaned too
    let st = s.stats();
    assert_eq!((st.clean_ops, st.clean_bytes), (3, 4096));
    assert_eq!(st.peak_reserved_bytes, 8192); // 7168 rounded to 4 KiB pages
    assert_eq!(st.peak_live_bytes, 7168);
    assert_eq!(s.backend().usage().zero_calls, 3);
}

#[test]
fn cleans_reach_pool_and_arena_memory_too() {
    for policy in [P::StaticShapeExpand, P::AllShapeExpand] {
        let cfg = SessionConfig {
            atomic_clean: C::Separate,
            ..SessionConfig::new(policy)
        };
        let mut s = SessionMemory::new(CountingBackend::new(), cfg).unwrap();
        let g = s.register_static(&graph());
        let e = s.begin(g).unwrap();
        s.end(e).unwrap();
        assert_eq!(s.stats().clean_ops, 3, "{policy:?}");
    }
}
