//! `cannctl lint PATH...`

use std::path::PathBuf;

use clap::Args;

use super::{LangArg, OutputFormat};

#[derive(Debug, Args)]
pub struct LintArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[arg(long)]
    pub product: Option<String>,
    #[arg(long)]
    pub release: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    /// `None`: `lang` of `[tool.cannctl]`, else the locale's.
    #[arg(long, value_enum)]
    pub lang: Option<LangArg>,
    #[arg(long, value_name = "N", default_value_t = super::MAX_FINDINGS)]
    pub max_findings: usize,
    #[arg(long)]
    pub no_progress: bool,
    #[arg(long, conflicts_with = "diff")]
    pub fix: bool,
    #[arg(long)]
    pub diff: bool,
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
    #[arg(long, env = "CANNCTL_DOCS_URL", value_name = "URL")]
    pub docs_url: Option<String>,
}
