//! The shared test Python (`CANNCTL_TEST_PYTHON`, set up by `.ci/run`): tests that run
//! emitted code on real packages skip with a clear line when it is unset, except under
//! `CI=true`, where a skip would hide a missing install step.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The interpreter to use, or `None` (after printing why) when the test should skip.
pub fn python(test: &str) -> Option<PathBuf> {
    match std::env::var_os("CANNCTL_TEST_PYTHON") {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{test}: CANNCTL_TEST_PYTHON is unset under CI=true; .ci/run must create the venv"
            );
            eprintln!(
                "skipped: {test}: CANNCTL_TEST_PYTHON is unset (a venv with the packages of .ci/run)"
            );
            None
        }
    }
}

/// Runs `script` (a file under tests/python) with `input` on stdin; returns stdout, or
/// panics with stderr when the interpreter fails.
pub fn run(py: &PathBuf, script: &str, input: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script);
    let mut child = Command::new(py)
        .arg(&path)
        .env("TF_CPP_MIN_LOG_LEVEL", "3")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", py.display()));
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} {} failed ({}):\n{}",
        py.display(),
        path.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
