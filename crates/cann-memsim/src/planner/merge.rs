//! Merging buffers into blocks: a smaller instance whose plans are plans of
//! the original.
//!
//! Two buffers with the same lifetime can be stacked into one block as tall
//! as both; two buffers of the same size, one starting when the other ends,
//! can share an offset and form one block that lives as long as both. Either
//! block is a rectangle that holds its parts without overlap, so any plan of
//! the blocks unfolds into a valid plan of the buffers. Merging again and
//! again undoes the guillotine cuts that perfect packings are made of (in
//! time: a chain; in bytes: a stack), down to very few blocks, which the
//! other stages then pack quickly; on other instances it only shrinks the
//! search. It can lose the optimum (a stack forbids anything between its
//! parts), so the planner keeps it only where it wins.

use std::collections::HashMap;

use super::super::buffers::Buffer;

/// How a block is made.
#[derive(Debug, Clone, Copy)]
enum Part {
    /// An input buffer.
    Leaf(usize),
    /// The first block below the second, same lifetime.
    Stack(usize, usize),
    /// The first block then the second at the same offset, same size.
    Chain(usize, usize),
}

#[derive(Debug, Clone, Copy)]
struct Block {
    lower: u64,
    upper: u64,
    size: u64,
    part: Part,
}

/// Buffers merged into blocks.
pub(crate) struct Merged {
    blocks: Vec<Block>,
    /// The blocks nothing was merged into, in the order of [`Self::buffers`].
    roots: Vec<usize>,
    /// Zero-size input buffers (left out; they go at offset 0).
    n: usize,
}

impl Merged {
    /// Merges `bufs` until no two blocks merge; `None` if that leaves more
    /// than three quarters as many blocks as there were buffers of non-zero
    /// size (planning the blocks would then cost as much as planning the
    /// buffers, for little gain).
    pub(crate) fn new(bufs: &[Buffer]) -> Option<Self> {
        let mut blocks: Vec<Block> = Vec::with_capacity(2 * bufs.len());
        let mut alive: Vec<usize> = Vec::new();
        for (i, b) in bufs.iter().enumerate().filter(|(_, b)| b.size > 0) {
            alive.push(blocks.len());
            blocks.push(Block {
                lower: b.lower,
                upper: b.upper,
                size: b.size,
                part: Part::Leaf(i),
            });
        }
        let leaves = alive.len();
        loop {
            let before = alive.len();
            alive = stack_pass(&mut blocks, alive);
            alive = chain_pass(&mut blocks, alive);
            if alive.len() == before {
                break;
            }
        }
        (alive.len() * 4 <= leaves * 3).then_some(Self {
            blocks,
            roots: alive,
            n: bufs.len(),
        })
    }

    /// The blocks as buffers, to plan.
    pub(crate) fn buffers(&self) -> Vec<Buffer> {
        self.roots
            .iter()
            .enumerate()
            .map(|(k, &r)| {
                let b = &self.blocks[r];
                Buffer {
                    id: format!("block{k}"),
                    lower: b.lower,
                    upper: b.upper,
                    size: b.size,
                    memset: false,
                }
            })
            .collect()
    }

    /// The offsets of the input buffers, from offsets of [`Self::buffers`].
    pub(crate) fn unfold(&self, block_offsets: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.n];
        let mut todo: Vec<(usize, u64)> = self
            .roots
            .iter()
            .zip(block_offsets)
            .map(|(&r, &o)| (r, o))
            .collect();
        while let Some((k, at)) = todo.pop() {
            match self.blocks[k].part {
                Part::Leaf(i) => out[i] = at,
                Part::Stack(a, b) => {
                    todo.push((a, at));
                    todo.push((b, at + self.blocks[a].size));
                }
                Part::Chain(a, b) => {
                    todo.push((a, at));
                    todo.push((b, at));
                }
            }
        }
        out
    }
}

/// Stacks the blocks of each lifetime into one (in order of index, so the
/// result does not depend on hashing).
fn stack_pass(blocks: &mut Vec<Block>, alive: Vec<usize>) -> Vec<usize> {
    let mut by_life: HashMap<(u64, u64), usize> = HashMap::new();
    let mut out: Vec<usize> = Vec::with_capacity(alive.len());
    for k in alive {
        let key = (blocks[k].lower, blocks[k].upper);
        match by_life.get(&key) {
            Some(&slot) => {
                let below = out[slot];
                let b = blocks[below];
                blocks.push(Block {
                    lower: b.lower,
                    upper: b.upper,
                    size: b.size + blocks[k].size,
                    part: Part::Stack(below, k),
                });
                out[slot] = blocks.len() - 1;
            }
            None => {
                by_life.insert(key, out.len());
                out.push(k);
            }
        }
    }
    out
}

/// Chains a block to one of the same size that starts when it ends (the
/// first such by index), one link per block per pass. Blocks are visited in
/// order of start time, so a block's successor is never visited before it.
fn chain_pass(blocks: &mut Vec<Block>, mut alive: Vec<usize>) -> Vec<usize> {
    alive.sort_unstable_by_key(|&k| (blocks[k].lower, k));
    let mut by_start: HashMap<(u64, u64), Vec<usize>> = HashMap::new();
    for (slot, &k) in alive.iter().enumerate() {
        by_start
            .entry((blocks[k].size, blocks[k].lower))
            .or_default()
            .push(slot);
    }
    let mut used = vec![false; alive.len()];
    let mut out: Vec<usize> = Vec::with_capacity(alive.len());
    for slot in 0..alive.len() {
        if used[slot] {
            continue;
        }
        let k = alive[slot];
        let key = (blocks[k].size, blocks[k].upper);
        let next = by_start
            .get(&key)
            .and_then(|v| v.iter().copied().find(|&s| !used[s] && s != slot));
        used[slot] = true;
        match next {
            Some(s) => {
                used[s] = true;
                let (a, b) = (blocks[k], blocks[alive[s]]);
                blocks.push(Block {
                    lower: a.lower,
                    upper: b.upper,
                    size: a.size,
                    part: Part::Chain(k, alive[s]),
                });
                out.push(blocks.len() - 1);
            }
            None => out.push(k),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]
    use super::super::super::buffers::{load, verify};
    use super::super::generate::planted;
    use super::*;

    /// A perfect packing merges back into one block as tall as its LOAD, and
    /// that block's plan unfolds into a valid optimal plan of the buffers.
    #[test]
    fn planted_packings_merge_back_to_one_block() {
        for (n, seed) in [(12, 3), (300, 11), (2000, 14)] {
            let (bufs, _) = planted(n, 1 << 20, 1 << 20, seed);
            let m = Merged::new(&bufs).expect("merges");
            let blocks = m.buffers();
            let offsets = m.unfold(&vec![0; blocks.len()]);
            let lb = load(&bufs);
            assert_eq!(blocks.len(), 1);
            assert_eq!(blocks[0].size, lb);
            verify(&bufs, &offsets, lb).expect("valid");
        }
    }

    /// Blocks that do not merge come back as they were.
    #[test]
    fn unrelated_buffers_stay_apart() {
        let b = |id: &str, lower, upper, size| Buffer {
            id: id.into(),
            lower,
            upper,
            size,
            memset: false,
        };
        let bufs = vec![b("a", 0, 4, 8), b("b", 2, 6, 16)];
        assert!(Merged::new(&bufs).is_none());
        // One merge among eight buffers is not worth planning blocks for.
        let mut bufs: Vec<Buffer> = (0..8).map(|k| b("x", k, k + 3, 10 + k)).collect();
        bufs.push(b("y", 0, 3, 1));
        assert!(Merged::new(&bufs).is_none());
        let bufs = vec![b("a", 0, 4, 8), b("b", 0, 4, 16), b("c", 4, 9, 24)];
        let m = Merged::new(&bufs).expect("merges");
        let blocks = m.buffers();
        assert_eq!(blocks.len(), 1);
        assert_eq!(
            (blocks[0].lower, blocks[0].upper, blocks[0].size),
            (0, 9, 24)
        );
        let offs = m.unfold(&[0]);
        assert_eq!(offs, vec![0, 8, 0]);
    }
}
