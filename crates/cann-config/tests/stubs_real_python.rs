//! What `emit --to estimator` and `emit --to tf2` write runs against Python stubs built
//! from the spec's signature facts: every constructor call binds (no unknown or missing
//! argument, so no TypeError), every value reaches the keyword or TF2 option it belongs to,
//! and no TF2 option is given a value its `OptionValue` refuses. Over every example config
//! and over generated valid configs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;

use cann_config::meta::{Encoding, Lang, Lit, OptionMeta, PyDefault, TypeMeta};
use cann_config::{emit, Config, Release, ValueRef, Visit, Visitor, OPTIONS};
use serde_json::{json, Map, Value};

fn lit(l: Lit) -> Value {
    match l {
        Lit::Bool(b) => json!(b),
        Lit::Int(i) => json!(i),
        Lit::Float(x) => json!(x.get()),
        Lit::Str(s) => json!(s),
    }
}

/// `{class: [[keyword, default], ...]}` for every class with keywords.
fn signatures() -> Value {
    let mut out: BTreeMap<&str, Vec<Value>> = BTreeMap::new();
    for o in OPTIONS.iter() {
        let Some(kw) = o.estimator else { continue };
        let default = match o.estimator_default {
            PyDefault::None => Value::Null,
            PyDefault::Lit(l) => lit(l),
            PyDefault::Required => json!({ "required": true }),
        };
        out.entry(o.config).or_default().push(json!([kw, default]));
    }
    json!(out)
}

/// `{path: {default, values}}` for every TF2 option.
fn tf2_options() -> Value {
    let mut out = Map::new();
    for o in OPTIONS.iter() {
        let Some(path) = o.tf2 else { continue };
        let values = o
            .tf2_values
            .map(|vs| Value::Array(vs.iter().map(|v| v.map_or(Value::Null, lit)).collect()));
        out.insert(
            path.to_string(),
            json!({ "default": o.tf2_default.map_or(Value::Null, lit), "values": values }),
        );
    }
    Value::Object(out)
}

fn value(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Bool(b) => json!(b),
        ValueRef::Int(i) => json!(i),
        ValueRef::Float(x) => json!(x.get()),
        ValueRef::Str(s) => json!(s),
        ValueRef::Cores(c) => json!(c.to_string()),
    }
}

/// The constructor calls the estimator snippet must make, as the stub reports them.
fn expected_calls(cfg: &Config, release: Release) -> Value {
    struct Calls {
        stack: Vec<(&'static str, Map<String, Value>)>,
        release: Release,
    }
    impl Calls {
        fn close(&mut self) -> Option<Value> {
            let (class, mut args) = self.stack.pop()?;
            for o in OPTIONS.iter().filter(|o| o.config == class) {
                if let (Some(kw), PyDefault::Required) = (o.estimator, o.estimator_default) {
                    if !args.contains_key(kw) {
                        args.insert(
                            kw.into(),
                            o.default_in(self.release).map_or(Value::Null, lit),
                        );
                    }
                }
            }
            Some(json!({ "class": class, "args": args }))
        }
    }
    impl Visitor for Calls {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            if let (Some(kw), Some((_, args))) = (o.estimator, self.stack.last_mut()) {
                args.insert(kw.into(), value(v));
            }
        }
        fn enter(&mut self, o: &'static OptionMeta) {
            if let TypeMeta::Config(c) = o.ty {
                self.stack.push((c, Map::new()));
            }
        }
        fn leave(&mut self, o: &'static OptionMeta) {
            let call = self.close();
            if let (Some(kw), Some(call), Some((_, args))) =
                (o.estimator, call, self.stack.last_mut())
            {
                args.insert(kw.into(), call);
            }
        }
    }
    let Some(run) = &cfg.npu_run_config else {
        return Value::Null;
    };
    let mut c = Calls {
        stack: vec![("NPURunConfig", Map::new())],
        release,
    };
    run.visit(&mut c);
    c.close().unwrap_or(Value::Null)
}

/// The TF2 options the snippet must set, as text the adapter receives, and the paths of
/// set options TF2 cannot take (which the snippet must name in a comment instead).
fn expected_tf2(cfg: &Config) -> (BTreeMap<String, String>, Vec<&'static str>) {
    #[derive(Default)]
    struct T2(BTreeMap<String, String>, Vec<&'static str>);
    impl Visitor for T2 {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            let (Some(path), None) = (o.tf2, o.env) else {
                return;
            };
            let bit = |b: bool| if b { "1" } else { "0" }.to_string();
            let text = match (o.tf2_as, v) {
                (Some(Encoding::Bool), ValueRef::Int(i)) => bit(i != 0),
                (_, ValueRef::Bool(b)) => bit(b),
                (_, v) => emit::plain(v),
            };
            let accepted = o.tf2_values.is_none_or(|vs| {
                vs.iter().flatten().any(|l| match l {
                    Lit::Str(s) => *s == text,
                    Lit::Int(i) => i.to_string() == text,
                    Lit::Float(x) => x.to_string() == text,
                    Lit::Bool(b) => bit(*b) == text,
                })
            });
            if accepted {
                self.0.insert(path.to_string(), text);
            } else {
                self.1.push(o.path);
            }
        }
    }
    let mut t = T2::default();
    if let Some(run) = &cfg.npu_run_config {
        run.visit(&mut t);
    }
    (t.0, t.1)
}

struct Case {
    id: String,
    text: String,
    cfg: Config,
    release: Release,
    estimator: String,
    tf2: String,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut push = |id: String, text: String, cfg: Config, release: Release| {
        // Every other case is emitted with Chinese comments: the code must run in both.
        let lang = [Lang::En, Lang::Zh][out.len() % 2];
        // A DynamicInputConfig with some of its required fields unset cannot be written
        // for the Estimator; `dynamic_input_config_gets_its_required_compile_hybrid_mode`
        // tests that refusal, so such a draw serves the TF2 half only.
        let estimator = match emit::emit_in(&cfg, emit::Format::Estimator, release, lang) {
            Ok(code) => code,
            Err(errors) => {
                assert!(
                    errors
                        .iter()
                        .all(|e| matches!(e.kind, emit::EmitErrorKind::MissingArgument { .. })),
                    "{id}: {errors:?}"
                );
                String::new()
            }
        };
        let tf2 = emit::emit_in(&cfg, emit::Format::Tf2, release, lang).unwrap();
        out.push(Case {
            id,
            text,
            cfg,
            release,
            estimator,
            tf2,
        });
    };
    for (id, cfg) in common::example_configs() {
        push(id, String::new(), cfg, Release::LATEST);
    }
    for (i, (d, f)) in common::gen::valid_configs(300, 24).into_iter().enumerate() {
        push(
            format!("generated #{i}"),
            d.text,
            f.config,
            d.target.release,
        );
    }
    out
}

#[test]
fn emitted_estimator_and_tf2_code_runs_against_stubs_from_the_signature_facts() {
    let Some(py) = common::python::python("Estimator and TF2 stubs") else {
        return;
    };
    let cases = cases();
    let mut runs = Vec::new();
    for c in &cases {
        runs.push(json!({ "id": format!("{} (estimator)", c.id), "code": c.estimator }));
        runs.push(json!({ "id": format!("{} (tf2)", c.id), "code": c.tf2 }));
    }
    let modules: std::collections::BTreeSet<&str> = cann_config::CONFIGS
        .iter()
        .filter_map(|c| c.python_import)
        .filter_map(|i| i.strip_prefix("from ")?.split(' ').next())
        .collect();
    let input = json!({
        "signatures": signatures(),
        "modules": modules,
        "tf2": tf2_options(),
        "cases": runs,
    });
    let out = common::python::run(&py, "stub_probe.py", &input.to_string());
    let results: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(results.len(), 2 * cases.len());
    let mut failures = Vec::new();
    let (mut args, mut set) = (0, 0);
    for (c, r) in cases.iter().zip(results.chunks(2)) {
        let why = |what: String, code: &str| {
            format!("{}: {what}\nconfig: {}\nemitted:\n{code}", c.id, c.text)
        };
        match r[0].get("error") {
            _ if c.estimator.is_empty() => {}
            Some(e) => failures.push(why(
                format!("raised\n{}", e.as_str().unwrap_or("")),
                &c.estimator,
            )),
            None => {
                let want = expected_calls(&c.cfg, c.release);
                args += want["args"].as_object().map_or(0, Map::len);
                if r[0]["config"] != want {
                    failures.push(why(
                        format!("calls\n got: {}\nwant: {want}", r[0]["config"]),
                        &c.estimator,
                    ));
                }
            }
        }
        match r[1].get("error") {
            Some(e) => failures.push(why(format!("raised\n{}", e.as_str().unwrap_or("")), &c.tf2)),
            None => {
                let (want, refused) = expected_tf2(&c.cfg);
                set += want.len();
                let got: BTreeMap<String, String> =
                    serde_json::from_value(r[1]["tf2"].clone()).unwrap();
                if got != want {
                    failures.push(why(format!("tf2\n got: {got:?}\nwant: {want:?}"), &c.tf2));
                }
                for p in refused {
                    if !c.tf2.lines().any(|l| l.starts_with("# `") && l.contains(p)) {
                        failures.push(why(format!("no comment for refused `{p}`"), &c.tf2));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} wrong:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        args > cases.len() && set > cases.len(),
        "{args} arguments, {set} TF2 options"
    );
}

#[test]
fn dynamic_input_config_gets_its_required_compile_hybrid_mode() {
    let f = common::parse(
        "npu_run_config:\n  dynamic_input_config:\n    input_shape: \"data:1,-1\"\n    dynamic_dims: \"1;2\"\n    dynamic_node_type: 1\n",
    );
    let out = emit::emit(&f.config, emit::Format::Estimator).unwrap();
    assert!(
        out.contains("dynamic_input_config=DynamicInputConfig(input_shape=\"data:1,-1\", dynamic_dims=\"1;2\", dynamic_node_type=1, compile_hybrid_mode=0)"),
        "{out}"
    );
    // A required argument without a default in the spec cannot be made up.
    let f = common::parse("npu_run_config:\n  dynamic_input_config:\n    dynamic_dims: \"1;2\"\n");
    let errors = emit::emit(&f.config, emit::Format::Estimator).unwrap_err();
    let missing: Vec<&str> = errors.iter().map(|e| e.option).collect();
    assert_eq!(
        missing,
        [
            "npu_run_config.dynamic_input_config.input_shape",
            "npu_run_config.dynamic_input_config.dynamic_node_type"
        ]
    );
}

#[test]
fn tf2_takes_only_the_dataset_node_type() {
    let f = common::parse(
        "npu_run_config:\n  dynamic_input_config:\n    dynamic_node_type: 1\n    input_shape: \"a:-1\"\n",
    );
    let out = emit::emit(&f.config, emit::Format::Tf2).unwrap();
    assert!(!out.contains("dynamic_node_type = "), "{out}");
    assert!(
        out.contains("# `npu_run_config.dynamic_input_config.dynamic_node_type` = \"1\" cannot be set through TF2 global options, which accept only \"0\""),
        "{out}"
    );
    // The same comment in the user's language.
    let zh = emit::emit_in(&f.config, emit::Format::Tf2, Release::LATEST, Lang::Zh).unwrap();
    assert!(
        zh.contains("# `npu_run_config.dynamic_input_config.dynamic_node_type` = \"1\" 无法通过 TF2 全局选项 npu.global_options() 设置（只接受 \"0\"），已略去"),
        "{zh}"
    );
    let f = common::parse("npu_run_config:\n  dynamic_input_config:\n    dynamic_node_type: 0\n");
    let out = emit::emit(&f.config, emit::Format::Tf2).unwrap();
    assert!(
        out.contains(
            "npu.global_options().experimental.multi_branches_config.dynamic_node_type = \"0\""
        ),
        "{out}"
    );
}
