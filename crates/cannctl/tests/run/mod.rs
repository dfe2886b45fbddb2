//! Running the built `cannctl` as a user does, shared by the CLI test files.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root, where the examples and the spec are.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `cannctl` from the repository root, in English unless a test asks: the language
/// follows the locale by default.
pub fn cannctl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .args(args)
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8")
        .output()
        .expect("cannctl runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// What a user sees of a run, whole: the exit code, standard output and standard error,
/// with each `(text, stand-in)` of `replace` swapped (a temporary path, say), for a
/// snapshot that any change of the output shows in.
pub fn transcript(o: &Output, replace: &[(&str, &str)]) -> String {
    let code = o
        .status
        .code()
        .map_or_else(|| "killed".to_string(), |c| c.to_string());
    let mut t = format!(
        "exit: {code}\n--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    for (from, to) in replace {
        t = t.replace(from, to);
    }
    t
}
