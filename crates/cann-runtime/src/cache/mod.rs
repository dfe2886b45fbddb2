//! Operator compile cache (see DESIGN.md, "cache", and seed 003).
//!
//! A cache directory (`op_compiler_cache_dir`, else `${ASCEND_CACHE_PATH}`, else
//! `$HOME/atc_data`) holds `op_cache.ini` and `kernel_cache/`, whose entries use the CANN
//! layout (a `.json` manifest naming its binary, or a `jsonList` of parts). On top of the
//! documented behaviour this implementation:
//!
//! - tracks access recency by stamping the manifest's atime explicitly on every hit (works on
//!   `noatime`/`relatime` mounts, visible to other tools) and never reads a manifest while
//!   aging, so its own scans cannot move an atime;
//! - commits atomically (binary, then manifest by rename), so a crash never shows a torn entry;
//! - implements `force` and version invalidation as an epoch: nothing is pulled from under a
//!   reader; old files go once idle for the aging floor;
//! - opens everything beneath the cache root without following symlinks;
//! - answers "is aging needed" from a 128-byte ledger and the listed directories' times instead
//!   of a full rescan, and says "unknown" when someone else created or removed files since.
//!
//! Entry points: [`open_session`] (a compilation session from plain settings), [`Cache`]
//! (`get`, `put`, `gc`, `verify`, `info`, `clear`, `startup_check`), [`Limits::resolve`].

mod entries;
mod error;
mod facade;
pub mod mode;
mod ops;
pub mod reference;
mod scan;
mod settings;
mod setup;
mod state;
mod sys;

pub use entries::manifest;
pub use settings::{dir, env, facts, ini, limits};
pub use sys::clock;

pub use clock::{Clock, ManualClock, Nanos, SystemClock};
pub use dir::{resolve as resolve_dir, CacheDir, DirSource};
pub use entries::key::Key;
pub use env::EnvSnapshot;
pub use error::CommitStep;
pub use error::{CacheError, Result};
pub use facade::Cache;
pub use limits::{Fallback, IniUse, LimitFinding, Limits, MaxSize, Origin, Problem};
pub use mode::{CacheBehaviour, CacheMode, CachePolicy, DisabledBy, OpDebugConfig};
pub use ops::clear::ClearReport;
pub use ops::core::{FaultHook, OpenOptions};
pub use ops::export::{ExactCommit, ExactEntry, LiveEntry, EXACT_FILE_MAX};
pub use ops::gc::{GcOptions, GcOutcome, GcReport, Reason, Removal};
pub use ops::get::{Entry, Lookup, Miss};
pub use ops::info::{InfoReport, InfoSource};
pub use ops::put::PutOutcome;
pub use ops::startup::{AgingNeed, StartupCheck, BLIND_BOUND, SWEEP_MAX_FILES};
pub use ops::verify::{TornEntry, VerifyReport};
pub use scan::TornWhy;
pub use setup::{
    open_session, read_ini, resolve_limits, stamp_versions, CacheSettings, Session,
    ToolkitVersions, VersionStamp,
};
pub use state::ledger::Ledger;
pub use sys::progress::{NoProgress, Progress};

/// Test support: set a file's times inside the cache without following symlinks.
#[doc(hidden)]
pub fn set_file_times(path: &std::path::Path, atime: Nanos, mtime: Nanos) -> std::io::Result<()> {
    let parent = path.parent().unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    let dir = std::fs::File::open(parent)?;
    sys::fsx::set_times(std::os::fd::AsFd::as_fd(&dir), name, atime, mtime)
}
