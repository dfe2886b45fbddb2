//! Git in an upstream mirror, for the readers that date and compare facts (history, fidelity).

use std::path::Path;
use std::process::Command;

/// `git -C dir args...`: its standard output, or `None` when git refuses (a ref or path the
/// mirror does not have, which the callers treat as an answer); an error only when git
/// cannot be run at all.
pub fn output(dir: &Path, args: &[&str]) -> std::io::Result<Option<String>> {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output()?;
    Ok(out
        .status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned()))
}
