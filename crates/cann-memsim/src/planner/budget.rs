//! How much a stage may spend: a deterministic amount of work, and a wall-clock
//! deadline that only ever cuts the work short.
//!
//! Work is counted in elementary steps (overlap pairs looked at, search nodes
//! times their cost), so two runs with the same seed and effort do the same
//! steps and return the same plan on any machine, unless the deadline comes
//! first; the plan then says so ([`super::Plan::timed_out`]).

use std::time::Instant;

/// Work a stage may still do, and when it must stop regardless.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    work: u64,
    deadline: Instant,
    timed_out: bool,
}

impl Budget {
    /// `work` steps, stopping at `deadline` at the latest.
    pub fn new(work: u64, deadline: Instant) -> Self {
        Self {
            work,
            deadline,
            timed_out: false,
        }
    }

    /// Takes `steps` from the budget; `false` once work or time is used up.
    /// Callers spend in chunks (a greedy run, a few hundred nodes), so the
    /// clock is read rarely.
    pub fn spend(&mut self, steps: u64) -> bool {
        self.work = self.work.saturating_sub(steps);
        if self.work == 0 {
            return false;
        }
        if Instant::now() >= self.deadline {
            self.timed_out = true;
            self.work = 0;
            return false;
        }
        true
    }

    /// Whether there is work left and the deadline has not passed: a reading
    /// of the clock that spends nothing, for long loops between the points
    /// where they spend (a pass over a big overlap graph, building one).
    pub fn in_time(&mut self) -> bool {
        self.spend(0)
    }

    /// Takes `steps` that were spent elsewhere (a sub-budget), without
    /// reading the clock.
    pub fn charge(&mut self, steps: u64) {
        self.work = self.work.saturating_sub(steps);
    }

    /// Whether anything is left.
    pub fn left(&self) -> bool {
        self.work > 0
    }

    /// Work steps left.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The deadline.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Records that a part of this stage was cut by its deadline.
    pub fn mark_timed_out(&mut self) {
        self.timed_out = true;
    }

    /// Whether the deadline, not the work, ended it.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// A part of what is left: `num / den` of the work, same deadline.
    pub fn share(&self, num: u64, den: u64) -> Budget {
        Budget::new(
            (u128::from(self.work) * u128::from(num) / u128::from(den.max(1))) as u64,
            self.deadline,
        )
    }
}

/// A small, fast, seeded generator (xorshift64*): the noise of the search
/// needs to be reproducible, not cryptographic.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        // splitmix64 of the seed, so nearby seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Self((z ^ (z >> 31)) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [0, n) (0 when n is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
        }
    }
}
