//! What `emit --to session` writes runs on the real TensorFlow protobufs (tensorflow-cpu,
//! `npu_bridge` stubbed): one `NpuOptimizer` whose `parameter_map` holds every set option
//! with the accessor the spec names and the value the adapter reads, and both TF rewriters
//! the upstream examples turn off set to `RewriterConfig.OFF`. Over every example config
//! and over generated valid configs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use cann_config::meta::{Accessor, Lang, OptionMeta};
use cann_config::{emit, Config, Release, ValueRef, Visit, Visitor};
use serde_json::{json, Value};

/// Every other case is emitted with Chinese comments: the code must run in both languages.
fn session(cfg: &Config, case: usize) -> String {
    let lang = [Lang::En, Lang::Zh][case % 2];
    emit::emit_in(cfg, emit::Format::Session, Release::LATEST, lang).unwrap()
}

/// What the session's `parameter_map` must hold: key -> [kind, value].
fn expected(cfg: &Config) -> BTreeMap<String, Value> {
    struct Exp(BTreeMap<String, Value>);
    impl Visitor for Exp {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            let (Some((name, acc)), None) = (o.session, o.env) else {
                return;
            };
            let value = match (acc, v) {
                (Accessor::B, ValueRef::Bool(b)) => json!(b),
                (Accessor::B, ValueRef::Int(i)) => json!(i != 0),
                (Accessor::I, ValueRef::Int(i)) => json!(i),
                (Accessor::I, ValueRef::Bool(b)) => json!(i64::from(b)),
                // The adapter reads an `s` entry as text and parses it itself.
                (Accessor::S, v) => json!(emit::plain(v)),
                (acc, v) => panic!("{}: {v:?} cannot travel as .{}", o.path, acc.as_str()),
            };
            self.0
                .insert(name.to_string(), json!([acc.as_str(), value]));
        }
    }
    let mut e = Exp(BTreeMap::new());
    if let Some(run) = &cfg.npu_run_config {
        run.visit(&mut e);
    }
    e.0
}

#[test]
fn emitted_session_builds_the_npu_optimizer_on_real_tensorflow() {
    let Some(py) = common::python::python("session on real TensorFlow") else {
        return;
    };
    let mut cases: Vec<(String, String, Config)> = common::example_configs()
        .into_iter()
        .map(|(name, cfg)| (name, String::new(), cfg))
        .collect();
    assert!(
        cases.iter().any(|c| c.0 == "examples/train-a2.yaml"),
        "the bundled example must be among the cases"
    );
    for (i, (d, f)) in common::gen::valid_configs(300, 24).into_iter().enumerate() {
        cases.push((format!("generated #{i}"), d.text, f.config));
    }
    let input: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(i, (id, _, cfg))| json!({ "id": id, "code": session(cfg, i) }))
        .collect();
    let out = common::python::run(&py, "session_probe.py", &Value::from(input).to_string());
    let results: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(results.len(), cases.len());
    let mut failures = Vec::new();
    let mut entries = 0;
    for (i, ((id, text, cfg), r)) in cases.iter().zip(&results).enumerate() {
        let code = session(cfg, i);
        let why = |what: String| format!("{id}: {what}\nconfig: {text}\nemitted:\n{code}");
        if let Some(e) = r.get("error") {
            failures.push(why(format!("raised\n{}", e.as_str().unwrap_or_default())));
            continue;
        }
        let r = &r["result"];
        let want = expected(cfg);
        entries += want.len();
        let got: BTreeMap<String, Value> =
            serde_json::from_value(r["parameter_map"].clone()).unwrap();
        if r["npu_optimizers"] != 1 || r["optimizers"] != 1 {
            failures.push(why(format!("optimizers: {r}")));
        }
        if got != want {
            failures.push(why(format!("parameter_map\n got: {got:?}\nwant: {want:?}")));
        }
        for switch in ["remapping_off", "memory_optimization_off"] {
            if r[switch] != true {
                failures.push(why(format!("{switch} is not set")));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases wrong:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
    // The generated configs must exercise the map, not only its frame.
    assert!(
        entries > cases.len(),
        "only {entries} parameter_map entries"
    );
}
