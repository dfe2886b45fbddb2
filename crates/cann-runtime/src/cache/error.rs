//! Errors of the cache library. Every failure is a value; nothing here panics on input.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong while resolving, reading or maintaining a cache.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// A path holds a character the spec does not allow (see [`crate::cache::dir`]).
    #[error(
        "cache directory `{path}` contains `{ch}` at character {index}; allowed are {allowed}"
    )]
    BadPathChar {
        path: String,
        ch: char,
        index: usize,
        /// The allowed characters, as the spec lists them.
        allowed: String,
    },
    /// A path that is not valid UTF-8 cannot be checked against the allowed set.
    #[error("cache directory `{0}` is not valid UTF-8")]
    NonUtf8Path(PathBuf),
    /// None of `op_compiler_cache_dir`, `ASCEND_CACHE_PATH` or `HOME` gave a directory.
    #[error(
        "no cache directory: op_compiler_cache_dir is unset, ASCEND_CACHE_PATH is unset and HOME \
         is unset"
    )]
    NoDirectory,
    /// A cache key that would escape the cache or collide with our bookkeeping.
    #[error("invalid cache key `{key}`: {why}")]
    BadKey { key: String, why: &'static str },
    /// A component inside the cache root is a symlink; we never follow those.
    #[error("`{0}` is a symbolic link inside the cache; refusing to follow it")]
    Symlink(PathBuf),
    /// An I/O failure, with the path it concerned.
    #[error("{op} `{path}`: {source}")]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// A file the cache reads (`op_cache.ini`, a state file) was refused by the input layer:
    /// not a regular file, a symbolic link, too large, unreadable.
    #[error("{0}")]
    Input(#[from] cann_input::InputError),
    /// A change was asked of a cache opened with [`crate::cache::Cache::open_read_only`].
    #[error(
        "`{0}` was opened read-only (for `info` and `verify`); changing it needs write access"
    )]
    ReadOnly(PathBuf),
    /// A fault hook asked the commit to stop (tests use this to simulate crashes).
    #[error("commit aborted by fault hook at {0:?}")]
    Aborted(crate::cache::store::CommitStep),
}

impl CacheError {
    /// Wraps an I/O error with the operation and the path, so messages say what failed where.
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        CacheError::Io {
            op,
            path: path.into(),
            source,
        }
    }
}

/// Result alias for this module.
pub type Result<T> = std::result::Result<T, CacheError>;
