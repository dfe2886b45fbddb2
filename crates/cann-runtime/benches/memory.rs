//! Memory-policy benchmarks.
//!
//! 1. Allocation throughput: the expandable arena on the real mmap backend
//!    (commit/decommit are system calls) against the system allocator and the
//!    caching baseline, on one mixed-size pattern.
//! 2. A dynamic-shape workload (a transformer's training steps with varying
//!    sequence lengths): peak reserved / peak live bytes under policy 3,
//!    policy 0 and the best-fit caching allocator, printed as a table first,
//!    then the time to replay it on real memory under each.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/memory_support/mod.rs"]
mod memory_support;

use std::hint::black_box;
use std::time::Duration;

use cann_runtime::memory::{
    ArenaConfig, BestFitCaching, CountingBackend, ExpandableArena, HostBackend, MemoryBackend,
    MemoryStats, SessionConfig, SessionMemory, StaticMemoryPolicy as P,
};
use criterion::{BenchmarkId, Criterion, Throughput};
use memory_support::{replay_caching, replay_session, transformer_steps, Rng};

/// 64 sizes from 4 KiB to 1 MiB, fixed by the seed.
fn pattern() -> Vec<u64> {
    let mut rng = Rng::new(42);
    (0..64).map(|_| rng.range(1, 256) * 4096).collect()
}

fn arena_cfg(retain: u64) -> SessionConfig {
    SessionConfig {
        arena: ArenaConfig {
            retain_bytes: retain,
            ..ArenaConfig::default()
        },
        ..SessionConfig::new(P::DynamicShapeExpand)
    }
}

fn throughput(c: &mut Criterion) {
    let sizes = pattern();
    let mut g = c.benchmark_group("alloc_free_64_mixed");
    g.throughput(Throughput::Elements(sizes.len() as u64));
    g.bench_function("system_allocator", |bch| {
        bch.iter(|| {
            let held: Vec<Vec<u8>> = sizes
                .iter()
                .map(|&s| Vec::with_capacity(s as usize))
                .collect();
            black_box(held)
        })
    });
    for (name, retain) in [
        ("expandable_arena_host", 0u64),
        ("expandable_arena_host_retain_64MiB", 64 << 20),
    ] {
        let mut b = HostBackend::new();
        let cfg = ArenaConfig {
            retain_bytes: retain,
            ..ArenaConfig::default()
        };
        let mut arena = ExpandableArena::new(&mut b, cfg).unwrap();
        g.bench_function(name, |bch| {
            bch.iter(|| {
                let held: Vec<_> = sizes
                    .iter()
                    .map(|&s| arena.alloc(&mut b, s).unwrap())
                    .collect();
                for a in held {
                    arena.free(&mut b, a).unwrap();
                }
            })
        });
        arena.release(&mut b).unwrap();
    }
    let mut b = HostBackend::new();
    let mut cache = BestFitCaching::new();
    g.bench_function("caching_baseline_host", |bch| {
        bch.iter(|| {
            let held: Vec<_> = sizes
                .iter()
                .map(|&s| cache.alloc(&mut b, s).unwrap())
                .collect();
            for a in held {
                cache.free(a).unwrap();
            }
        })
    });
    g.finish();
}

fn memory_table(ops: &[memory_support::Op]) {
    let row = |name: &str, st: &MemoryStats| {
        println!(
            "{name:<28} {:>14} {:>14} {:>7.3} {:>10} {:>10}",
            st.peak_reserved_bytes,
            st.peak_live_bytes,
            st.reserved_to_live(),
            st.backend_alloc_calls,
            st.backend_free_calls
        );
    };
    println!(
        "{:<28} {:>14} {:>14} {:>7} {:>10} {:>10}",
        "dynamic workload", "peak_reserved", "peak_live", "ratio", "acquire", "return"
    );
    for (name, cfg) in [
        ("policy 3 (2 MiB pages)", arena_cfg(0)),
        ("policy 3 + retain 64 MiB", arena_cfg(64 << 20)),
        ("policy 0 (exact blocks)", SessionConfig::new(P::Dynamic)),
    ] {
        let mut s = SessionMemory::new(CountingBackend::new(), cfg).unwrap();
        row(name, &replay_session(&mut s, ops));
    }
    let mut b = CountingBackend::new();
    let cs = replay_caching(&mut b, ops);
    let u = b.usage();
    println!(
        "{:<28} {:>14} {:>14} {:>7.3} {:>10} {:>10}",
        "best-fit caching",
        cs.peak_reserved_bytes,
        cs.peak_live_bytes,
        cs.peak_reserved_bytes as f64 / cs.peak_live_bytes.max(1) as f64,
        u.acquire_calls(),
        u.return_calls()
    );
}

fn replay(c: &mut Criterion, ops: &[memory_support::Op]) {
    let steps = ops
        .iter()
        .filter(|o| matches!(o, memory_support::Op::EndStep))
        .count();
    let mut g = c.benchmark_group("dynamic_replay_host");
    g.sample_size(10);
    g.throughput(Throughput::Elements(steps as u64));
    for (name, cfg) in [
        ("policy3", arena_cfg(0)),
        ("policy3_retain_64MiB", arena_cfg(64 << 20)),
        ("policy0", SessionConfig::new(P::Dynamic)),
    ] {
        g.bench_with_input(BenchmarkId::from_parameter(name), &cfg, |bch, cfg| {
            bch.iter(|| {
                let mut s = SessionMemory::new(HostBackend::new(), *cfg).unwrap();
                black_box(replay_session(&mut s, ops))
            })
        });
    }
    g.bench_function("caching", |bch| {
        bch.iter(|| {
            let mut b = HostBackend::new();
            black_box(replay_caching(&mut b, ops))
        })
    });
    g.finish();
}

fn main() {
    let ops = transformer_steps(200, 7);
    memory_table(&ops);
    let short = transformer_steps(20, 11);
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    throughput(&mut c);
    replay(&mut c, &short);
    c.final_summary();
}
