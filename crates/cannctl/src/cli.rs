//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

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
    Cache(crate::cmd::cache::CacheCommand),
    /// Check the options Python training scripts set, on every API surface.
    Lint(crate::cmd::lint::LintArgs),
    /// Simulate memory policies on a trace, compare them, or plan static buffers.
    #[command(subcommand)]
    Mem(crate::cmd::mem::MemCommand),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum OutputFormat {
    #[default]
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum LangArg {
    #[default]
    En,
    Zh,
}

impl From<LangArg> for cann_config::meta::Lang {
    fn from(l: LangArg) -> Self {
        match l {
            LangArg::En => cann_config::meta::Lang::En,
            LangArg::Zh => cann_config::meta::Lang::Zh,
        }
    }
}

#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Product id, e.g. atlas-a2-training (overrides `product:` in the file).
    #[arg(long)]
    pub product: Option<String>,
    /// CANN release, e.g. 9.0.0 (overrides `release:`; default: the newest release).
    #[arg(long)]
    pub release: Option<String>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Config file (YAML or JSON).
    pub file: PathBuf,
    #[command(flatten)]
    pub target: TargetArgs,
    /// A CANN `platform_config/<soc_version>.ini`: check `aicore_num` against its
    /// `cube_core_cnt` and `vector_core_cnt`.
    #[arg(long, value_name = "FILE")]
    pub soc_ini: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
}

/// Output formats of `emit`, named once in `cann_config::emit::Format::ALL`.
fn emit_format(s: &str) -> Result<cann_config::emit::Format, String> {
    cann_config::emit::Format::ALL
        .iter()
        .find(|(name, _)| *name == s)
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            let names: Vec<&str> = cann_config::emit::Format::ALL
                .iter()
                .map(|(n, _)| *n)
                .collect();
            format!("expected one of {}", names.join(", "))
        })
}

#[derive(Debug, Args)]
pub struct EmitArgs {
    /// Config file (YAML or JSON).
    pub file: PathBuf,
    /// What to write: ge (the ge.* option map), estimator, session, tf2, env or json.
    #[arg(long, value_parser = emit_format)]
    pub to: cann_config::emit::Format,
    #[command(flatten)]
    pub target: TargetArgs,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Option name (`static_memory_policy`), dotted path, or environment variable.
    pub option: String,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}

#[derive(Debug, Args)]
pub struct OptionsArgs {
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
}

#[derive(Debug, Args)]
pub struct ProductsArgs {
    /// Only products this release knows.
    #[arg(long)]
    pub release: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier release, e.g. 8.3.RC1.
    pub from: String,
    /// The later release, e.g. 9.0.0.
    pub to: String,
    /// Only what changes for this product.
    #[arg(long)]
    pub product: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: OutputFormat,
}
