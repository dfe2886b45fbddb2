//! `cannctl`: check, explain and emit CANN TF Adapter configurations.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(cannctl::main(std::env::args_os()))
}
