//! SARIF output checked against the SARIF 2.1.0 schema.
//!
//! `serde-sarif`'s types are generated (at its build time) from the official SARIF 2.1.0
//! JSON Schema, which the crate ships. Reading our log into them checks property names,
//! types, required properties and enumerations; writing it back and comparing catches any
//! property the schema does not define (it would be dropped on the way). What the types do
//! not encode (minimum values, the version string, rule indexes) is checked below by hand.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use cann_config::meta::Lang;
use cann_lint::{lint_paths, sarif, LintOptions};
use serde_json::Value;

fn log() -> Value {
    let outcome = lint_paths(&[PathBuf::from("tests/fixtures")], &LintOptions::default()).unwrap();
    assert!(outcome.findings().count() > 10);
    sarif::to_sarif(&outcome, &opts(None))
}

fn opts(docs_url: Option<&'static str>) -> sarif::SarifOptions<'static> {
    sarif::SarifOptions {
        lang: Lang::En,
        base: Path::new("/src/project"),
        docs_url,
    }
}

#[test]
fn round_trips_through_the_schema_types() {
    let ours = log();
    let typed: serde_sarif::sarif::Sarif = serde_json::from_value(ours.clone()).unwrap();
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(back, ours);
}

#[test]
fn the_round_trip_notices_a_property_the_schema_does_not_define() {
    let mut bad = log();
    bad["runs"][0]["results"][0]["ruleID"] = Value::from("x");
    let typed: serde_sarif::sarif::Sarif = serde_json::from_value(bad.clone()).unwrap();
    assert_ne!(serde_json::to_value(&typed).unwrap(), bad);
    let mut bad = log();
    bad["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(serde_json::from_value::<serde_sarif::sarif::Sarif>(bad).is_err());
}

#[test]
fn constraints_the_types_do_not_encode() {
    let ours = log();
    assert_eq!(ours["version"], "2.1.0");
    assert_eq!(ours["$schema"], sarif::SCHEMA);
    let run = &ours["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let mut ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n, "rule ids are unique");
    for r in run["results"].as_array().unwrap() {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap()));
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            uri.starts_with("tests/fixtures/") && uri.ends_with(".py"),
            "{uri}"
        );
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(loc["region"]["startColumn"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn uris_are_escaped_and_relative_to_the_base_even_for_absolute_inputs() {
    let base = Path::new("/src/project");
    assert_eq!(
        sarif::uri(Path::new("./my scripts/训练.py"), base),
        "my%20scripts/%E8%AE%AD%E7%BB%83.py"
    );
    assert_eq!(
        sarif::uri(Path::new("/src/project/train/a.py"), base),
        "train/a.py"
    );
    assert_eq!(sarif::uri(Path::new("/abs/a.py"), base), "file:///abs/a.py");
}

/// The same script linted from its absolute path, in a tree where it moved down by some
/// lines, gets the same relative URI and the same fingerprints.
#[test]
fn fingerprints_survive_lines_added_above_and_absolute_paths() {
    let dir = tempfile::tempdir().unwrap();
    let script = std::fs::read_to_string("tests/fixtures/session_bert.py").unwrap();
    let log_of = |text: &str| {
        std::fs::write(dir.path().join("train.py"), text).unwrap();
        let outcome = lint_paths(&[dir.path().join("train.py")], &LintOptions::default()).unwrap();
        let o = sarif::SarifOptions {
            lang: Lang::En,
            base: dir.path(),
            docs_url: Some("https://docs.example/cannctl/"),
        };
        sarif::to_sarif(&outcome, &o)
    };
    let before = log_of(&script);
    let after = log_of(&format!("# a comment\n# and another\n{script}"));
    let prints = |log: &Value| -> Vec<(String, String)> {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                    r["partialFingerprints"]["primaryLocationLineHash"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                )
            })
            .collect()
    };
    assert!(!prints(&before).is_empty());
    assert_eq!(prints(&before), prints(&after));
    assert!(prints(&before).iter().all(|(u, _)| u == "train.py"));
    let distinct: std::collections::BTreeSet<_> = prints(&before).into_iter().collect();
    assert_eq!(
        distinct.len(),
        prints(&before).len(),
        "one fingerprint per finding"
    );
    let rules = before["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.iter().any(|r| r["helpUri"]
        .as_str()
        .is_some_and(|u| u.starts_with("https://docs.example/cannctl/options/npu_run_config."))));
}

#[test]
fn session_fixture_log() {
    let outcome = lint_paths(
        &[PathBuf::from("tests/fixtures/session_bert.py")],
        &LintOptions::default(),
    )
    .unwrap();
    insta::assert_json_snapshot!(sarif::to_sarif(&outcome, &opts(None)));
}
