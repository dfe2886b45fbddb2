//! A deterministic dynamic-shape workload shared by the memory tests and the
//! memory benchmark (which includes this file with `#[path]`).

#![allow(dead_code)]

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
        let seq = rng.range(4, 64) * 8;
        let act = BATCH * seq * HIDDEN * F32;
        let mut kept = Vec::new();
        let input = alloc(&mut ops, act);
        for _ in 0..LAYERS {
            let a = alloc(&mut ops, act);
            let qkv = alloc(&mut ops, 3 * act);
            let scores = alloc(&mut ops, BATCH * HEADS * seq * seq * F32);
            let mlp = alloc(&mut ops, 4 * act);
            ops.push(Op::Free { id: scores });
            ops.push(Op::Free { id: mlp });
            kept.push((a, qkv));
        }
        while let Some((a, qkv)) = kept.pop() {
            let grad = alloc(&mut ops, act);
            let tmp = alloc(&mut ops, BATCH * HEADS * seq * seq * F32);
            ops.push(Op::Free { id: tmp });
            ops.push(Op::Free { id: qkv });
            ops.push(Op::Free { id: a });
            ops.push(Op::Free { id: grad });
        }
        ops.push(Op::Free { id: input });
        ops.push(Op::EndStep);
    }
    ops
}
