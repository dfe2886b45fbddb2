//! Progress reporting for long walks; the CLI plugs a terminal progress bar in here.

/// Receives progress of a long operation. Implementations must be cheap.
pub trait Progress {
    /// Announces the expected number of steps, when known.
    fn set_total(&self, _total: u64) {}
    /// Reports `n` more steps done.
    fn inc(&self, _n: u64) {}
}

/// Discards progress.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoProgress;

impl Progress for NoProgress {}
