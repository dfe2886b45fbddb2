//! `cannctl cache info|gc|verify|clear [DIR] [--format human|json] [--config FILE]`

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{human_or_json, OutputFormat};

/// Arguments every cache command takes: which cache, and how to report on it.
#[derive(Debug, Clone, Args)]
pub struct CacheArgs {
    /// Cache directory (as given to op_compiler_cache_dir); default: ${ASCEND_CACHE_PATH}, else $HOME/atc_data
    pub dir: Option<PathBuf>,
    /// Output format
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
    /// A cannctl config file: its op_compiler_cache_dir and `env:` values (ASCEND_CACHE_PATH,
    /// ASCEND_MAX_OP_CACHE_SIZE, ...) apply as they would for that job
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `cannctl cache ...`
#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Resolved directory and why, effective limits and their sources, size, entries, oldest access
    Info {
        #[command(flatten)]
        cache: CacheArgs,
    },
    /// Age the cache now: remove idle entries (LRU first) down to the retained share, and leftovers
    Gc {
        #[command(flatten)]
        cache: CacheArgs,
        /// Show what would be removed without removing anything
        #[arg(long)]
        dry_run: bool,
    },
    /// Check every entry: torn entries (error), orphaned, temporary and foreign files (warning)
    Verify {
        #[command(flatten)]
        cache: CacheArgs,
    },
    /// Remove every entry and leftover; symlinks are unlinked, never followed
    Clear {
        #[command(flatten)]
        cache: CacheArgs,
    },
}

impl CacheCommand {
    /// The arguments every variant carries.
    pub fn args(&self) -> &CacheArgs {
        match self {
            CacheCommand::Info { cache }
            | CacheCommand::Gc { cache, .. }
            | CacheCommand::Verify { cache }
            | CacheCommand::Clear { cache } => cache,
        }
    }
}
