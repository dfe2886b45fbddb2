//! `cannctl check FILE...`

use std::path::PathBuf;

use clap::Args;

use super::{human_or_json, LangArg, OutputFormat, TargetArgs};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Config files (YAML or JSON). With several, each is checked on its own and the exit
    /// code is the worst; `--format json` then prints an array of the per-file reports.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub target: TargetArgs,
    /// A CANN `platform_config/<soc_version>.ini`: check `aicore_num` against its
    /// `cube_core_cnt` and `vector_core_cnt`.
    #[arg(long, value_name = "FILE")]
    pub soc_ini: Option<PathBuf>,
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
    /// Findings drawn per file in human output, the rest counted (0: all). JSON has all.
    #[arg(long, value_name = "N", default_value_t = crate::cli::MAX_FINDINGS)]
    pub max_findings: usize,
}
