//! SARIF 2.1.0 output for code-scanning systems.
//!
//! One run; one reporting descriptor per rule id that occurs (a spec rule, an option path, or
//! a kind of API misuse), described by its rule module (`crate::rules`) in the requested
//! language. Columns count
//! Unicode code points, as the findings do, and the run says so (`columnKind`). Paths are
//! relative to `%SRCROOT%` (the directory the tool ran in) even when given as absolute
//! paths; each result has a fingerprint that survives edits elsewhere in the file
//! (`partialFingerprints`), and with a docs URL each rule links its option's page.

use std::collections::BTreeMap;
use std::path::Path;

use cann_config::meta::{Lang, Severity};
use serde_json::{json, Map, Value};

pub use crate::docs::{docs_page, option_page};
use crate::Outcome;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base that relative artifact URIs resolve against: the directory the tool ran in.
const SRCROOT: &str = "%SRCROOT%";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// Escapes the bytes of a path outside the unreserved set, for a URI.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A URI reference for `path`: relative to `base` (the directory the tool ran in, the
/// `%SRCROOT%` of the log) whenever it lies below it, even if it was given as an absolute
/// path; a `file://` URI otherwise.
pub fn uri(path: &Path, base: &Path) -> String {
    let rel = crate::ci::relative(path, base);
    if rel.starts_with('/') {
        format!("file://{}", escape(&rel))
    } else {
        escape(&rel)
    }
}

/// What a SARIF log is made relative to.
#[derive(Debug, Clone, Copy)]
pub struct SarifOptions<'a> {
    pub lang: Lang,
    /// The directory paths are made relative to (usually the current directory).
    pub base: &'a Path,
    /// Where the generated docs site is served; each rule then links its option's page.
    pub docs_url: Option<&'a str>,
}

/// The whole outcome as one SARIF log.
pub fn to_sarif(outcome: &Outcome, o: &SarifOptions<'_>) -> Value {
    let lang = o.lang;
    let mut rules: BTreeMap<String, (usize, Value)> = BTreeMap::new();
    for (_, f) in outcome.findings() {
        let id = f.rule_id().to_string();
        let next = rules.len();
        rules.entry(id.clone()).or_insert_with(|| {
            let mut json_rule = json!({
                "id": id,
                "shortDescription": { "text": crate::rules::describe(f, lang) },
                "defaultConfiguration": { "level": level(f.severity()) },
            });
            if let Some(u) = o.docs_url.and_then(|d| crate::rules::help(f, d)) {
                json_rule["helpUri"] = json!(u);
            }
            (next, json_rule)
        });
    }
    let prints: Vec<String> = outcome
        .files
        .iter()
        .flat_map(|file| {
            crate::ci::fingerprints(
                &crate::ci::relative(&file.path, o.base),
                &file.source,
                &file.findings,
            )
        })
        .collect();
    let results: Vec<Value> = outcome
        .findings()
        .zip(prints)
        .map(|((file, f), print)| {
            let d = &f.diagnostic;
            let index = rules.get(f.rule_id()).map_or(0, |(i, _)| *i);
            let mut props = Map::new();
            props.insert("surface".into(), json!(f.surface));
            props.insert("kind".into(), json!(f.kind));
            if !d.option.is_empty() {
                props.insert("option".into(), json!(d.option));
            }
            for (k, v) in [
                ("value", &d.value),
                ("expected", &d.expected),
                ("hint", &d.hint),
            ] {
                if let Some(v) = v {
                    props.insert(k.into(), json!(v));
                }
            }
            let u = uri(&file.path, o.base);
            let mut artifact = json!({ "uri": u });
            if !u.starts_with("file:") {
                artifact["uriBaseId"] = json!(SRCROOT);
            }
            json!({
                "ruleId": f.rule_id(),
                "ruleIndex": index,
                "level": level(f.severity()),
                "message": { "text": crate::ci::full_message(f) },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact,
                        "region": { "startLine": f.line(), "startColumn": f.column() },
                    }
                }],
                "partialFingerprints": { "primaryLocationLineHash": print },
                "properties": props,
            })
        })
        .collect();
    let mut ordered: Vec<(usize, Value)> = rules.into_values().collect();
    ordered.sort_by_key(|(i, _)| *i);
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "cannctl",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": ordered.into_iter().map(|(_, r)| r).collect::<Vec<_>>(),
                }
            },
            "columnKind": "unicodeCodePoints",
            "originalUriBaseIds": {
                SRCROOT: { "uri": format!("file://{}/", escape(&o.base.to_string_lossy()).trim_end_matches('/')) }
            },
            "results": results,
        }]
    })
}
