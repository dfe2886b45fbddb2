//! One depth-first decision search: does everything fit in `cap` bytes?

use std::time::Instant;

use super::problem::{Problem, NONE};

/// An undo record.
enum Undo {
    Placed(u32),
    Level(u64, u32),
    Lb(u32, u64),
    Floor(u32, u64),
    Sum(u32, u64),
    Free(u32),
}

/// One decision search.
pub(super) struct Search<'a> {
    p: &'a Problem,
    rank: &'a [u32],
    cap: u64,
    placed: Vec<bool>,
    pub(super) offset: Vec<u64>,
    /// Highest top of a placed neighbour.
    lb: Vec<u64>,
    /// Highest top of a placed buffer per section.
    floor: Vec<u64>,
    /// Bytes of unplaced buffers per section.
    sum: Vec<u64>,
    /// Unplaced neighbours per buffer.
    free: Vec<u32>,
    unplaced: usize,
    /// Offset and rank of the last buffer placed by choice: the next one
    /// must come after it in (offset, rank) order.
    level: u64,
    last_rank: u32,
    trail: Vec<Undo>,
    pub(super) nodes: u64,
    limit: u64,
    deadline: Instant,
    /// Nodes between two readings of the clock: fewer where a node costs
    /// more (on a dense window of 2,000 buffers a node took 1.4 ms, and
    /// reading every 512 nodes overran the deadline by 0.7 s).
    clock_every: u64,
    /// Reused per node.
    scratch: Vec<u64>,
}

/// Work (buffers plus sections per node, the cost [`super::node_cost`]
/// counts) between two readings of the clock.
const CLOCK_COST: u64 = 1 << 14;

impl<'a> Search<'a> {
    pub(super) fn new(
        p: &'a Problem,
        rank: &'a [u32],
        cap: u64,
        limit: u64,
        deadline: Instant,
    ) -> Self {
        let n = p.n();
        let mut sum = vec![0u64; p.sections];
        for k in 0..n {
            for s in &mut sum[p.lo[k] as usize..p.hi[k] as usize] {
                *s += p.size[k];
            }
        }
        let free = (0..n).map(|k| p.neighbours(k).len() as u32).collect();
        Self {
            p,
            rank,
            cap,
            placed: vec![false; n],
            offset: vec![0; n],
            lb: vec![0; n],
            floor: vec![0; p.sections],
            sum,
            free,
            unplaced: n,
            level: 0,
            last_rank: NONE,
            trail: Vec::new(),
            nodes: 0,
            limit,
            deadline,
            clock_every: (CLOCK_COST / (n + p.sections).max(1) as u64).clamp(1, 512),
            scratch: Vec::new(),
        }
    }

    /// Places `k` at `off` (by choice, moving the level, or forced);
    /// `Some(raised)` with whether any unplaced buffer's lowest offset rose,
    /// `None` if that makes some buffer not fit.
    fn place(&mut self, k: usize, off: u64, by_choice: bool) -> Option<bool> {
        let p = self.p;
        self.placed[k] = true;
        self.unplaced -= 1;
        self.offset[k] = off;
        self.trail.push(Undo::Placed(k as u32));
        if by_choice {
            self.trail.push(Undo::Level(self.level, self.last_rank));
            self.level = off;
            self.last_rank = self.rank[k];
        }
        let mut raised = false;
        let top = off + p.size[k];
        for s in p.lo[k]..p.hi[k] {
            let su = s as usize;
            if self.floor[su] < top {
                self.trail.push(Undo::Floor(s, self.floor[su]));
                self.floor[su] = top;
            }
            self.sum[su] -= p.size[k];
            self.trail.push(Undo::Sum(s, p.size[k]));
        }
        let mut ok = true;
        for &j in p.neighbours(k) {
            let ju = j as usize;
            if self.placed[ju] {
                continue;
            }
            if self.lb[ju] < top {
                self.trail.push(Undo::Lb(j, self.lb[ju]));
                self.lb[ju] = top;
                raised = true;
            }
            self.free[ju] -= 1;
            self.trail.push(Undo::Free(j));
        }
        // Buffers left with no unplaced neighbour go in now, at the top of
        // their neighbours: nothing placed later can meet them.
        for &j in p.neighbours(k) {
            let ju = j as usize;
            if ok && !self.placed[ju] && self.free[ju] == 0 {
                let at = self.lb[ju];
                ok = at + p.size[ju] <= self.cap && self.place(ju, at, false).is_some();
            }
        }
        ok.then_some(raised)
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop() {
                Some(Undo::Placed(k)) => {
                    self.placed[k as usize] = false;
                    self.unplaced += 1;
                }
                Some(Undo::Level(v, r)) => (self.level, self.last_rank) = (v, r),
                Some(Undo::Lb(j, v)) => self.lb[j as usize] = v,
                Some(Undo::Floor(s, v)) => self.floor[s as usize] = v,
                Some(Undo::Sum(s, v)) => self.sum[s as usize] += v,
                Some(Undo::Free(j)) => self.free[j as usize] += 1,
                None => break,
            }
        }
    }

    /// Places the buffers that have no neighbours at all.
    pub(super) fn start(&mut self) -> bool {
        for k in 0..self.p.n() {
            if self.free[k] == 0 && !self.placed[k] {
                if self.p.size[k] > self.cap {
                    return false;
                }
                if self.place(k, 0, false).is_none() {
                    return false;
                }
            }
        }
        true
    }

    /// Places every unplaced buffer living within sections `a..b`. Where no
    /// unplaced buffer crosses a section boundary, the two sides cannot
    /// interact any more and are solved one after the other: a failure on
    /// one side then fails the node at once instead of being retried under
    /// every arrangement of the other (dynamic temporal decomposition).
    pub(super) fn solve(&mut self, a: u32, b: u32) -> Status {
        let p = self.p;
        let (a, b) = (a as usize, b as usize);
        // crossing[t]: unplaced buffers spanning the boundary before section t.
        let mut crossing = vec![0i64; b - a + 1];
        let mut any = false;
        for k in 0..p.n() {
            if self.placed[k] || (p.lo[k] as usize) < a || (p.hi[k] as usize) > b {
                continue;
            }
            any = true;
            crossing[p.lo[k] as usize + 1 - a] += 1;
            crossing[p.hi[k] as usize - a] -= 1;
        }
        if !any {
            return Status::Done;
        }
        let mut cuts = vec![a];
        let mut run = 0i64;
        for t in a + 1..b {
            run += crossing[t - a];
            if run == 0 {
                cuts.push(t);
            }
        }
        cuts.push(b);
        if cuts.len() == 2 {
            return self.branch(a as u32, b as u32);
        }
        let (level, last_rank) = (self.level, self.last_rank);
        for w in cuts.windows(2) {
            if (self.level, self.last_rank) != (level, last_rank) {
                self.trail.push(Undo::Level(self.level, self.last_rank));
                (self.level, self.last_rank) = (level, last_rank);
            }
            match self.branch(w[0] as u32, w[1] as u32) {
                Status::Done => {}
                other => return other,
            }
        }
        Status::Done
    }

    /// One search node over the unplaced buffers within sections `a..b`
    /// (which no unplaced buffer crosses): inference, then each candidate.
    fn branch(&mut self, a: u32, b: u32) -> Status {
        let p = self.p;
        let inside = |k: usize| p.lo[k] >= a && p.hi[k] <= b;
        let mut any = false;
        for k in 0..p.n() {
            if !self.placed[k] && inside(k) {
                any = true;
                break;
            }
        }
        if !any {
            return Status::Done;
        }
        self.nodes += 1;
        if self.nodes > self.limit
            || (self.nodes.is_multiple_of(self.clock_every) && Instant::now() >= self.deadline)
        {
            return Status::Unknown;
        }
        let level = self.level;
        let (au, bu) = (a as usize, b as usize);
        // Spatial inference; the lowest possible top; and per section the
        // lowest offset any unplaced buffer there can take.
        let mut lowest_top = u64::MAX;
        let mut min_at = std::mem::take(&mut self.scratch);
        min_at.clear();
        min_at.resize(bu - au, u64::MAX);
        for k in 0..p.n() {
            if self.placed[k] || !inside(k) {
                continue;
            }
            let at = self.lb[k].max(level);
            let top = at + p.size[k];
            if top > self.cap {
                self.scratch = min_at;
                return Status::Infeasible;
            }
            lowest_top = lowest_top.min(top);
            for m in &mut min_at[p.lo[k] as usize - au..p.hi[k] as usize - au] {
                *m = (*m).min(at);
            }
        }
        // Temporal inference: the unplaced buffers of a section start no
        // lower than the lowest of them can, and must fit above that.
        for s in au..bu {
            let sum = self.sum[s];
            if sum > 0 && self.floor[s].max(min_at[s - au]) + sum > self.cap {
                self.scratch = min_at;
                return Status::Infeasible;
            }
        }
        self.scratch = min_at;
        // Candidates rest where they are placed (on a placed neighbour or on
        // 0, never floating above the level) and come after the last choice
        // in (offset, rank) order, so each canonical solution is built once.
        let mut cands: Vec<(u64, u32, u32)> = Vec::new();
        for k in 0..p.n() {
            if self.placed[k] || !inside(k) {
                continue;
            }
            let (at, rank) = (self.lb[k], self.rank[k]);
            let after =
                at > level || (at == level && (self.last_rank == NONE || rank > self.last_rank));
            let twin = p.twin[k];
            if after && at < lowest_top && (twin == NONE || self.placed[twin as usize]) {
                cands.push((at, rank, k as u32));
            }
        }
        cands.sort_unstable();
        for (at, _, k) in cands {
            let mark = self.trail.len();
            let placed = self.place(k as usize, at, true);
            let r = match placed {
                Some(_) => self.solve(a, b),
                None => Status::Infeasible,
            };
            match r {
                Status::Done => return r,
                Status::Unknown => {
                    self.undo(mark);
                    return r;
                }
                Status::Infeasible => self.undo(mark),
            }
            // Nothing rests on it: trying others first cannot help it.
            if placed == Some(false) {
                break;
            }
        }
        Status::Infeasible
    }
}

/// How a sub-search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Done,
    Infeasible,
    Unknown,
}
