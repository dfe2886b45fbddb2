//! `cannctl check FILE...`

use std::path::PathBuf;

use clap::Args;

use super::{human_or_json, LangArg, OutputFormat, TargetArgs};

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub target: TargetArgs,
    #[arg(long, value_name = "FILE")]
    pub soc_ini: Option<PathBuf>,
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
    /// `None`: `lang` of `[tool.cannctl]`, else the locale's.
    #[arg(long, value_enum)]
    pub lang: Option<LangArg>,
    #[arg(long, value_name = "N", default_value_t = crate::cli::MAX_FINDINGS)]
    pub max_findings: usize,
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
}
