//! Command-line arguments: every flag of every command is declared here, one module per
//! command, so `cmd/*` only reads them. Nothing here imports `cmd`, so arguments never
//! depend on how a command runs.

mod cache;
mod check;
mod common;
mod diff;
mod emit;
mod explain;
mod lint;
mod mem;
mod options;
mod products;

use clap::{Parser, Subcommand};

pub use cache::{CacheArgs, CacheCommand};
pub use check::CheckArgs;
pub use common::{human_or_json, LangArg, OutputFormat, TargetArgs};
pub use diff::DiffArgs;
pub use emit::EmitArgs;
pub use explain::ExplainArgs;
pub use lint::LintArgs;
pub use mem::{GrowthArg, MemCommand};
pub use options::OptionsArgs;
pub use products::ProductsArgs;

/// Findings drawn per file by default: enough for any real config, bounded for a generated one.
pub const MAX_FINDINGS: usize = 100;

#[derive(Debug, Parser)]
#[command(
    name = "cannctl",
    version,
    about = "Check, explain and emit Ascend CANN TF Adapter configurations"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate a config file against a product and release; exit 1 on errors.
    Check(CheckArgs),
    /// Write a validated config for the graph engine, a training script or the shell.
    Emit(EmitArgs),
    /// Describe one option: type, default, values, products by release, keys, rules.
    Explain(ExplainArgs),
    /// List every option of the spec.
    Options(OptionsArgs),
    /// List the products the spec knows.
    Products(ProductsArgs),
    /// What changed between two releases: products, options, values, support, defaults.
    Diff(DiffArgs),
    /// Inspect and maintain an operator compile cache directory.
    #[command(subcommand)]
    Cache(CacheCommand),
    /// Check the options Python training scripts set, on every API surface.
    Lint(LintArgs),
    /// Simulate memory policies on a trace, compare them, or plan static buffers.
    #[command(subcommand)]
    Mem(MemCommand),
    /// Print the JSON Schema of config files, for editors (`$id`: the schema's URI).
    Schema,
}

impl Command {
    /// The language the command was asked to speak, for errors that stop it.
    pub fn lang(&self) -> cann_config::meta::Lang {
        let arg = match self {
            Command::Check(a) => a.lang,
            Command::Emit(a) => a.lang,
            Command::Explain(a) => a.lang,
            Command::Options(a) => a.lang,
            Command::Products(a) => a.lang,
            Command::Lint(a) => a.lang,
            Command::Mem(MemCommand::Plan { lang, .. }) => *lang,
            Command::Diff(_) | Command::Cache(_) | Command::Mem(_) | Command::Schema => {
                LangArg::default()
            }
        };
        arg.into()
    }
}
