//! `spec/fidelity/exceptions.yaml`: the places where the spec differs from the upstream code
//! on purpose. `cargo xtask fidelity` and `cann-config`'s fidelity test compare the spec with
//! the facts read from the upstream refs of each release; a disagreement passes only when an
//! exception here names it, says why in English and Chinese, and cites the upstream line it
//! rests on. An exception that matches nothing is an error too, so the file cannot go stale.
//!
//! ```yaml
//! exceptions:
//!   - finding: "constructor-missing:NPURunConfig.session_config"
//!     releases: ["9.0.0", "next"]
//!     reason: { en: "...", zh: "..." }
//!     source: ["hicann/tensorflow@tfa_v0.0.48_9.0.0:tf_adapter/.../npu_config.py:46"]
//! ```

use crate::source::Cited;
use crate::yaml::{self, Node};

/// One deliberate difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exception {
    /// The finding's key, `kind:subject`, as the comparison prints it.
    pub finding: String,
    /// The release ids it holds in.
    pub releases: Vec<String>,
    pub reason_en: String,
    pub reason_zh: String,
    /// Upstream lines it rests on (`owner/name@ref:path:line`).
    pub source: Vec<String>,
    /// 1-based line of the entry in the file.
    pub line: u32,
}

impl Exception {
    pub fn covers(&self, finding: &str, release: &str) -> bool {
        self.finding == finding && self.releases.iter().any(|r| r == release)
    }
}

fn text<'a>(map: &'a [(Node, Node)], key: &str) -> Option<&'a Node> {
    map.iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

fn strings(n: Option<&Node>) -> Option<Vec<String>> {
    n?.as_seq()?
        .iter()
        .map(|s| s.as_str().map(String::from))
        .collect()
}

/// Reads the file's text; `known` are the spec's release ids. Errors name the line, what
/// was expected and what to do.
pub fn parse_exceptions(path: &str, src: &str, known: &[&str]) -> Result<Vec<Exception>, String> {
    let doc = yaml::parse(src).map_err(|e| format!("{path}: YAML syntax error: {}", e.message))?;
    let list = doc
        .as_map()
        .and_then(|m| text(m, "exceptions"))
        .and_then(Node::as_seq)
        .ok_or_else(|| {
            format!(
                "{path}:{}: expected a mapping with a list `exceptions`",
                doc.pos
            )
        })?;
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for e in list {
        let at = format!("{path}:{}", e.pos);
        let Some(m) = e.as_map() else {
            errors.push(format!(
                "{at}: expected a mapping (finding, releases, reason, source)"
            ));
            continue;
        };
        for (k, _) in m {
            let k = k.as_str().unwrap_or_default();
            if !["finding", "releases", "reason", "source"].contains(&k) {
                errors.push(format!(
                    "{at}: unknown key `{k}` (expected finding, releases, reason, source)"
                ));
            }
        }
        let finding = text(m, "finding")
            .and_then(Node::as_str)
            .unwrap_or_default();
        if !finding.contains(':') {
            errors.push(format!(
                "{at}: `finding` must be a finding's key, `kind:subject`, as `cargo xtask fidelity` prints it"
            ));
        }
        let releases = strings(text(m, "releases")).unwrap_or_default();
        if releases.is_empty() {
            errors.push(format!(
                "{at}: `releases` must list the release ids it holds in"
            ));
        }
        for r in &releases {
            if !known.contains(&r.as_str()) {
                errors.push(format!(
                    "{at}: unknown release `{r}` (releases.yaml has {})",
                    known.join(", ")
                ));
            }
        }
        let reason = text(m, "reason").and_then(Node::as_map).unwrap_or_default();
        let lang = |l: &str| text(reason, l).and_then(Node::as_str).unwrap_or_default();
        let (en, zh) = (lang("en"), lang("zh"));
        if en.trim().is_empty() || zh.trim().is_empty() {
            errors.push(format!("{at}: `reason` needs `en` and `zh`, our own words"));
        }
        let source = strings(text(m, "source")).unwrap_or_default();
        if source.is_empty() {
            errors.push(format!(
                "{at}: `source` must cite the upstream line it rests on"
            ));
        }
        for s in &source {
            if Cited::parse(s).and_then(|c| c.line).is_none() {
                errors.push(format!(
                    "{at}: source `{s}` is not a line citation (owner/name@ref:path:line)"
                ));
            }
        }
        out.push(Exception {
            finding: finding.to_string(),
            releases,
            reason_en: en.to_string(),
            reason_zh: zh.to_string(),
            source,
            line: e.pos.line,
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_exceptions;

    fn err(path: &str, src: &str, known: &[&str]) -> String {
        parse_exceptions(path, src, known).err().unwrap_or_default()
    }

    const OK: &str = r#"
exceptions:
  - finding: "session-missing:auto_tune_mode"
    releases: ["9.0.0"]
    reason: { en: "Refused by the engine.", zh: "图引擎拒绝。" }
    source: ["hicann/ge@v9.0.0:a/b.cc:12"]
"#;

    #[test]
    fn an_exception_names_its_finding_releases_reason_and_line() {
        let e = parse_exceptions("x.yaml", OK, &["9.0.0", "next"]).unwrap_or_default();
        assert_eq!(e.len(), 1);
        assert!(e[0].covers("session-missing:auto_tune_mode", "9.0.0"));
        assert!(!e[0].covers("session-missing:auto_tune_mode", "next"));
        assert_eq!(e[0].line, 3);
    }

    #[test]
    fn bad_entries_are_refused_with_where_and_what() {
        let unknown = err("x.yaml", OK, &["next"]);
        assert!(unknown.contains("x.yaml:3:") && unknown.contains("unknown release `9.0.0`"));
        let no_line = OK.replace("b.cc:12", "b.cc");
        let e = err("x.yaml", &no_line, &["9.0.0"]);
        assert!(e.contains("not a line citation"), "{e}");
        let no_zh = OK.replace(", zh: \"图引擎拒绝。\"", "");
        let e = err("x.yaml", &no_zh, &["9.0.0"]);
        assert!(e.contains("`en` and `zh`"), "{e}");
        let e = err("x.yaml", "exceptions: 3", &["9.0.0"]);
        assert!(e.contains("a list `exceptions`"), "{e}");
    }
}
