//! A deterministic dynamic-shape workload shared by the memory tests and the
//! memory benchmark (which includes this file with `#[path]`).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

/// One event of a dynamic-shape graph's execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Allocate tensor `id` of `size` bytes.
    Alloc { id: usize, size: u64 },
    /// Free tensor `id`.
    Free { id: usize },
    /// The current execution (one training step) ends; the next begins.
    EndStep,
}

/// xorshift64*: tiny and deterministic, so no rand dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

/// A small transformer's training steps with a random sequence length per
/// step: per layer the forward keeps an activation and a QKV buffer for the
/// backward, and frees its attention scores (quadratic in the length) and MLP
/// temporary; the backward frees them layer by layer while gradients come and go.
pub fn transformer_steps(steps: usize, seed: u64) -> Vec<Op> {
    const BATCH: u64 = 4;
    const HIDDEN: u64 = 512;
    const HEADS: u64 = 8;
    const LAYERS: usize = 6;
    const F32: u64 = 4;
    let mut rng = Rng::new(seed);
    let mut ops = Vec::new();
    let mut next = 0usize;
    let mut alloc = |ops: &mut Vec<Op>, size: u64| {
        let id = next;
        next += 1;
        ops.push(Op::Alloc { id, size });
        id
    };
    for _ in 0..steps {
        // Any length, not a multiple of anything: tensor sizes do not line up
        // with pages.
        let seq = rng.range(33, 512);
        let act = BATCH * seq * HIDDEN * F32;
        let mut kept = Vec::new();
        let input = alloc(&mut ops, act);
        for _ in 0..LAYERS {
            let a = alloc(&mut ops, act);
            // Layer-norm statistics: small tensors kept for the backward.
            let stats = alloc(&mut ops, 2 * BATCH * seq * F32);
            let qkv = alloc(&mut ops, 3 * act);
            let scores = alloc(&mut ops, BATCH * HEADS * seq * seq * F32);
            let mlp = alloc(&mut ops, 4 * act);
            ops.push(Op::Free { id: scores });
            ops.push(Op::Free { id: mlp });
            kept.push((a, stats, qkv));
        }
        while let Some((a, stats, qkv)) = kept.pop() {
            let grad = alloc(&mut ops, act);
            let tmp = alloc(&mut ops, BATCH * HEADS * seq * seq * F32);
            ops.push(Op::Free { id: tmp });
            ops.push(Op::Free { id: qkv });
            ops.push(Op::Free { id: stats });
            ops.push(Op::Free { id: a });
            ops.push(Op::Free { id: grad });
        }
        ops.push(Op::Free { id: input });
        ops.push(Op::EndStep);
    }
    ops
}

use cann_runtime::memory::{
    BestFitCaching, CachedAlloc, MemoryBackend, MemoryStats, SessionMemory, TensorId,
};

/// Replays `ops` as executions of one dynamic-shape graph.
pub fn replay_session<B: MemoryBackend>(s: &mut SessionMemory<B>, ops: &[Op]) -> MemoryStats {
    let graph = s.register_dynamic();
    let mut exec = s.begin(graph).unwrap();
    let mut live: Vec<Option<TensorId>> = Vec::new();
    for op in ops {
        match *op {
            Op::Alloc { id, size } => {
                if live.len() <= id {
                    live.resize(id + 1, None);
                }
                live[id] = Some(s.alloc(exec, size).unwrap());
            }
            Op::Free { id } => {
                let t = live[id].take().unwrap();
                s.free(exec, t).unwrap();
            }
            Op::EndStep => {
                s.end(exec).unwrap();
                exec = s.begin(graph).unwrap();
            }
        }
    }
    s.end(exec).unwrap();
    s.stats()
}

/// Replays `ops` on the best-fit caching allocator; returns its stats.
pub fn replay_caching<B: MemoryBackend>(
    backend: &mut B,
    ops: &[Op],
) -> cann_runtime::memory::CachingStats {
    let mut cache = BestFitCaching::new();
    let mut live: Vec<Option<CachedAlloc>> = Vec::new();
    for op in ops {
        match *op {
            Op::Alloc { id, size } => {
                if live.len() <= id {
                    live.resize_with(id + 1, || None);
                }
                live[id] = Some(cache.alloc(backend, size).unwrap());
            }
            Op::Free { id } => cache.free(live[id].take().unwrap()).unwrap(),
            Op::EndStep => {}
        }
    }
    let stats = cache.stats();
    cache.release(backend).unwrap();
    stats
}
