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
/// The `cannctl` binary and the Python package's console script call this.
pub fn main<I, T>(argv: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    // Neither stream is held locked for the run: progress displays draw on standard error
    // from their own thread (held, `mem plan`'s spinner waited for it forever on a
    // terminal), and the language server writes standard output from its own thread.
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    main_to(argv, &mut &stdout, &mut &stderr, None)
}

/// The whole command writing to `out` and `err` instead of the process's streams (the
/// Python package's `cannctl.main`, which writes through `sys.stdout`). `terminal` says
/// whether those writers are terminals, for `--color auto`; `None`: they are the process's
/// own streams, and help and `--version` are drawn by clap as the binary draws them.
pub fn main_to<I, T>(
    argv: I,
    out: &mut dyn Write,
    err: &mut dyn Write,
    terminal: Option<bool>,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::error::ErrorKind;
    use clap::FromArgMatches;
    let argv: Vec<std::ffi::OsString> = argv.into_iter().map(Into::into).collect();
    let mut early = cli::prescan(&argv);
    let plain = |c: cli::ColorArg| match (c, terminal) {
        (cli::ColorArg::Auto, Some(false)) => cli::ColorArg::Never,
        _ => c,
    };
    early.color = plain(early.color);
    let parsed = cli::localize::command(early.lang)
        .color(early.color.clap())
        .try_get_matches_from(&argv)
        .and_then(|m| cli::Cli::from_arg_matches(&m));
    match parsed {
        // The language server writes standard output from its own thread: the command
        // itself writes nothing there.
        Ok(cli) if matches!(cli.command, cli::Command::Server) => {
            run(&cli, &mut std::io::sink(), err)
        }
        Ok(mut cli) => {
            cli.color = plain(cli.color);
            run(&cli, out, err)
        }
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
            if terminal.is_none() {
                let _ = e.print();
            } else {
                let text = e.render();
                let to: &mut dyn Write = if e.use_stderr() { &mut *err } else { &mut *out };
                let _ = match early.color {
                    cli::ColorArg::Always => write!(to, "{}", text.ansi()),
                    _ => write!(to, "{text}"),
                };
            }
            u8::try_from(e.exit_code()).unwrap_or(EXIT_INPUT)
        }
        Err(e) => {
            let u = usage::usage_error(&e, early.lang);
            if early.json {
                let _ = writeln!(out, "{:#}", u.to_json());
            } else {
                let color = match terminal {
                    Some(t) => early.color.colors(t),
                    None => render::Colors::of(early.color).stderr,
                };
                let _ = writeln!(err, "{}", render::usage_error(&u, color, early.lang));
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
