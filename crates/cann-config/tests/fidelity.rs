//! The spec agrees with the upstream adapter, as `cargo xtask fidelity` read it into
//! `spec/fidelity/upstream.json` (pinned commits inside): constructor signatures, the TF2
//! option tree with its defaults and accepted values, the session keys the adapter reads
//! and their accessors, and the graph-engine keys. Every disagreement fails the test unless
//! `ALLOWED` lists it with the reason; an entry that no longer matches fails too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use cann_config::meta::{Accessor, Lit, OptionMeta, PyDefault};
use cann_config::{Release, CONFIGS, OPTIONS};
use serde_json::Value;

const FACTS: &str = include_str!("../../../spec/fidelity/upstream.json");

/// Disagreements that are the spec's deliberate choice, each with the reason.
const ALLOWED: &[(&str, &str)] = &[
    // Their values are Python objects (a ConfigProto, distribution strategies), which no
    // config file can hold: the spec has the options without an Estimator keyword.
    (
        "constructor-missing:NPURunConfig.session_config",
        "a ConfigProto, not a config value",
    ),
    (
        "constructor-missing:NPURunConfig.distribute",
        "a distribution strategy object",
    ),
    (
        "constructor-missing:NPURunConfig.train_distribute",
        "a distribution strategy object",
    ),
    (
        "constructor-missing:NPURunConfig.eval_distribute",
        "a distribution strategy object",
    ),
    // NPURunConfig takes the keyword and NPUEstimator writes its key, but no release of
    // the adapter reads the key: the spec retires it as never read.
    (
        "constructor-missing:NPURunConfig.enable_reduce_precision",
        "a keyword whose key no release reads; retired in the spec as never read",
    ),
    (
        "retired-present:NPURunConfig.enable_reduce_precision",
        "a keyword whose key no release reads; retired in the spec as never read",
    ),
    // The adapter still forwards the key as ge.autoTuneMode, but the graph engine of 8.5.0
    // and 9.0.0 refuses any non-empty value (inner_session.cc CheckAutoTuneMode), so the
    // spec retires it before 9.0.0 rather than model a key that only fails.
    (
        "session-missing:auto_tune_mode",
        "read upstream, refused by the graph engine; retired in the spec",
    ),
    (
        "retired-present:session:auto_tune_mode",
        "read upstream, refused by the graph engine; retired in the spec",
    ),
];

fn lit(l: Lit) -> Value {
    match l {
        Lit::Bool(b) => Value::Bool(b),
        Lit::Int(i) => Value::from(i),
        Lit::Str(s) => Value::from(s),
    }
}

fn py_default(d: PyDefault) -> Value {
    match d {
        PyDefault::None => Value::Null,
        PyDefault::Lit(l) => lit(l),
        PyDefault::Required => serde_json::json!({ "required": true }),
    }
}

fn acc(a: Accessor) -> &'static str {
    a.as_str()
}

/// The facts are of the latest release: an option retired by then is checked by `retired`.
fn live() -> impl Iterator<Item = &'static OptionMeta> {
    OPTIONS
        .iter()
        .filter(|o| o.removed_in(Release::LATEST).is_none())
}

struct Found(Vec<(String, String)>);

impl Found {
    fn add(&mut self, key: String, detail: String) {
        self.0.push((key, detail));
    }
}

fn constructors(facts: &Value, found: &mut Found) {
    let modelled: BTreeSet<&str> = CONFIGS.iter().map(|c| c.name).collect();
    for (class, params) in facts["constructors"].as_object().unwrap() {
        if !modelled.contains(class.as_str()) {
            found.add(
                format!("constructor-class:{class}"),
                "not a spec class".into(),
            );
            continue;
        }
        let ours: Vec<&OptionMeta> = live()
            .filter(|o| o.config == class && o.estimator.is_some())
            .collect();
        let mut theirs = BTreeSet::new();
        for p in params.as_array().unwrap() {
            let name = p["name"].as_str().unwrap();
            theirs.insert(name);
            let want = if p.get("required").is_some() {
                serde_json::json!({ "required": true })
            } else {
                p["default"].clone()
            };
            match ours.iter().find(|o| o.estimator == Some(name)) {
                None => found.add(
                    format!("constructor-missing:{class}.{name}"),
                    "no spec option has this keyword".into(),
                ),
                Some(o) if py_default(o.estimator_default) != want => found.add(
                    format!("constructor-default:{class}.{name}"),
                    format!("spec {} upstream {want}", py_default(o.estimator_default)),
                ),
                Some(_) => {}
            }
        }
        for o in ours {
            let kw = o.estimator.unwrap_or_default();
            if !theirs.contains(kw) {
                found.add(
                    format!("constructor-extra:{class}.{kw}"),
                    format!("{} is not a parameter upstream", o.path),
                );
            }
        }
    }
}

fn tf2(facts: &Value, found: &mut Found) {
    let tree = facts["tf2"].as_object().unwrap();
    for (path, f) in tree {
        let Some(o) = live().find(|o| o.tf2 == Some(path.as_str())) else {
            found.add(
                format!("tf2-missing:{path}"),
                "no spec option has this path".into(),
            );
            continue;
        };
        let default = o.tf2_default.map_or(Value::Null, lit);
        if default != f["default"] {
            found.add(
                format!("tf2-default:{path}"),
                format!("spec {default} upstream {}", f["default"]),
            );
        }
        let values = o.tf2_values.map_or(Value::Null, |vs| {
            vs.iter().map(|v| v.map_or(Value::Null, lit)).collect()
        });
        if values != f["values"] {
            found.add(
                format!("tf2-values:{path}"),
                format!("spec {values} upstream {}", f["values"]),
            );
        }
    }
    for o in live() {
        if let Some(p) = o.tf2 {
            if !tree.contains_key(p) {
                found.add(
                    format!("tf2-extra:{p}"),
                    format!("{} has no such TF2 path upstream", o.path),
                );
            }
        }
    }
}

fn session(facts: &Value, found: &mut Found) {
    let read = facts["session"].as_object().unwrap();
    let written = facts["estimator_writes"].as_object().unwrap();
    let ours: Vec<(&str, Accessor)> = live().filter_map(|o| o.session).collect();
    for (name, a) in &ours {
        match read.get(*name) {
            None if written.contains_key(*name) => found.add(
                format!("session-not-read:{name}"),
                "NPUEstimator writes it but the adapter never reads it".into(),
            ),
            None => found.add(
                format!("session-unread:{name}"),
                "the adapter never reads it".into(),
            ),
            Some(accessors) => {
                let accessors: Vec<&str> = accessors
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                if !accessors.is_empty() && !accessors.contains(&acc(*a)) {
                    found.add(
                        format!("session-accessor:{name}"),
                        format!("spec .{} upstream {accessors:?}", acc(*a)),
                    );
                }
            }
        }
    }
    for name in read.keys() {
        if !ours.iter().any(|(n, _)| n == name) {
            found.add(
                format!("session-missing:{name}"),
                "read by the adapter, not in the spec".into(),
            );
        }
    }
}

fn ge_keys(facts: &Value, found: &mut Found) {
    let keys = facts["ge_keys"].as_object().unwrap();
    for o in live() {
        // The adapter's attribute names are the session names (or the option names).
        let name = o.session.map_or(o.name, |(n, _)| n);
        let theirs: Vec<&str> = keys
            .get(name)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        match o.ge_key_in(Release::LATEST) {
            Some(k) if !theirs.is_empty() && !theirs.contains(&k) => found.add(
                format!("ge-key:{name}"),
                format!("spec {k} upstream {theirs:?}"),
            ),
            None if !theirs.is_empty() && o.env.is_none() => found.add(
                format!("ge-key-missing:{name}"),
                format!("upstream hands it to {theirs:?}"),
            ),
            _ => {}
        }
    }
}

/// What the spec says is gone by the latest release (a whole option, or some of its
/// spellings) must be gone upstream too, unless a live option took the same spelling over.
fn retired(facts: &Value, found: &mut Found) {
    let params = |class: &str| -> Vec<&str> {
        facts["constructors"][class]
            .as_array()
            .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
            .unwrap_or_default()
    };
    for o in OPTIONS.iter() {
        let gone = o.removed.iter().filter(|r| r.gone_in(Release::LATEST));
        for r in gone {
            let (estimator, session, tf2) = if r.is_whole() {
                (o.estimator, o.session, o.tf2)
            } else {
                (r.estimator, r.session, r.tf2)
            };
            if let Some(kw) = estimator {
                let taken = live().any(|l| l.config == o.config && l.estimator == Some(kw));
                if !taken && params(o.config).contains(&kw) {
                    found.add(
                        format!("retired-present:{}.{kw}", o.config),
                        format!("{} is retired in the spec, a parameter upstream", o.path),
                    );
                }
            }
            if let Some((name, _)) = session {
                let taken = live().any(|l| l.session.is_some_and(|(n, _)| n == name));
                if !taken && facts["session"].get(name).is_some() {
                    found.add(
                        format!("retired-present:session:{name}"),
                        format!("{} is retired in the spec, read upstream", o.path),
                    );
                }
            }
            if let Some(p) = tf2 {
                let taken = live().any(|l| l.tf2 == Some(p));
                if !taken && facts["tf2"].get(p).is_some() {
                    found.add(
                        format!("retired-present:tf2:{p}"),
                        format!("{} is retired in the spec, a TF2 option upstream", o.path),
                    );
                }
            }
        }
    }
}

#[test]
fn the_spec_agrees_with_the_upstream_facts() {
    let facts: Value = serde_json::from_str(FACTS).unwrap();
    let mut found = Found(Vec::new());
    constructors(&facts, &mut found);
    tf2(&facts, &mut found);
    session(&facts, &mut found);
    ge_keys(&facts, &mut found);
    retired(&facts, &mut found);
    let unexplained: Vec<String> = found
        .0
        .iter()
        .filter(|(k, _)| !ALLOWED.iter().any(|(a, _)| a == k))
        .map(|(k, d)| format!("{k}: {d}"))
        .collect();
    let stale: Vec<&str> = ALLOWED
        .iter()
        .filter(|(a, _)| !found.0.iter().any(|(k, _)| k == a))
        .map(|(a, _)| *a)
        .collect();
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "{} disagreements with {} (upstream {}):\n{}\n\nallow-list entries that no longer match: {stale:?}",
        unexplained.len(),
        "spec/fidelity/upstream.json",
        facts["upstream"]["tensorflow"],
        unexplained.join("\n")
    );
}

#[test]
fn the_facts_name_their_pinned_commits() {
    let facts: Value = serde_json::from_str(FACTS).unwrap();
    for repo in ["tensorflow", "ge"] {
        let c = facts["upstream"][repo].as_str().unwrap_or_default();
        assert!(
            c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()),
            "{repo}: {c:?}"
        );
    }
}
