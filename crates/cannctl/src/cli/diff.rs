//! `cannctl diff FROM TO [--product ID]`

use clap::Args;

use super::{human_or_json, OutputFormat};

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier release, e.g. 8.3.RC1.
    pub from: String,
    /// The later release, e.g. 9.0.0.
    pub to: String,
    /// Only what changes for this product.
    #[arg(long)]
    pub product: Option<String>,
    #[arg(long, value_parser = human_or_json(), default_value = "human")]
    pub format: OutputFormat,
}
