//! `cannctl server`: the language server (`cann_lsp`) on standard input and output.

use crate::cli::LangArg;
use crate::{CliError, EXIT_OK};

pub fn run() -> Result<u8, CliError> {
    cann_lsp::run_stdio().map_err(|e| {
        let lang = LangArg::default().into();
        CliError::Other(e.message(lang).into())
    })?;
    Ok(EXIT_OK)
}
