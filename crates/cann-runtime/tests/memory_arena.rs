//! The expandable arena against live bytes and against the classic caching
//! allocator, on a deterministic dynamic-shape workload (memory, not time:
//! the timing comparison is the `memory` benchmark).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod memory_support;

use cann_runtime::memory::{
    ArenaConfig, BestFitCaching, ConfigProblem, CountingBackend, ExpandableArena, MemoryBackend,
    MemoryError, SessionConfig, SessionMemory, StaticMemoryPolicy as P,
};
use memory_support::{replay_caching, replay_session, transformer_steps};

#[test]
fn policy_3_stays_within_1_10x_of_live_bytes_on_varying_sequence_lengths() {
    let ops = transformer_steps(200, 7);
    let mut s = SessionMemory::new(
        CountingBackend::new(),
        SessionConfig::new(P::DynamicShapeExpand),
    )
    .unwrap();
    let p3 = replay_session(&mut s, &ops);
    let ratio = p3.reserved_to_live();
    assert!(
        ratio <= 1.10,
        "policy 3: {} / {} = {ratio}",
        p3.peak_reserved_bytes,
        p3.peak_live_bytes
    );

    let mut s = SessionMemory::new(CountingBackend::new(), SessionConfig::new(P::Dynamic)).unwrap();
    let p0 = replay_session(&mut s, &ops);
    assert_eq!(p0.peak_live_bytes, p3.peak_live_bytes);
    // Exact blocks: one backend call per tensor; the arena needs fewer because
    // small tensors land on pages that are already committed.
    assert!(p0.backend_alloc_calls > p3.backend_alloc_calls);

    let mut b = CountingBackend::new();
    let cache = replay_caching(&mut b, &ops);
    assert_eq!(cache.peak_live_bytes, p3.peak_live_bytes);
    assert!(
        cache.peak_reserved_bytes > p3.peak_reserved_bytes,
        "caching {} vs policy 3 {}",
        cache.peak_reserved_bytes,
        p3.peak_reserved_bytes
    );
}

#[test]
fn arena_coalesces_holes_and_reuses_them() {
    let mut b = CountingBackend::new();
    let cfg = ArenaConfig {
        reserve_bytes: 1 << 24,
        page_bytes: 1 << 16,
        ..ArenaConfig::default()
    };
    let mut a = ExpandableArena::new(&mut b, cfg).unwrap();
    let x = a.alloc(&mut b, 1000).unwrap();
    assert_eq!((x.offset(), x.len()), (0, 1024));
    let y = a.alloc(&mut b, 1000).unwrap();
    let z = a.alloc(&mut b, 1000).unwrap();
    a.free(&mut b, x).unwrap();
    a.free(&mut b, y).unwrap();
    // x and y coalesced into one 2048-byte hole: best fit puts 2000 bytes there.
    let w = a.alloc(&mut b, 2000).unwrap();
    assert_eq!(w.offset(), 0);
    assert_eq!(a.stats().high_water_bytes, 3072);
    assert_eq!(
        a.free(&mut b, ExpandableArenaForged::alloc()),
        Err(MemoryError::UnknownAllocation { offset: 1 << 20 })
    );
    a.free(&mut b, w).unwrap();
    a.free(&mut b, z).unwrap();
    assert_eq!(b.usage().committed_bytes, 0);
    assert!(matches!(
        a.alloc(&mut b, 1 << 25),
        Err(MemoryError::ArenaExhausted { .. })
    ));
    assert!(matches!(a.alloc(&mut b, 0), Err(MemoryError::ZeroSize)));
}

/// An allocation handle the arena never issued, made by allocating from a
/// second arena at a different offset.
struct ExpandableArenaForged;
impl ExpandableArenaForged {
    fn alloc() -> cann_runtime::memory::ArenaAlloc {
        let mut b = CountingBackend::new();
        let cfg = ArenaConfig {
            reserve_bytes: 1 << 24,
            page_bytes: 1 << 16,
            ..ArenaConfig::default()
        };
        let mut other = ExpandableArena::new(&mut b, cfg).unwrap();
        let _pad = other.alloc(&mut b, 1 << 20).unwrap();
        other.alloc(&mut b, 10).unwrap()
    }
}

#[test]
fn retention_trades_a_little_memory_for_fewer_calls() {
    let ops = transformer_steps(50, 3);
    let run = |retain| {
        let cfg = SessionConfig {
            arena: ArenaConfig {
                retain_bytes: retain,
                ..ArenaConfig::default()
            },
            ..SessionConfig::new(P::DynamicShapeExpand)
        };
        let mut s = SessionMemory::new(CountingBackend::new(), cfg).unwrap();
        replay_session(&mut s, &ops)
    };
    let eager = run(0);
    let retained = run(64 << 20);
    assert!(retained.backend_alloc_calls < eager.backend_alloc_calls);
    assert!(retained.peak_reserved_bytes <= eager.peak_reserved_bytes + (64 << 20));
}

#[test]
fn arena_trim_and_invalid_configs() {
    let mut b = CountingBackend::new();
    let bad = ArenaConfig {
        page_bytes: 1000,
        ..ArenaConfig::default()
    };
    // The problem is a value, with the numbers that show it (front ends word it).
    assert!(matches!(
        ExpandableArena::new(&mut b, bad),
        Err(MemoryError::InvalidConfig(ConfigProblem::PageBytes {
            page_bytes: 1000,
            base: 4096
        }))
    ));
    let bad = ArenaConfig {
        align: 3,
        ..ArenaConfig::default()
    };
    assert!(matches!(
        ExpandableArena::new(&mut b, bad),
        Err(MemoryError::InvalidConfig(ConfigProblem::Align {
            align: 3,
            ..
        }))
    ));
    let cfg = ArenaConfig {
        retain_bytes: 4 << 20,
        ..ArenaConfig::default()
    };
    let mut a = ExpandableArena::new(&mut b, cfg).unwrap();
    let x = a.alloc(&mut b, 3 << 20).unwrap();
    a.free(&mut b, x).unwrap();
    assert_eq!(a.stats().retained_bytes, 4 << 20);
    assert_eq!(b.usage().committed_bytes, 4 << 20);
    a.trim(&mut b).unwrap();
    assert_eq!(
        (a.stats().retained_bytes, b.usage().committed_bytes),
        (0, 0)
    );
}

#[test]
fn caching_baseline_splits_coalesces_and_empties() {
    let mut b = CountingBackend::new();
    let mut c = BestFitCaching::new();
    let x = c.alloc(&mut b, 100_000).unwrap();
    let y = c.alloc(&mut b, 200_000).unwrap();
    assert_eq!(c.stats().segment_allocs, 1, "both fit one 2 MiB segment");
    c.free(x).unwrap();
    c.free(y).unwrap();
    assert_eq!(c.stats().reserved_bytes, 2 << 20, "cached, not returned");
    let z = c.alloc(&mut b, 1 << 20).unwrap();
    assert_eq!(z.location(), (0, 0), "coalesced back into one block");
    c.free(z).unwrap();
    c.empty_cache(&mut b).unwrap();
    assert_eq!(
        (c.stats().reserved_bytes, b.usage().allocated_bytes),
        (0, 0)
    );
}

#[test]
fn arena_books_match_the_backend_under_random_ops_and_failures() {
    use cann_runtime::memory::FaultInjecting;
    use memory_support::Rng;
    let mut b = FaultInjecting::new(CountingBackend::new());
    for retain in [0, 1 << 20] {
        let cfg = ArenaConfig {
            reserve_bytes: 1 << 30,
            page_bytes: 1 << 16,
            retain_bytes: retain,
            ..ArenaConfig::default()
        };
        let mut a = ExpandableArena::new(&mut b, cfg).unwrap();
        let mut rng = Rng::new(99 + retain);
        let mut live = Vec::new();
        let mut live_bytes = 0;
        for i in 0..5000 {
            // Every 7th operation runs with the backend refusing memory.
            b.set_fail_after((i % 7 == 0).then_some(0));
            if live.is_empty() || rng.range(0, 9) < 5 {
                let size = rng.range(1, 300_000);
                match a.alloc(&mut b, size) {
                    Ok(x) => {
                        live_bytes += size;
                        live.push(x);
                    }
                    Err(MemoryError::Backend(_)) => {}
                    Err(e) => panic!("{e}"),
                }
            } else {
                let x = live.swap_remove(rng.range(0, live.len() as u64 - 1) as usize);
                live_bytes -= x.requested();
                a.free(&mut b, x).unwrap();
            }
            let st = a.stats();
            assert_eq!(st.live_bytes, live_bytes);
            assert_eq!(st.committed_bytes, b.usage().committed_bytes);
            assert!(st.retained_bytes <= retain);
        }
        b.set_fail_after(None);
        for x in live {
            a.free(&mut b, x).unwrap();
        }
        a.trim(&mut b).unwrap();
        assert_eq!(b.usage().committed_bytes, 0);
        a.release(&mut b).unwrap();
    }
    assert!(b.injected() > 0);
}
