//! The `cannctl` command: argument handling, output formatting and exit codes.
//! Every rule and fact comes from `cann_config`; nothing here decides validity.

pub mod cli;
mod cmd;
pub mod embed;
mod error;
mod render;
mod usage;

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
    use clap::error::ErrorKind;
    use clap::FromArgMatches;
    let argv: Vec<std::ffi::OsString> = argv.into_iter().map(Into::into).collect();
    let early = cli::prescan(&argv);
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let parsed = cli::localize::command(early.lang)
        .color(early.color.clap())
        .try_get_matches_from(&argv)
        .and_then(|m| cli::Cli::from_arg_matches(&m));
    match parsed {
        // Standard error is not held locked for the run: progress displays draw on it from
        // their own thread (held, `mem plan`'s spinner waited for it forever on a terminal).
        // The language server writes standard output from its own thread: not held here.
        Ok(cli) if matches!(cli.command, cli::Command::Server) => {
            run(&cli, &mut std::io::sink(), &mut &stderr)
        }
        Ok(cli) => run(&cli, &mut stdout.lock(), &mut &stderr),
        // Help and --version go to stdout with exit 0 (help for a missing command to
        // stderr with 2), in the language asked for.
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            let _ = e.print();
            u8::try_from(e.exit_code()).unwrap_or(EXIT_INPUT)
        }
        Err(e) => {
            let u = usage::usage_error(&e, early.lang);
            if early.json {
                let _ = writeln!(stdout.lock(), "{:#}", u.to_json());
            } else {
                let _ = writeln!(
                    stderr.lock(),
                    "{}",
                    render::usage_error(&u, render::Colors::of(early.color).stderr, early.lang)
                );
            }
            EXIT_INPUT
        }
    }
}

/// Runs one command, writing results to `out` and problems to `err` (to `out`, as JSON,
/// when the command was asked for JSON).
pub fn run(cli: &cli::Cli, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let colors = render::Colors::of(cli.color);
    let result = match &cli.command {
        cli::Command::Check(a) => cmd::check::run(a, colors, out, err),
        cli::Command::Emit(a) => cmd::emit::run(a, colors, out, err),
        cli::Command::Explain(a) => cmd::explain::run(a, out),
        cli::Command::Options(a) => cmd::options::run(a, out),
        cli::Command::Products(a) => cmd::products::run(a, out),
        cli::Command::Diff(a) => cmd::diff::run(a, out),
        cli::Command::Cache(c) => cmd::cache::run(c, out).map_err(CliError::Other),
        cli::Command::Mem(c) => cmd::mem::run(c, out).map_err(CliError::Other),
        cli::Command::Lint(a) => cmd::lint::run(a, colors, out),
        cli::Command::Schema { .. } => cmd::schema::run(out),
        cli::Command::Server => cmd::server::run(),
        cli::Command::Completions { shell, lang } => cmd::completions::run(*shell, *lang, out),
        cli::Command::Man { lang } => cmd::completions::man(*lang, out),
    };
    match result {
        Ok(code) => code,
        Err(e) if cli.command.json() => {
            let _ = writeln!(out, "{:#}", render::error_json(&e, cli.command.lang()));
            EXIT_INPUT
        }
        Err(e) => {
            let _ = writeln!(
                err,
                "{}",
                render::input_error(&e, colors.stderr, cli.command.lang())
            );
            EXIT_INPUT
        }
    }
}
