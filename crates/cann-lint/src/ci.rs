//! What CI systems read: GitHub Actions workflow commands and GitLab Code Quality reports,
//! and what they share with SARIF: paths relative to the directory the tool ran in and a
//! fingerprint per finding that stays the same while the code around it moves.

use std::collections::HashMap;
use std::hash::Hasher;
use std::path::{Component, Path};

use cann_config::meta::Severity;
use serde_json::{json, Value};

use crate::{Finding, Outcome};

/// `path` as CI systems want it: relative to `base` (forward slashes, no `./`) when it lies
/// below it, even when it was given as an absolute path; otherwise as given.
pub fn relative(path: &Path, base: &Path) -> String {
    let shown = if path.is_absolute() {
        match path.strip_prefix(base) {
            Ok(rel) => rel,
            Err(_) => return path.to_string_lossy().replace('\\', "/"),
        }
    } else {
        path
    };
    let parts: Vec<String> = shown
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// The message with what was expected and the hint, in one line of text.
pub fn full_message(f: &Finding) -> String {
    let d = &f.diagnostic;
    let mut text = d.message.clone();
    if let Some(e) = &d.expected {
        text.push_str(&format!(" (expected: {e})"));
    }
    if let Some(h) = &d.hint {
        let stop = if text.ends_with(['.', '。']) {
            ""
        } else {
            "."
        };
        text.push_str(&format!("{stop} Hint: {h}"));
    }
    text
}

/// Fingerprints of a file's findings, in the file's finding order. A fingerprint hashes the
/// rule, the file, the option and the text of the finding's line (not its number, so edits
/// elsewhere in the file keep it), and counts repeats of the same line text.
pub fn fingerprints(rel: &str, source: &str, findings: &[Finding]) -> Vec<String> {
    let lines: Vec<&str> = source.lines().collect();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    findings
        .iter()
        .map(|f| {
            let line = lines
                .get(f.line().saturating_sub(1) as usize)
                .map_or("", |l| l.trim());
            let mut h = fnv::FnvHasher::default();
            for part in [f.rule_id(), rel, f.diagnostic.option.as_str(), line] {
                h.write(part.as_bytes());
                h.write_u8(0xff);
            }
            let base = h.finish();
            let n = seen.entry(base).or_insert(0);
            *n += 1;
            format!("{base:016x}:{n}")
        })
        .collect()
}

/// Escapes the message of a workflow command (`::error ...::message`).
fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property of a workflow command (`file=...,title=...`).
fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One GitHub Actions workflow command per finding, which the runner shows as an
/// annotation on the line.
pub fn github(outcome: &Outcome, base: &Path) -> String {
    let mut out = String::new();
    for file in &outcome.files {
        let rel = relative(&file.path, base);
        for f in &file.findings {
            let level = match f.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "notice",
            };
            out.push_str(&format!(
                "::{level} file={},line={},col={},title={}::{}\n",
                gh_property(&rel),
                f.line(),
                f.column(),
                gh_property(&format!("cannctl {}", f.rule_id())),
                gh_data(&full_message(f))
            ));
        }
    }
    out
}

/// A GitLab Code Quality report: one issue per finding, with a fingerprint that lets GitLab
/// tell new findings from ones a merge request left alone.
pub fn gitlab(outcome: &Outcome, base: &Path) -> Value {
    let mut issues = Vec::new();
    for file in &outcome.files {
        let rel = relative(&file.path, base);
        let prints = fingerprints(&rel, &file.source, &file.findings);
        for (f, fp) in file.findings.iter().zip(prints) {
            let severity = match f.severity() {
                Severity::Error => "major",
                Severity::Warning => "minor",
                Severity::Note => "info",
            };
            issues.push(json!({
                "type": "issue",
                "check_name": f.rule_id(),
                "description": full_message(f),
                "categories": ["Bug Risk"],
                "severity": severity,
                "fingerprint": fp,
                "location": {
                    "path": rel,
                    "lines": { "begin": f.line() },
                },
            }));
        }
    }
    Value::Array(issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_paths_below_the_base_become_relative() {
        let base = Path::new("/work/repo");
        assert_eq!(
            relative(Path::new("/work/repo/src/train.py"), base),
            "src/train.py"
        );
        assert_eq!(relative(Path::new("./src/train.py"), base), "src/train.py");
        assert_eq!(
            relative(Path::new("/elsewhere/x.py"), base),
            "/elsewhere/x.py"
        );
    }

    #[test]
    fn workflow_commands_escape_what_would_end_them() {
        assert_eq!(gh_data("50%\nnext"), "50%25%0Anext");
        assert_eq!(gh_property("a:b,c"), "a%3Ab%2Cc");
    }
}
