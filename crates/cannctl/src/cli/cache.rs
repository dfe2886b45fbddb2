//! `cannctl cache info|gc|verify|clear [DIR] [--format human|json] [--config FILE]`

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{human_or_json, OutputFormat};

// Arguments every cache command takes: which cache, and how to report on it.
#[derive(Debug, Clone, Args)]
pub struct CacheArgs {
    pub dir: Option<PathBuf>,
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
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
    },
    Verify {
        #[command(flatten)]
        cache: CacheArgs,
    },
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
