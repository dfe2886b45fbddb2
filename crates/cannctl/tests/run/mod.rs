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
