//! A snapshot of the environment variables the cache reads. Library code never calls
//! `std::env` deep inside, so tests are hermetic and a caller can show what was used.

use std::collections::BTreeMap;
use std::ffi::OsString;

use crate::cache::settings::facts::{self, ENV_CACHE_PATH, ENV_MAX_SIZE, ENV_REMAIN_RATIO};

/// `ASCEND_CACHE_PATH`: parent of `kernel_cache` when `op_compiler_cache_dir` is unset.
pub const ASCEND_CACHE_PATH: &str = facts::env_name(ENV_CACHE_PATH);
/// `ASCEND_MAX_OP_CACHE_SIZE`: cache limit in MB, `-1` turns aging off.
pub const ASCEND_MAX_OP_CACHE_SIZE: &str = facts::env_name(ENV_MAX_SIZE);
/// `ASCEND_REMAIN_CACHE_SIZE_RATIO`: share of the limit kept after aging, in percent.
pub const ASCEND_REMAIN_CACHE_SIZE_RATIO: &str = facts::env_name(ENV_REMAIN_RATIO);
/// `HOME`: the last fallback, `$HOME/atc_data` (POSIX, not a CANN fact).
pub const HOME: &str = "HOME";

/// Every variable name the cache consults, for [`EnvSnapshot::from_process`].
pub const VARS: [&str; 4] = [
    ASCEND_CACHE_PATH,
    ASCEND_MAX_OP_CACHE_SIZE,
    ASCEND_REMAIN_CACHE_SIZE_RATIO,
    HOME,
];

/// The values of [`VARS`] at one moment. Unset and set-to-empty are both "absent", matching
/// the upstream tool, which treats an empty value as unset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvSnapshot {
    vars: BTreeMap<String, OsString>,
}

impl EnvSnapshot {
    /// An empty environment.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Reads [`VARS`] from this process's environment.
    pub fn from_process() -> Self {
        let mut snap = Self::default();
        for name in VARS {
            if let Some(v) = std::env::var_os(name) {
                snap.vars.insert(name.to_owned(), v);
            }
        }
        snap
    }

    /// Builder used by tests and by glue code that has its own environment model.
    pub fn with(mut self, name: &str, value: impl Into<OsString>) -> Self {
        self.vars.insert(name.to_owned(), value.into());
        self
    }

    /// The value of `name`, or `None` when unset or empty.
    pub fn get(&self, name: &str) -> Option<&OsString> {
        self.vars.get(name).filter(|v| !v.is_empty())
    }

    /// The value as text; a non-UTF-8 value is returned lossily so it can still be reported.
    pub fn get_str(&self, name: &str) -> Option<String> {
        self.get(name).map(|v| v.to_string_lossy().into_owned())
    }
}
