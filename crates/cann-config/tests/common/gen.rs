//! Valid user configs generated from the spec tables: every leaf option the target release
//! and product support can be drawn, with values from its own values, range, characters
//! or core counts. Cross-option rules may still reject a draw: callers keep only configs
//! that check without errors, so what they test is what `cannctl emit` would write.

use cann_config::meta::{self, OptionMeta, TypeMeta};
use cann_config::{ConfigFile, Release, Target, OPTIONS};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config as RunnerConfig, TestRunner};
use serde_json::{Map, Value};

/// A config file as text (JSON, which the YAML reader takes) and its target.
#[derive(Debug, Clone)]
pub struct Drawn {
    pub text: String,
    pub target: Target,
}

fn targets() -> Vec<Target> {
    Release::ALL
        .iter()
        .flat_map(|r| {
            r.meta().products.iter().map(|p| Target {
                product: *p,
                release: *r,
            })
        })
        .collect()
}

fn leaf_options(t: Target) -> Vec<&'static OptionMeta> {
    OPTIONS
        .iter()
        .filter(|o| !matches!(o.ty, TypeMeta::Config(_)))
        .filter(|o| o.available.contains(t.release))
        .filter(|o| meta::supports(o.products, t.product, t.release))
        .collect()
}

/// Strings that are hard to carry: quotes, backslashes, `$`, CJK, newlines, tabs.
fn text() -> BoxedStrategy<String> {
    prop_oneof![
        "[a-z0-9_]{1,8}",
        "[ -~]{0,16}",
        "[\\PC\t\n]{0,10}",
        Just("a\"b'c\\d$e`f".to_string()),
    ]
    .boxed()
}

fn path_chars(chars: &'static [meta::CharClass]) -> BoxedStrategy<String> {
    let mut alphabet: Vec<char> = Vec::new();
    for c in chars {
        match c {
            meta::CharClass::AsciiAlphanumeric => {
                alphabet.extend(('a'..='z').chain('A'..='Z').chain('0'..='9'));
            }
            meta::CharClass::Cjk => alphabet.extend(['目', '录', '缓', '存']),
            meta::CharClass::Literal(l) => alphabet.push(*l),
        }
    }
    if alphabet.is_empty() {
        return text();
    }
    proptest::collection::vec(proptest::sample::select(alphabet), 1..16)
        .prop_map(|cs| cs.into_iter().collect())
        .boxed()
}

fn lit(l: meta::Lit) -> Value {
    match l {
        meta::Lit::Bool(b) => Value::Bool(b),
        meta::Lit::Int(i) => Value::from(i),
        meta::Lit::Float(x) => Value::from(x.get()),
        meta::Lit::Str(s) => Value::from(s),
    }
}

fn value(o: &'static OptionMeta, t: Target) -> BoxedStrategy<Value> {
    match o.ty {
        TypeMeta::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        TypeMeta::IntEnum | TypeMeta::StrEnum => {
            let ok: Vec<Value> = o
                .values
                .iter()
                .filter(|v| v.available.contains(t.release))
                .filter(|v| {
                    v.products
                        .is_none_or(|p| meta::supports(p, t.product, t.release))
                })
                .map(|v| lit(v.value))
                .collect();
            if ok.is_empty() {
                Just(Value::Null).boxed()
            } else {
                proptest::sample::select(ok).boxed()
            }
        }
        TypeMeta::Int => {
            let r = o.range_on(t.product, t.release);
            let lo = r.and_then(|r| r.min).unwrap_or(-100_000);
            let hi = r.and_then(|r| r.max).unwrap_or(lo.max(0) + 100_000);
            prop_oneof![Just(lo), Just(hi), lo..=hi]
                .prop_map(Value::from)
                .boxed()
        }
        TypeMeta::Float => {
            let r = o.range_on(t.product, t.release);
            // Spec bounds are small whole numbers: exact as f64.
            #[allow(clippy::cast_precision_loss)]
            let lo = r.and_then(|r| r.min).unwrap_or(-100_000) as f64;
            #[allow(clippy::cast_precision_loss)]
            let hi = r
                .and_then(|r| r.max)
                .map_or(lo.max(0.0) + 100_000.0, |m| m as f64);
            // Just above a bound the range leaves out; fractions in between.
            let from = if r.is_some_and(|r| r.min_exclusive) {
                lo + 0.25
            } else {
                lo
            };
            // Quarters between the ends: exact in binary, so the JSON the Python stubs report
            // back reads as the same number (serde_json's default float reading can be one
            // unit in the last place off). Awkward fractions are tested in tests/float.rs.
            #[allow(clippy::cast_possible_truncation)]
            let quarters = ((from * 4.0) as i64)..=((hi * 4.0) as i64);
            #[allow(clippy::cast_precision_loss)]
            let inside = quarters.prop_map(|q| q as f64 / 4.0);
            prop_oneof![Just(from), Just(hi), inside]
                .prop_map(Value::from)
                .boxed()
        }
        TypeMeta::Str => text().prop_map(Value::from).boxed(),
        TypeMeta::Path { chars } => path_chars(chars).prop_map(Value::from).boxed(),
        TypeMeta::CorePair => {
            let (cube, vector) = t.product.meta().cores.unwrap_or((64, 128));
            (1..=cube, 1..=vector)
                .prop_map(|(c, v)| Value::from(format!("{c}|{v}")))
                .boxed()
        }
        // No config value can hold a Python object: leave it unset.
        TypeMeta::Config(_) | TypeMeta::Object(_) => Just(Value::Null).boxed(),
    }
}

fn insert(root: &mut Map<String, Value>, path: &str, v: Value) {
    match path.split_once('.') {
        None => {
            root.insert(path.to_string(), v);
        }
        Some((head, rest)) => {
            let child = root
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = child {
                insert(m, rest, v);
            }
        }
    }
}

/// A config of up to `max` options for one target the spec knows.
pub fn config(max: usize) -> impl Strategy<Value = Drawn> {
    proptest::sample::select(targets()).prop_flat_map(move |t| {
        let opts = leaf_options(t);
        let n = opts.len().min(max).max(1);
        let all = opts.clone();
        proptest::sample::subsequence(opts, 1..=n).prop_flat_map(move |mut chosen| {
            // A class whose constructor requires keywords gets all of them once it gets
            // one, as a user writing for the Estimator would.
            let classes: Vec<&str> = chosen.iter().map(|o| o.config).collect();
            for o in &all {
                let required = o.estimator_default == meta::PyDefault::Required;
                if required
                    && classes.contains(&o.config)
                    && !chosen.iter().any(|c| c.path == o.path)
                {
                    chosen.push(o);
                }
            }
            let values: Vec<_> = chosen
                .into_iter()
                .map(move |o| value(o, t).prop_map(move |v| (o, v)))
                .collect();
            values.prop_map(move |set| {
                let mut root = Map::new();
                root.insert("product".into(), Value::from(t.product.id()));
                root.insert("release".into(), Value::from(t.release.id()));
                for (o, v) in set {
                    if !v.is_null() {
                        insert(&mut root, o.path, v);
                    }
                }
                Drawn {
                    text: Value::Object(root).to_string(),
                    target: t,
                }
            })
        })
    })
}

/// The draw read back and checked; `None` when any finding is an error.
pub fn checked(d: &Drawn) -> Option<ConfigFile> {
    let f = cann_config::parse_config(&d.text).ok()?;
    let report = cann_config::validate(&f.config, d.target);
    let errors = f
        .diagnostics
        .iter()
        .chain(&report.diagnostics)
        .any(|x| x.severity == meta::Severity::Error);
    (!errors).then_some(f)
}

/// `n` drawn configs that check clean, from a fixed seed so failures reproduce. Panics
/// when fewer than half the draws are valid: the generator would then test too little.
pub fn valid_configs(n: usize, max: usize) -> Vec<(Drawn, ConfigFile)> {
    let mut runner = TestRunner::new_with_rng(
        RunnerConfig::default(),
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let strategy = config(max);
    let mut out = Vec::new();
    let mut drawn = 0;
    while out.len() < n && drawn < 4 * n {
        drawn += 1;
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        let d = tree.current();
        if let Some(f) = checked(&d) {
            out.push((d, f));
        }
    }
    assert!(
        out.len() * 2 >= drawn,
        "only {} of {drawn} generated configs were valid",
        out.len()
    );
    out
}
