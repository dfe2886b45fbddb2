//! `cannctl`: check, explain and emit CANN TF Adapter configurations.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cannctl::cli::Cli::parse();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let code = cannctl::run(&cli, &mut stdout.lock(), &mut stderr.lock());
    ExitCode::from(code)
}
