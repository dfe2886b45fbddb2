//! System helpers with no knowledge of the cache's layout: file operations beneath a
//! directory descriptor, grouped flushes, locks, a small thread pool, clocks, progress.

pub mod clock;
pub(crate) mod flush;
pub(crate) mod fsx;
pub(crate) mod lock;
pub(crate) mod pool;
pub(crate) mod progress;
