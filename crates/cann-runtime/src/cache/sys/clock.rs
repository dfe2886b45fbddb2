//! Time source. Aging rules are about wall-clock minutes; tests inject a clock instead of
//! sleeping for half an hour.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

/// Nanoseconds since the Unix epoch, the one time unit the cache stores.
pub type Nanos = i64;

/// Where "now" comes from.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Current time in nanoseconds since the Unix epoch.
    fn now(&self) -> Nanos;
    /// True when `now` is the kernel's clock, so access stamps may use `UTIME_NOW` (which only
    /// needs write access) instead of an explicit time (which needs file ownership).
    fn is_system(&self) -> bool {
        false
    }
}

/// The system wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Nanos {
        system_now()
    }
    fn is_system(&self) -> bool {
        true
    }
}

/// A settable clock for tests and simulations; cloning shares the same time.
#[derive(Debug, Clone, Default)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    /// A clock standing at `at` nanoseconds since the epoch.
    pub fn new(at: Nanos) -> Self {
        ManualClock(Arc::new(AtomicI64::new(at)))
    }
    /// Moves the clock to `at`.
    pub fn set(&self, at: Nanos) {
        self.0.store(at, Ordering::SeqCst);
    }
    /// Moves the clock forward by `by` nanoseconds.
    pub fn advance(&self, by: Nanos) {
        self.0.fetch_add(by, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Nanos {
        self.0.load(Ordering::SeqCst)
    }
}

/// The wall clock as [`Nanos`]; a clock before 1970 reads as 0 rather than failing.
pub fn system_now() -> Nanos {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Err(_) => 0,
    }
}

/// One second in [`Nanos`].
pub const SECOND: Nanos = 1_000_000_000;
/// One minute in [`Nanos`].
pub const MINUTE: Nanos = 60 * SECOND;
