//! The `cannctl` command: argument handling, output formatting and exit codes.
//! Every rule and fact comes from `cann_config`; nothing here decides validity.

pub mod cli;
mod cmd;
pub mod embed;
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

/// The whole command: parses `argv` (program name first), runs, and returns the exit code.
/// Both the `cannctl` binary and the Python package's `cannctl` command call this.
pub fn main<I, T>(argv: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::Parser;
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    match cli::Cli::try_parse_from(argv) {
        Ok(cli) => run(&cli, &mut stdout.lock(), &mut stderr.lock()),
        Err(e) => {
            // Help and --version go to stdout with exit 0; usage errors to stderr with 2.
            let _ = e.print();
            u8::try_from(e.exit_code()).unwrap_or(EXIT_INPUT)
        }
    }
}

/// Runs one command, writing results to `out` and problems to `err`.
pub fn run(cli: &cli::Cli, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let result = match &cli.command {
        cli::Command::Check(a) => cmd::check::run(a, out, err),
        cli::Command::Emit(a) => cmd::emit::run(a, out, err),
        cli::Command::Explain(a) => cmd::explain::run(a, out),
        cli::Command::Options(a) => cmd::options::run(a, out),
        cli::Command::Products(a) => cmd::products::run(a, out),
        cli::Command::Diff(a) => cmd::diff::run(a, out),
        cli::Command::Cache(c) => cmd::cache::run(c, out).map_err(CliError::Other),
        cli::Command::Mem(c) => cmd::mem::run(c, out).map_err(CliError::Other),
        cli::Command::Lint(a) => cmd::lint::run(a, out).map_err(CliError::Other),
        cli::Command::Schema => cmd::schema::run(out),
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
