//! SARIF 2.1.0 output for code-scanning systems.
//!
//! One run; one reporting descriptor per rule id that occurs (a spec rule, an option path, or
//! a kind of API misuse), described from the spec in the requested language. Columns count
//! Unicode code points, as the findings do, and the run says so (`columnKind`).

use std::collections::BTreeMap;
use std::path::Path;

use cann_config::meta::{Lang, Severity};
use cann_config::{OPTIONS, RULES};
use serde_json::{json, Map, Value};

use crate::{Finding, FindingKind, Outcome};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn pick(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// What a rule id stands for, in a sentence.
fn describe(f: &Finding, lang: Lang) -> String {
    match f.kind {
        FindingKind::UnknownOption => pick(
            lang,
            "A name the API does not know: a keyword raises TypeError, a TF2 attribute ValueError, and a parameter_map key is ignored.",
            "接口不认识的名称：关键字参数会抛出 TypeError，TF2 属性会抛出 ValueError，parameter_map 键会被忽略。",
        )
        .into(),
        FindingKind::Type => pick(
            lang,
            "A value of a type the API refuses; the script raises when it gets there.",
            "接口不接受该类型的值；脚本运行到此处会抛出异常。",
        )
        .into(),
        FindingKind::Accessor => pick(
            lang,
            "A session option set through an accessor (.i/.s/.b) other than the one the adapter reads.",
            "session 选项使用了适配器不读取的访问器（.i/.s/.b）设置。",
        )
        .into(),
        FindingKind::NotOnSurface => pick(
            lang,
            "An option set through an API that does not offer it.",
            "通过不提供该选项的接口设置了该选项。",
        )
        .into(),
        FindingKind::Spec => {
            if let Some(r) = f
                .diagnostic
                .rule
                .and_then(|id| RULES.iter().find(|r| r.id == id))
            {
                return r.message.get(lang).into();
            }
            match OPTIONS.iter().find(|o| o.path == f.diagnostic.option) {
                Some(o) => o.doc.get(lang).into(),
                None => f.diagnostic.option.clone(),
            }
        }
    }
}

/// A URI reference for `path`: relative paths stay relative (to the directory the tool ran
/// in), absolute ones become `file://` URIs. Bytes outside the unreserved set are escaped.
pub fn uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::with_capacity(text.len());
    if path.is_absolute() {
        out.push_str("file://");
    }
    for b in text.trim_start_matches("./").bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(char::from(b))
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn message(f: &Finding) -> String {
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

/// The whole outcome as one SARIF log.
pub fn to_sarif(outcome: &Outcome, lang: Lang) -> Value {
    let mut rules: BTreeMap<String, (usize, Value)> = BTreeMap::new();
    for (_, f) in outcome.findings() {
        let id = f.rule_id().to_string();
        let next = rules.len();
        rules.entry(id.clone()).or_insert_with(|| {
            (
                next,
                json!({
                    "id": id,
                    "shortDescription": { "text": describe(f, lang) },
                    "defaultConfiguration": { "level": level(f.severity()) },
                }),
            )
        });
    }
    let results: Vec<Value> = outcome
        .findings()
        .map(|(file, f)| {
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
            json!({
                "ruleId": f.rule_id(),
                "ruleIndex": index,
                "level": level(f.severity()),
                "message": { "text": message(f) },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri(&file.path) },
                        "region": { "startLine": f.line(), "startColumn": f.column() },
                    }
                }],
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
            "results": results,
        }]
    })
}
