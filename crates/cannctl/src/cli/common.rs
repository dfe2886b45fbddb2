//! Arguments several commands share: the output format, the language and the target.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

/// How a command writes its result. Every command takes `human` and `json`; only `lint`
/// also takes `sarif` (the others accept what [`human_or_json`] admits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum OutputFormat {
    /// Text for people: findings with file:line:col, the source line and a caret.
    #[default]
    Human,
    /// One JSON document.
    Json,
    /// SARIF 2.1.0, for code-scanning systems.
    Sarif,
}

/// The `--format` parser of commands that write text or JSON only.
pub fn human_or_json() -> impl TypedValueParser<Value = OutputFormat> {
    PossibleValuesParser::new(["human", "json"])
        .try_map(|s| <OutputFormat as ValueEnum>::from_str(&s, false))
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

/// The product and release a config file is checked against.
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Product id, e.g. atlas-a2-training (overrides `product:` in the file).
    #[arg(long)]
    pub product: Option<String>,
    /// CANN release, e.g. 9.0.0 (overrides `release:`; default: the newest release).
    #[arg(long)]
    pub release: Option<String>,
}
