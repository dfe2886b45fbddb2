//! The spec against the facts `cargo xtask fidelity` reads from the upstream code of one
//! release (`spec/fidelity/upstream.json`, one entry per release): constructor signatures
//! and defaults, the TF2 option tree with its defaults and values, the session keys the
//! adapter reads and their accessors, the graph-engine keys it hands them to, the `ge.*`
//! keys the graph engine knows, the ranges the code checks, and what the spec retires.
//!
//! One comparison for the xtask (which prints it) and the test (which fails on it): each
//! finding names both sides; [`Outcome::compared`] counts the facts compared per kind. The
//! deliberate differences are spec data (`spec/fidelity/exceptions.yaml`), not code.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::meta::{Lit, OptionMeta, PyDefault, TypeMeta};
use crate::{Release, CONFIGS, OPTIONS};

/// One disagreement between the spec and the upstream code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// `kind:subject`, the name an exception matches.
    pub key: String,
    /// What the spec says, and where.
    pub spec: String,
    /// What the code says, and where (`owner/name@ref:path[:line]`).
    pub upstream: String,
}

/// What one release's comparison found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Facts compared, per kind.
    pub compared: BTreeMap<&'static str, usize>,
    pub found: Vec<Finding>,
}

struct Cx<'a> {
    release: Release,
    facts: &'a Value,
    out: Outcome,
}

impl Cx<'_> {
    fn count(&mut self, kind: &'static str) {
        *self.out.compared.entry(kind).or_default() += 1;
    }

    /// `owner/name@ref:path` of a fact kind, from the file's `upstream` and `sources`.
    fn at(&self, kind: &str, line: Option<u64>) -> String {
        let repo = if matches!(kind, "ge_known") {
            "ge"
        } else {
            "tensorflow"
        };
        let u = &self.facts["upstream"][repo];
        let path = self.facts["sources"][kind].as_str().unwrap_or("?");
        let line = line.map(|l| format!(":{l}")).unwrap_or_default();
        format!(
            "{}@{}:{path}{line}",
            u["repo"].as_str().unwrap_or("?"),
            u["ref"].as_str().unwrap_or("?")
        )
    }

    fn add(&mut self, key: String, spec: String, upstream: String) {
        self.out.found.push(Finding {
            key,
            spec,
            upstream,
        });
    }
}

fn lit(l: Lit) -> Value {
    match l {
        Lit::Bool(b) => Value::Bool(b),
        Lit::Int(i) => Value::from(i),
        Lit::Float(x) => Value::from(x.get()),
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

/// Where the spec states an option: its path and first source.
fn ours(o: &OptionMeta) -> String {
    match o.source.first() {
        Some(s) => format!("{} ({s})", o.path),
        None => o.path.to_string(),
    }
}

/// The options the release has (available, not retired).
fn live(release: Release) -> impl Iterator<Item = &'static OptionMeta> {
    OPTIONS
        .iter()
        .filter(move |o| o.available.contains(release) && o.removed_in(release).is_none())
}

/// Compares the spec in `release` with that release's facts.
pub fn compare(release: Release, facts: &Value) -> Outcome {
    let mut cx = Cx {
        release,
        facts,
        out: Outcome::default(),
    };
    constructors(&mut cx);
    tf2(&mut cx);
    session(&mut cx);
    ge_keys(&mut cx);
    ge_known(&mut cx);
    ranges(&mut cx);
    retired(&mut cx);
    cx.out
}

fn constructors(cx: &mut Cx<'_>) {
    let modelled: BTreeSet<&str> = CONFIGS.iter().map(|c| c.name).collect();
    let Some(classes) = cx.facts["constructors"].as_object() else {
        return;
    };
    for (class, params) in classes {
        cx.count("constructor");
        if !modelled.contains(class.as_str()) {
            let at = cx.at("constructors", None);
            cx.add(
                format!("constructor-class:{class}"),
                "no spec class".into(),
                format!("class {class} ({at})"),
            );
            continue;
        }
        let ours_: Vec<&OptionMeta> = live(cx.release)
            .filter(|o| o.config == class && o.estimator.is_some())
            .collect();
        let mut theirs = BTreeSet::new();
        for p in params.as_array().into_iter().flatten() {
            let Some(name) = p["name"].as_str() else {
                continue;
            };
            cx.count("constructor-keyword");
            theirs.insert(name);
            let want = if p.get("required").is_some() {
                serde_json::json!({ "required": true })
            } else {
                p["default"].clone()
            };
            let at = cx.at("constructors", None);
            match ours_.iter().find(|o| o.estimator == Some(name)) {
                None => cx.add(
                    format!("constructor-missing:{class}.{name}"),
                    "no spec option has this keyword".into(),
                    format!("{class}({name}=...) ({at})"),
                ),
                Some(o) if py_default(o.estimator_default) != want => cx.add(
                    format!("constructor-default:{class}.{name}"),
                    format!("default {} in {}", py_default(o.estimator_default), ours(o)),
                    format!("default {want} ({at})"),
                ),
                Some(_) => {}
            }
        }
        for o in ours_ {
            let kw = o.estimator.unwrap_or_default();
            if !theirs.contains(kw) {
                let at = cx.at("constructors", None);
                cx.add(
                    format!("constructor-extra:{class}.{kw}"),
                    ours(o),
                    format!("{class} has no parameter {kw} ({at})"),
                );
            }
        }
    }
}

fn tf2(cx: &mut Cx<'_>) {
    let Some(tree) = cx.facts["tf2"].as_object() else {
        return;
    };
    for (path, f) in tree {
        cx.count("tf2-option");
        let at = cx.at("tf2", None);
        let Some(o) = live(cx.release).find(|o| o.tf2 == Some(path.as_str())) else {
            cx.add(
                format!("tf2-missing:{path}"),
                "no spec option has this TF2 path".into(),
                format!("npu.global_options().{path} ({at})"),
            );
            continue;
        };
        let default = o.tf2_default.map_or(Value::Null, lit);
        if default != f["default"] {
            cx.add(
                format!("tf2-default:{path}"),
                format!("default {default} in {}", ours(o)),
                format!("default {} ({at})", f["default"]),
            );
        }
        let values = o.tf2_values.map_or(Value::Null, |vs| {
            vs.iter().map(|v| v.map_or(Value::Null, lit)).collect()
        });
        if values != f["values"] {
            cx.add(
                format!("tf2-values:{path}"),
                format!("values {values} in {}", ours(o)),
                format!("values {} ({at})", f["values"]),
            );
        }
    }
    for o in live(cx.release) {
        if let Some(p) = o.tf2 {
            if !tree.contains_key(p) {
                let at = cx.at("tf2", None);
                cx.add(
                    format!("tf2-extra:{p}"),
                    ours(o),
                    format!("no TF2 option {p} ({at})"),
                );
            }
        }
    }
}

fn session(cx: &mut Cx<'_>) {
    let empty = serde_json::Map::new();
    let read = cx.facts["session"].as_object().unwrap_or(&empty).clone();
    let written = cx.facts["estimator_writes"]
        .as_object()
        .unwrap_or(&empty)
        .clone();
    let ours_: Vec<(&str, &OptionMeta)> = live(cx.release)
        .filter_map(|o| o.session.map(|(n, _)| (n, o)))
        .collect();
    for (name, o) in &ours_ {
        cx.count("session-key");
        let accessor = o.session.map_or("", |(_, a)| a.as_str());
        let at = cx.at("session", None);
        match read.get(*name) {
            None if written.contains_key(*name) => cx.add(
                format!("session-not-read:{name}"),
                ours(o),
                format!("NPUEstimator writes it, the adapter never reads it ({at})"),
            ),
            None => cx.add(
                format!("session-unread:{name}"),
                ours(o),
                format!("the adapter never reads it ({at})"),
            ),
            Some(accessors) => {
                let accessors: Vec<&str> = accessors
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                if !accessors.is_empty() && !accessors.contains(&accessor) {
                    cx.add(
                        format!("session-accessor:{name}"),
                        format!(".{accessor}() in {}", ours(o)),
                        format!("{accessors:?} ({at})"),
                    );
                }
            }
        }
    }
    for name in read.keys() {
        if !ours_.iter().any(|(n, _)| n == name) {
            cx.count("session-key");
            let at = cx.at("session", None);
            cx.add(
                format!("session-missing:{name}"),
                "no spec option reads this session key".into(),
                format!("params.count(\"{name}\") ({at})"),
            );
        }
    }
}

fn ge_keys(cx: &mut Cx<'_>) {
    let empty = serde_json::Map::new();
    let keys = cx.facts["ge_keys"].as_object().unwrap_or(&empty).clone();
    for o in live(cx.release) {
        // The adapter's attribute names are the session names (or the option names).
        let name = o.session.map_or(o.name, |(n, _)| n);
        let theirs: Vec<&str> = keys
            .get(name)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if theirs.is_empty() {
            continue;
        }
        cx.count("ge-key");
        let at = cx.at("ge_keys", None);
        match o.ge_key_in(cx.release) {
            Some(k) if !theirs.contains(&k) => cx.add(
                format!("ge-key:{name}"),
                format!("{k} in {}", ours(o)),
                format!("{theirs:?} ({at})"),
            ),
            None if o.env.is_none() => cx.add(
                format!("ge-key-missing:{name}"),
                format!("no graph-engine key in {}", ours(o)),
                format!("{theirs:?} ({at})"),
            ),
            _ => {}
        }
    }
}

/// Every `ge.*` key the spec gives an option is one the graph engine's code names.
fn ge_known(cx: &mut Cx<'_>) {
    let Some(known) = cx.facts["ge_known"].as_array() else {
        return;
    };
    let known: BTreeSet<&str> = known.iter().filter_map(Value::as_str).collect();
    let adapter: BTreeSet<String> = cx.facts["ge_keys"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|k| k.as_str().map(String::from))
        .collect();
    for o in live(cx.release) {
        let Some(k) = o.ge_key_in(cx.release) else {
            continue;
        };
        if !k.starts_with("ge.") {
            continue;
        }
        cx.count("ge-key-known");
        if !known.contains(k) && !adapter.contains(k) {
            let at = cx.at("ge_known", None);
            cx.add(
                format!("ge-key-unknown:{k}"),
                ours(o),
                format!("the graph engine's code never names \"{k}\" ({at})"),
            );
        }
    }
}

/// `[min, max]`, `-` for an open side; `(min` when the bound itself is left out.
fn interval(min: Option<Lower>, max: Option<i64>) -> String {
    let (open, lo) = match min {
        Some((m, true)) => ("(", m.to_string()),
        Some((m, false)) => ("[", m.to_string()),
        None => ("[", "-".into()),
    };
    format!("{open}{lo}, {}]", max.map_or("-".into(), |v| v.to_string()))
}

/// A lower bound and whether it is left out (`x > 0`). Ordered by strictness:
/// `(0, false) < (0, true) < (1, false)`.
type Lower = (i64, bool);

/// The bounds the code puts on an option's value (each cited at its line), taken together:
/// the spec may not accept what the code refuses, nor refuse what it accepts. A range that
/// is this project's advice (`advice: true`) must lie inside the code's and be narrower
/// somewhere: where the code states every bound the spec gives, the range is not advice.
/// Where the code leaves a side open, a bound a page states is the spec's to keep.
fn ranges(cx: &mut Cx<'_>) {
    let Some(ranges) = cx.facts["ranges"].as_object() else {
        return;
    };
    type Bounds = Vec<(Option<Lower>, Option<i64>, String)>;
    let mut per: BTreeMap<&'static str, (&'static OptionMeta, Bounds)> = BTreeMap::new();
    for (key, list) in ranges {
        // `keyword:NAME` (NPURunConfig, or the RunConfig it extends), `ge:KEY` (the graph
        // engine) or `session:NAME` (the adapter's C++).
        let (kind, name) = key.split_once(':').unwrap_or(("session", key));
        let release = cx.release;
        let o = live(release).find(|o| match kind {
            "keyword" => o.estimator == Some(name) && o.config == "NPURunConfig",
            "ge" => o.ge_key_in(release) == Some(name),
            _ => o.session.is_some_and(|(n, _)| n == name),
        });
        let Some(o) = o else {
            continue;
        };
        // `> n` admits any fraction above n for a float, and n + 1 on for an integer.
        let real = o.ty == TypeMeta::Float;
        let entry = per.entry(o.path).or_insert((o, Vec::new()));
        for b in list.as_array().into_iter().flatten() {
            let at = b["at"].as_str().unwrap_or("?").to_string();
            let above = b["above"].as_bool().unwrap_or(false);
            let min = b["min"].as_i64().map(|m| match (above, real) {
                (true, false) => (m.saturating_add(1), false),
                _ => (m, above),
            });
            entry.1.push((min, b["max"].as_i64(), at));
        }
    }
    for (o, bounds) in per.into_values() {
        cx.count("range");
        let min = bounds.iter().filter_map(|b| b.0).max();
        let max = bounds.iter().filter_map(|b| b.1).min();
        let cited: Vec<String> = bounds
            .iter()
            .map(|(lo, hi, at)| format!("{} {at}", interval(*lo, *hi)))
            .collect();
        let theirs = format!("{} from {}", interval(min, max), cited.join("; "));
        let ints: Vec<i64> = o
            .values
            .iter()
            .filter_map(|v| match v.value {
                Lit::Int(i) => Some(i),
                _ => None,
            })
            .collect();
        let inside = |v: i64| {
            min.is_none_or(|(m, out)| if out { v > m } else { v >= m })
                && max.is_none_or(|m| v <= m)
        };
        let spec = o.range_in(cx.release);
        let ok = if !ints.is_empty() {
            // An enumeration: every value it lists must pass the code.
            ints.iter().all(|v| inside(*v))
        } else {
            spec.is_some_and(|s| {
                let lower = s.min.map(|m| (m, s.min_exclusive));
                let within = min.is_none_or(|u| lower.is_some_and(|m| m >= u))
                    && max.is_none_or(|u| s.max.is_some_and(|m| m <= u));
                let stated =
                    min.is_none_or(|u| lower == Some(u)) && max.is_none_or(|u| s.max == Some(u));
                let narrower_where_open =
                    (min.is_none() && s.min.is_some()) || (max.is_none() && s.max.is_some());
                within && (stated != s.advice || (s.advice && narrower_where_open))
            })
        };
        if !ok {
            let ours = match spec {
                Some(s) => format!(
                    "{}{} in {}",
                    interval(s.min.map(|m| (m, s.min_exclusive)), s.max),
                    if s.advice { " (advice)" } else { "" },
                    ours(o)
                ),
                None => format!("no range in {}", ours(o)),
            };
            cx.add(format!("range:{}", o.path), ours, theirs);
        }
    }
}

/// What the spec says is gone by the release (a whole option, or some of its spellings)
/// must be gone upstream too, unless a live option took the same spelling over.
fn retired(cx: &mut Cx<'_>) {
    let release = cx.release;
    let facts = cx.facts;
    let params = |class: &str| -> Vec<String> {
        facts["constructors"][class]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .filter_map(|p| p["name"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    for o in OPTIONS.iter() {
        for r in o.removed.iter().filter(|r| r.gone_in(release)) {
            let (estimator, session, tf2) = if r.is_whole() {
                (o.estimator, o.session, o.tf2)
            } else {
                (r.surfaces.estimator, r.surfaces.session, r.surfaces.tf2)
            };
            let spec = format!("retired in {}", ours(o));
            if let Some(kw) = estimator {
                cx.count("retired");
                let taken = live(release).any(|l| l.config == o.config && l.estimator == Some(kw));
                if !taken && params(o.config).iter().any(|p| p == kw) {
                    let at = cx.at("constructors", None);
                    cx.add(
                        format!("retired-present:{}.{kw}", o.config),
                        spec.clone(),
                        format!("{}({kw}=...) ({at})", o.config),
                    );
                }
            }
            if let Some((name, _)) = session {
                cx.count("retired");
                let taken = live(release).any(|l| l.session.is_some_and(|(n, _)| n == name));
                if !taken && facts["session"].get(name).is_some() {
                    let at = cx.at("session", None);
                    cx.add(
                        format!("retired-present:session:{name}"),
                        spec.clone(),
                        format!("params.count(\"{name}\") ({at})"),
                    );
                }
            }
            if let Some(p) = tf2 {
                cx.count("retired");
                let taken = live(release).any(|l| l.tf2 == Some(p));
                if !taken && facts["tf2"].get(p).is_some() {
                    let at = cx.at("tf2", None);
                    cx.add(
                        format!("retired-present:tf2:{p}"),
                        spec.clone(),
                        format!("npu.global_options().{p} ({at})"),
                    );
                }
            }
        }
    }
}
