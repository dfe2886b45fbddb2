//! The `cannctl` command: argument handling, output formatting and exit codes.
//! Every rule and fact comes from `cann_config`; nothing here decides validity.

pub mod cli;
mod cmd;
mod error;
mod render;

use std::io::Write;

pub use error::CliError;

/// Exit code: no finding at error severity.
pub const EXIT_OK: u8 = 0;
/// Exit code: at least one finding at error severity.
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code: usage error, or input that cannot be read or parsed.
pub const EXIT_INPUT: u8 = 2;

/// Runs one command, writing results to `out` and problems to `err`.
pub fn run(cli: &cli::Cli, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let result = match &cli.command {
        cli::Command::Check(a) => cmd::check::run(a, out),
        cli::Command::Emit(a) => cmd::emit::run(a, out, err),
        cli::Command::Explain(a) => cmd::explain::run(a, out),
        cli::Command::Options(a) => cmd::options::run(a, out),
        cli::Command::Products(a) => cmd::products::run(a, out),
        cli::Command::Diff(a) => cmd::diff::run(a, out),
        cli::Command::Cache(c) => cmd::cache::run(c, out).map_err(CliError::Other),
        cli::Command::Mem(c) => cmd::mem::run(c, out).map_err(CliError::Other),
        cli::Command::Lint(a) => cmd::lint::run(a, out).map_err(CliError::Other),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(
                err,
                "{}",
                render::input_error(&e, render::use_color_stderr(), cli.command.lang())
            );
            EXIT_INPUT
        }
    }
}
