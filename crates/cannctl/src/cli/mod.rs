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
pub mod localize;
mod mem;
mod options;
mod products;
mod remote;

use clap::{Parser, Subcommand};

pub use cache::{CacheArgs, CacheCommand};
pub use check::CheckArgs;
pub use common::{
    human_or_json, u16_in, ColorArg, FlagValueError, LangArg, NumberError, OutputFormat, TargetArgs,
};
pub use diff::DiffArgs;
pub use emit::EmitArgs;
pub use explain::ExplainArgs;
pub use lint::LintArgs;
pub use mem::{GrowthArg, MemCommand};
pub use options::OptionsArgs;
pub use products::ProductsArgs;
pub use remote::RemoteArgs;

/// Findings drawn per file by default: enough for any real config, bounded for a generated one.
pub const MAX_FINDINGS: usize = 100;

/// Help texts are not written here: [`localize::command`] takes every one from the catalog
/// (`cann_i18n::catalog::help`), in the user's language.
#[derive(Debug, Parser)]
#[command(name = "cannctl", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[arg(long, global = true, value_enum, default_value_t)]
    pub color: ColorArg,
}

/// A shell `cannctl completions` writes for.
pub use clap_complete::Shell;

#[derive(Debug, Subcommand)]
pub enum Command {
    Check(CheckArgs),
    Emit(EmitArgs),
    Explain(ExplainArgs),
    Options(OptionsArgs),
    Products(ProductsArgs),
    Diff(DiffArgs),
    #[command(subcommand)]
    Cache(CacheCommand),
    Lint(LintArgs),
    #[command(subcommand)]
    Mem(MemCommand),
    Schema {
        #[arg(long, value_enum, default_value_t)]
        lang: LangArg,
    },
    Server,
    Completions {
        #[arg(value_enum)]
        shell: Shell,
        #[arg(long, value_enum, default_value_t)]
        lang: LangArg,
    },
    Man {
        #[arg(long, value_enum, default_value_t)]
        lang: LangArg,
    },
}

impl Command {
    /// The language the command was asked to speak, for errors that stop it.
    pub fn lang(&self) -> cann_config::meta::Lang {
        let arg = match self {
            Command::Check(a) => a.lang.unwrap_or_default(),
            Command::Emit(a) => a.lang,
            Command::Explain(a) => a.lang,
            Command::Options(a) => a.lang,
            Command::Products(a) => a.lang,
            Command::Lint(a) => a.lang.unwrap_or_default(),
            Command::Diff(a) => a.lang,
            Command::Mem(
                MemCommand::Simulate { lang, .. }
                | MemCommand::Compare { lang, .. }
                | MemCommand::Plan { lang, .. },
            ) => *lang,
            Command::Completions { lang, .. }
            | Command::Man { lang }
            | Command::Schema { lang } => *lang,
            Command::Cache(c) => c.args().lang,
            Command::Server => LangArg::default(),
        };
        arg.into()
    }

    /// Whether the command was asked for JSON, so a problem that stops it is JSON too.
    pub fn json(&self) -> bool {
        let format = match self {
            Command::Check(a) => a.format,
            Command::Explain(a) => a.format,
            Command::Options(a) => a.format,
            Command::Products(a) => a.format,
            Command::Diff(a) => a.format,
            Command::Lint(a) => a.format,
            Command::Cache(c) => c.args().format,
            Command::Mem(
                MemCommand::Simulate { format, .. }
                | MemCommand::Compare { format, .. }
                | MemCommand::Plan { format, .. },
            ) => *format,
            Command::Emit(_)
            | Command::Server
            | Command::Schema { .. }
            | Command::Completions { .. }
            | Command::Man { .. } => OutputFormat::Human,
        };
        format == OutputFormat::Json
    }
}

/// What the command line says before it is parsed: the language, colour and format asked
/// for, so that help and usage errors already follow them.
#[derive(Debug, Clone, Copy)]
pub struct Early {
    pub lang: cann_config::meta::Lang,
    pub color: ColorArg,
    pub json: bool,
}

/// Reads `--lang`, `--color` and `--format` (as `--flag value` or `--flag=value`) from
/// `argv` without parsing it; what is absent or not a known value takes its default.
pub fn prescan(argv: &[std::ffi::OsString]) -> Early {
    use clap::ValueEnum;
    let mut early = Early {
        lang: LangArg::default().into(),
        color: ColorArg::default(),
        json: false,
    };
    let args: Vec<&str> = argv
        .iter()
        .skip(1)
        .map(|a| a.to_str().unwrap_or(""))
        .take_while(|a| *a != "--")
        .collect();
    for (i, a) in args.iter().enumerate() {
        let Some(flag) = a.strip_prefix("--") else {
            continue;
        };
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (flag, args.get(i + 1).copied()),
        };
        let Some(value) = value else { continue };
        match name {
            "lang" => {
                if let Ok(l) = LangArg::from_str(value, false) {
                    early.lang = l.into();
                }
            }
            "color" => {
                if let Ok(c) = ColorArg::from_str(value, false) {
                    early.color = c;
                }
            }
            "format" => early.json = value == "json",
            _ => {}
        }
    }
    early
}
