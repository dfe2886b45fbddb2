//! How a plan was found, as data: the planner names its stages with this
//! type and never with sentences, so each front end words it in the user's
//! language from the catalog (`cannctl mem plan --lang zh`), and JSON gets
//! the same structure.

use serde::Serialize;

/// The stage (and its settings) that produced a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "stage", rename_all = "kebab-case")]
pub enum Strategy {
    /// The sweep by start time: each buffer placed as it begins.
    Sweep {
        /// Which gap a beginning buffer takes.
        gap: Gap,
    },
    /// A fixed ordering of the buffers, each placed against those before it.
    Greedy {
        /// The order.
        order: Order,
        /// Which gap each buffer takes.
        gap: Gap,
    },
    /// Squeaky-wheel restarts; the round that found the plan.
    SqueakyWheel {
        /// 1 for the first restart.
        round: u32,
    },
    /// The live set at the moment of peak load stacked at LOAD, then sweeps
    /// forward and backward from it with aligned gaps.
    FromPeak {
        /// How the live set at the peak is stacked.
        stack: Stack,
    },
    /// [`Strategy::FromPeak`], then backtracked: the side that sets the
    /// arena swept again from a little before where it first rises above a
    /// target, with seeded deviations, the target lowered each time a side
    /// is completed below it.
    Backtracked {
        /// How the live set at the peak is stacked.
        stack: Stack,
        /// Completed tries that lowered a side's arena.
        lowered: u32,
    },
    /// A plan improved by re-placing the buffers on its peak.
    Refined {
        /// The plan it started from.
        from: Box<Strategy>,
        /// Moves kept that lowered the arena.
        lowered: u32,
        /// Which of the independent starts (from 1).
        start: usize,
    },
    /// The exact search.
    Exact {
        /// Whether it also proved no smaller arena exists.
        proven: bool,
    },
    /// The plan of blocks merged from the buffers, unfolded.
    Merged {
        /// Blocks planned.
        blocks: usize,
        /// How the blocks were planned.
        inner: Box<Strategy>,
    },
    /// The instance split in time, its groups planned apart and stitched.
    Split {
        /// Buffers over the whole span, stacked at the bottom.
        bands: usize,
        /// Groups planned apart.
        groups: usize,
        /// How the group that sets the arena was planned.
        highest: Box<Strategy>,
    },
}

/// Which free gap a buffer takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gap {
    /// The smallest gap that holds it.
    Best,
    /// The lowest gap that holds it.
    First,
    /// The smallest gap that holds it, at the end beside the neighbour that
    /// lives longer.
    Aligned,
}

/// A fixed ordering of the buffers, largest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// By size.
    Size,
    /// By size times lifetime.
    Area,
    /// By lifetime.
    Lifetime,
}

/// How the live set at the peak is stacked, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stack {
    /// The buffers that end last lowest.
    LastEndLowest,
    /// The buffers that began first lowest.
    FirstStartLowest,
}

impl From<super::Placement> for Gap {
    fn from(p: super::Placement) -> Self {
        match p {
            super::Placement::BestGap => Gap::Best,
            super::Placement::FirstGap => Gap::First,
        }
    }
}
