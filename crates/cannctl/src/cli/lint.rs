//! `cannctl lint PATH...`

use std::path::PathBuf;

use clap::Args;

use super::{LangArg, OutputFormat};

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Scripts, or directories to search for `.py` files (honouring .gitignore).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Product id, e.g. atlas-a2-training. Without one, only what is wrong on every
    /// product of the release is reported.
    #[arg(long)]
    pub product: Option<String>,
    /// CANN release, e.g. 9.0.0 (default: the newest release).
    #[arg(long)]
    pub release: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
    /// Findings drawn per file in human output, the rest counted (0: all). JSON and SARIF
    /// have all.
    #[arg(long, value_name = "N", default_value_t = super::MAX_FINDINGS)]
    pub max_findings: usize,
    /// Never draw a progress bar (one is drawn only on a terminal, for large trees).
    #[arg(long)]
    pub no_progress: bool,
    /// Apply the safe fixes to the scripts, then report what is left.
    #[arg(long, conflicts_with = "diff")]
    pub fix: bool,
    /// Print the safe fixes as a unified diff and change nothing (exit 1 if there are any).
    #[arg(long)]
    pub diff: bool,
    /// Where the generated docs site is served; SARIF rules then link their option's page
    /// (`helpUri`).
    #[arg(long, env = "CANNCTL_DOCS_URL", value_name = "URL")]
    pub docs_url: Option<String>,
}
