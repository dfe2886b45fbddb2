//! SARIF output checked against the SARIF 2.1.0 schema.
//!
//! `serde-sarif`'s types are generated (at its build time) from the official SARIF 2.1.0
//! JSON Schema, which the crate ships. Reading our log into them checks property names,
//! types, required properties and enumerations; writing it back and comparing catches any
//! property the schema does not define (it would be dropped on the way). What the types do
//! not encode (minimum values, the version string, rule indexes) is checked below by hand.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use cann_config::meta::Lang;
use cann_lint::{lint_paths, sarif, LintOptions};
use serde_json::Value;

fn log() -> Value {
    let outcome = lint_paths(
        &[PathBuf::from("tests/fixtures")],
        &LintOptions::default(),
        false,
    )
    .unwrap();
    assert!(outcome.findings().count() > 10);
    sarif::to_sarif(&outcome, Lang::En)
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
fn uris_are_escaped() {
    assert_eq!(
        sarif::uri(std::path::Path::new("./my scripts/训练.py")),
        "my%20scripts/%E8%AE%AD%E7%BB%83.py"
    );
    assert_eq!(
        sarif::uri(std::path::Path::new("/abs/a.py")),
        "file:///abs/a.py"
    );
}

#[test]
fn session_fixture_log() {
    let outcome = lint_paths(
        &[PathBuf::from("tests/fixtures/session_bert.py")],
        &LintOptions::default(),
        false,
    )
    .unwrap();
    insta::assert_json_snapshot!(sarif::to_sarif(&outcome, Lang::En));
}
