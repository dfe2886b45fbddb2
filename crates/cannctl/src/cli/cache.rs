//! `cannctl cache info|gc|verify|clear [DIR] [--format human|json] [--config FILE]`

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{human_or_json, LangArg, OutputFormat, RemoteArgs};

// Arguments every cache command takes: which cache, and how to report on it.
#[derive(Debug, Clone, Args)]
pub struct CacheArgs {
    pub dir: Option<PathBuf>,
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Language of messages (default: from LC_ALL / LC_MESSAGES / LANG)
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    Info {
        #[command(flatten)]
        cache: CacheArgs,
    },
    Gc {
        #[command(flatten)]
        cache: CacheArgs,
        #[arg(long)]
        dry_run: bool,
        /// Age a shared store instead (see `cache push`): entries by last push or pull, under
        /// DIR's limit and retained share (op_cache.ini, ASCEND_MAX_OP_CACHE_SIZE, ...)
        #[arg(long, value_name = "URL")]
        remote: Option<String>,
        /// With --remote: the store's limit in MB instead of DIR's
        #[arg(long, value_name = "MB", requires = "remote")]
        max_size: Option<u32>,
    },
    Verify {
        #[command(flatten)]
        cache: CacheArgs,
    },
    Clear {
        #[command(flatten)]
        cache: CacheArgs,
    },
    /// Upload to a shared store the entries it lacks (scoped by SoC and op_cache.ini's toolkit stamps)
    Push {
        #[command(flatten)]
        cache: CacheArgs,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Bring from a shared store the entries of this toolkit and SoC the cache lacks; every object's hash is checked
    Pull {
        #[command(flatten)]
        cache: CacheArgs,
        #[command(flatten)]
        remote: RemoteArgs,
        /// SoC directory to pull (repeatable; default: the SoC directories the cache has)
        #[arg(long, value_name = "NAME")]
        soc: Vec<String>,
        /// Binary format to pull (repeatable, e.g. elf64le-em183; default: the formats of the cache's own entries of each SoC, or the only one stored)
        #[arg(long, value_name = "FORMAT")]
        binary_format: Vec<String>,
    },
}

impl CacheCommand {
    /// The arguments every variant carries.
    pub fn args(&self) -> &CacheArgs {
        match self {
            CacheCommand::Info { cache }
            | CacheCommand::Gc { cache, .. }
            | CacheCommand::Verify { cache }
            | CacheCommand::Clear { cache }
            | CacheCommand::Push { cache, .. }
            | CacheCommand::Pull { cache, .. } => cache,
        }
    }
}
