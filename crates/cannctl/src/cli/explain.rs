//! `cannctl explain OPTION`

use clap::Args;

use super::{human_or_json, LangArg, OutputFormat};

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Any name of the option: its name (`static_memory_policy`), dotted path or its tail
    /// (`memory_config.static_memory_policy`), `ge.*` key, Estimator keyword, session
    /// `parameter_map` name, TF2 path, environment variable, or a retired spelling.
    pub option: String,
    /// Show the facts of this CANN release, e.g. 8.3.RC1 (default: the newest release).
    #[arg(long)]
    pub release: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
}
