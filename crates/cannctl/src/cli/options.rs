//! `cannctl options`

use clap::Args;

use super::{human_or_json, LangArg, OutputFormat};

#[derive(Debug, Args)]
pub struct OptionsArgs {
    pub name: Option<String>,
    #[arg(long)]
    pub product: Option<String>,
    #[arg(long)]
    pub release: Option<String>,
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
}
