//! `cannctl emit FILE --to SURFACE`

use std::path::PathBuf;

use clap::Args;

use super::{LangArg, TargetArgs};

/// Surfaces `emit` writes, named once in `cann_config::emit::Format::ALL`.
fn emit_format(s: &str) -> Result<cann_config::emit::Format, super::FlagValueError> {
    cann_config::emit::Format::from_name(s).ok_or(super::FlagValueError::OneOf(
        cann_config::emit::Format::names(),
    ))
}

#[derive(Debug, Args)]
pub struct EmitArgs {
    pub file: PathBuf,
    #[arg(long, value_parser = emit_format)]
    pub to: cann_config::emit::Format,
    #[command(flatten)]
    pub target: TargetArgs,
    #[arg(long, value_enum, default_value_t)]
    pub lang: LangArg,
}
