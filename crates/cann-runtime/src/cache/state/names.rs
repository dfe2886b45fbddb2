//! Every name of our bookkeeping, spelled once. What lives in `kernel_cache/` beside the
//! entries and is not cache content: our state directory, and CANN's aging lock.

/// Our bookkeeping directory inside `kernel_cache/`. The leading dot keeps it out of the
/// reference tool's `.json` scan.
pub const STATE_DIR: &str = ".cann-cache";

/// CANN's aging lock, directly in `kernel_cache/`. It belongs to CANN: we lock it, never
/// delete it, never change its mode.
pub const CANN_LOCK: &str = "op_cache_file_del.lock";

/// In [`STATE_DIR`]: the 128-byte totals (see [`super::ledger::Ledger`]).
pub const LEDGER: &str = "ledger";

/// In [`STATE_DIR`]: one line per entry (see [`super::index`]).
pub const INDEX: &str = "index";

/// In [`STATE_DIR`]: every directory of `kernel_cache/`, one a line (see
/// [`super::dirtime`]).
pub const DIRS: &str = "dirs";

/// In [`STATE_DIR`]: the bytes of the loose files gc kept, by directory (see
/// [`super::loose`]).
pub const LOOSE: &str = "loose";

/// In [`STATE_DIR`]: held by the one process aging the cache.
pub const GC_LOCK: &str = "gc.lock";

/// True for the names in `kernel_cache/` that are bookkeeping, not cache content (`dir_rel`
/// is the directory they sit in, `""` at the top).
pub fn is_bookkeeping(dir_rel: &str, name: &[u8]) -> bool {
    dir_rel.is_empty() && (name == STATE_DIR.as_bytes() || name == CANN_LOCK.as_bytes())
}
