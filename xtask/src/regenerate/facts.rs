//! What the generators derive from the spec, computed once for all of them: product support
//! by release with the validators' semantics, the rules that touch an option, example values
//! and the snippets for each API surface, and what changed between consecutive releases.

use cann_config::emit::{emit, Format};
use std::collections::{BTreeMap, BTreeSet};

use cann_spec::{ConfigClass, Literal, OptionSpec, OptionType, Rule, Spec, Support, ValueSpec};

pub struct Facts<'a> {
    pub spec: &'a Spec,
}

/// One way of setting an option, ready to paste.
pub struct Snippet {
    /// Stable id: `file`, `estimator`, `session`, `tf2`, `env`.
    pub id: &'static str,
    pub title_en: &'static str,
    pub title_zh: &'static str,
    /// `yaml`, `python` or `shell`.
    pub lang: &'static str,
    pub code: String,
}

/// What changed in one option from one release to the next.
#[derive(Default)]
pub struct OptionChange {
    pub gained: Vec<String>,
    pub lost: Vec<String>,
    pub values_added: Vec<String>,
    pub values_removed: Vec<String>,
    /// Value, products gained, products lost.
    pub value_support: Vec<(String, Vec<String>, Vec<String>)>,
    pub default: Option<(String, String)>,
    pub deprecated: bool,
}

impl OptionChange {
    fn is_empty(&self) -> bool {
        self.gained.is_empty()
            && self.lost.is_empty()
            && self.values_added.is_empty()
            && self.values_removed.is_empty()
            && self.value_support.is_empty()
            && self.default.is_none()
            && !self.deprecated
    }
}

/// A release compared with the one before it. Option paths are in spec order.
#[derive(Default)]
pub struct ReleaseChanges {
    pub products_added: Vec<String>,
    pub products_removed: Vec<String>,
    pub options_added: Vec<String>,
    pub options_removed: Vec<String>,
    pub changed: Vec<(String, OptionChange)>,
    /// Ids of rules stated from this release on, and of rules no longer stated, as
    /// `cann_config::diff` (and so `cannctl diff`) reports them.
    pub rules_added: Vec<String>,
    pub rules_removed: Vec<String>,
}

impl ReleaseChanges {
    pub fn is_empty(&self) -> bool {
        self.products_added.is_empty()
            && self.products_removed.is_empty()
            && self.options_added.is_empty()
            && self.options_removed.is_empty()
            && self.changed.is_empty()
            && self.rules_added.is_empty()
            && self.rules_removed.is_empty()
    }
}

/// An option as it stands in one release.
struct OptionState {
    products: BTreeSet<String>,
    default: Option<String>,
    /// Value shown -> products supporting it.
    values: BTreeMap<String, BTreeSet<String>>,
    deprecated: bool,
}

fn diff(a: &BTreeSet<String>, b: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    (
        b.difference(a).cloned().collect(),
        a.difference(b).cloned().collect(),
    )
}

impl<'a> Facts<'a> {
    pub fn new(spec: &'a Spec) -> Self {
        Facts { spec }
    }

    fn index(&self, id: &str) -> Option<usize> {
        self.spec.release_index(id)
    }

    pub fn release_knows(&self, ri: usize, product: &str) -> bool {
        self.spec
            .releases
            .get(ri)
            .is_some_and(|r| r.products.iter().any(|p| p == product))
    }

    /// `cann_config::meta::supports`: the release knows the product and the list covers it.
    pub fn list_supports(&self, list: &[Support], product: &str, ri: usize) -> bool {
        self.release_knows(ri, product)
            && list
                .iter()
                .any(|s| s.product == product && s.releases.contains_index(ri, |id| self.index(id)))
    }

    /// The options of the classes above `o`, nearest first (`memory_config` for
    /// `npu_run_config.memory_config.static_memory_policy`).
    pub fn ancestors(&self, o: &OptionSpec) -> Vec<&'a OptionSpec> {
        let mut out = Vec::new();
        let mut path = o.path.as_str();
        while let Some((parent, _)) = path.rsplit_once('.') {
            if let Some(p) = self.spec.option_by_path(parent) {
                out.push(p);
            }
            path = parent;
        }
        out
    }

    fn own_support(&self, o: &OptionSpec, product: &str, ri: usize) -> bool {
        o.available.contains_index(ri, |id| self.index(id))
            && self.list_supports(o.effective_products(self.spec), product, ri)
    }

    /// Whether `cannctl check` accepts the option for this product and release: the release
    /// knows the product, and the option and every class above it are available and
    /// supported.
    pub fn supported(&self, o: &OptionSpec, product: &str, ri: usize) -> bool {
        self.release_knows(ri, product)
            && self.own_support(o, product, ri)
            && self
                .ancestors(o)
                .iter()
                .all(|a| self.own_support(a, product, ri))
    }

    pub fn value_supported(&self, o: &OptionSpec, v: &ValueSpec, product: &str, ri: usize) -> bool {
        self.supported(o, product, ri)
            && v.available.contains_index(ri, |id| self.index(id))
            && v.products
                .as_deref()
                .is_none_or(|l| self.list_supports(l, product, ri))
    }

    pub fn available(&self, o: &OptionSpec, ri: usize) -> bool {
        o.available.contains_index(ri, |id| self.index(id))
            && self
                .ancestors(o)
                .iter()
                .all(|a| a.available.contains_index(ri, |id| self.index(id)))
    }

    pub fn deprecated_in(&self, o: &OptionSpec, ri: usize) -> bool {
        o.deprecated
            .as_ref()
            .and_then(|d| self.index(&d.since))
            .is_some_and(|since| since <= ri)
    }

    /// Class support, by product and release.
    pub fn class_supported(&self, c: &ConfigClass, product: &str, ri: usize) -> bool {
        self.release_knows(ri, product)
            && c.available.contains_index(ri, |id| self.index(id))
            && self.list_supports(&c.products, product, ri)
    }

    /// Rules with a condition on `o`.
    pub fn rules_for(&self, o: &OptionSpec) -> Vec<&'a Rule> {
        self.spec
            .rules
            .iter()
            .filter(|r| r.when.iter().any(|c| c.option == o.path))
            .collect()
    }

    /// The option whose value is the class `name` (`memory_config` for `MemoryConfig`).
    pub fn option_holding(&self, class: &str) -> Option<&'a OptionSpec> {
        self.spec
            .options
            .iter()
            .find(|o| matches!(&o.ty, OptionType::Config(c) if c == class))
    }

    /// The value the snippets show: the default, else the first value, else a placeholder
    /// of the right type. `None` for nested classes.
    pub fn example(&self, o: &OptionSpec) -> Option<Literal> {
        if let Some(d) = &o.default {
            return Some(d.clone());
        }
        if let Some(v) = o.values.first() {
            return Some(v.value.clone());
        }
        Some(match &o.ty {
            OptionType::Bool => Literal::Bool(true),
            OptionType::Int | OptionType::IntEnum => {
                let r = o.range.as_ref();
                let lo = r.and_then(|r| r.min).unwrap_or(0).max(0);
                Literal::Int(r.and_then(|r| r.max).map_or(lo, |hi| lo.min(hi)))
            }
            OptionType::StrEnum | OptionType::Str => Literal::Str("...".into()),
            OptionType::Path { .. } => Literal::Str("/home/user/cann".into()),
            OptionType::CorePair => Literal::Str("24|48".into()),
            OptionType::Config(_) => return None,
        })
    }

    /// Every snippet the option has: config file, Estimator, TF1 session, TF2, env.
    pub fn snippets(&self, o: &OptionSpec) -> Vec<Snippet> {
        let Some(value) = self.example(o) else {
            return Vec::new();
        };
        let mut out = vec![Snippet {
            id: "file",
            title_en: "cannctl config file",
            title_zh: "cannctl 配置文件",
            lang: "yaml",
            code: self.yaml_snippet(o, &value),
        }];
        // The Python and shell snippets are what `cannctl emit` writes for the config file
        // above, so the docs and the emitters cannot disagree.
        let Ok(file) = cann_config::parse_config(&out[0].code) else {
            return out;
        };
        let cfg = &file.config;
        let surfaces = [
            (
                o.surfaces.estimator.is_some(),
                "estimator",
                "TF1 Estimator",
                "TF1 Estimator",
                "python",
                Format::Estimator,
            ),
            (
                o.surfaces.session.is_some(),
                "session",
                "TF1 session (parameter_map)",
                "TF1 session（parameter_map）",
                "python",
                Format::Session,
            ),
            (
                o.surfaces.tf2.is_some(),
                "tf2",
                "TF2 global options",
                "TF2 global_options",
                "python",
                Format::Tf2,
            ),
            (
                o.surfaces.env.is_some(),
                "env",
                "Environment variable",
                "环境变量",
                "shell",
                Format::Env,
            ),
        ];
        for (present, id, title_en, title_zh, lang, format) in surfaces {
            if present {
                out.push(Snippet {
                    id,
                    title_en,
                    title_zh,
                    lang,
                    // A snippet that cannot be emitted says why, in the comment syntax
                    // of both Python and the shell.
                    code: emit(cfg, format).unwrap_or_else(|errors| {
                        errors.iter().map(|e| format!("# {e}\n")).collect()
                    }),
                });
            }
        }
        out
    }

    fn yaml_snippet(&self, o: &OptionSpec, value: &Literal) -> String {
        let parts: Vec<&str> = o.path.split('.').collect();
        let mut s = String::new();
        for (depth, part) in parts.iter().enumerate() {
            s.push_str(&"  ".repeat(depth));
            s.push_str(part);
            s.push(':');
            if depth + 1 == parts.len() {
                s.push(' ');
                s.push_str(&yaml(value));
            }
            s.push('\n');
        }
        s
    }

    fn state(&self, ri: usize) -> BTreeMap<&'a str, OptionState> {
        let mut out = BTreeMap::new();
        for o in &self.spec.options {
            if !self.available(o, ri) {
                continue;
            }
            let products: BTreeSet<String> = self
                .spec
                .products
                .iter()
                .filter(|p| self.supported(o, &p.id, ri))
                .map(|p| p.id.clone())
                .collect();
            let values = o
                .values
                .iter()
                .filter(|v| v.available.contains_index(ri, |id| self.index(id)))
                .map(|v| {
                    let ps = self
                        .spec
                        .products
                        .iter()
                        .filter(|p| self.value_supported(o, v, &p.id, ri))
                        .map(|p| p.id.clone())
                        .collect();
                    (v.value.to_string(), ps)
                })
                .collect();
            out.insert(
                o.path.as_str(),
                OptionState {
                    products,
                    default: o.default_at(self.spec, ri).map(|d| d.to_string()),
                    values,
                    deprecated: self.deprecated_in(o, ri),
                },
            );
        }
        out
    }

    /// What changed in release `ri` since release `ri - 1`; `None` for the first release.
    pub fn changes(&self, ri: usize) -> Option<ReleaseChanges> {
        let prev_ri = ri.checked_sub(1)?;
        let (prev, cur) = (
            self.spec.releases.get(prev_ri)?,
            self.spec.releases.get(ri)?,
        );
        let set = |v: &[String]| v.iter().cloned().collect::<BTreeSet<String>>();
        let (products_added, products_removed) = diff(&set(&prev.products), &set(&cur.products));
        let (a, b) = (self.state(prev_ri), self.state(ri));
        let mut ch = ReleaseChanges {
            products_added,
            products_removed,
            ..ReleaseChanges::default()
        };
        for o in &self.spec.options {
            let key = o.path.as_str();
            match (a.get(key), b.get(key)) {
                (None, Some(_)) => ch.options_added.push(o.path.clone()),
                (Some(_), None) => ch.options_removed.push(o.path.clone()),
                (Some(x), Some(y)) => {
                    let (gained, lost) = diff(&x.products, &y.products);
                    let xv: BTreeSet<String> = x.values.keys().cloned().collect();
                    let yv: BTreeSet<String> = y.values.keys().cloned().collect();
                    let (values_added, values_removed) = diff(&xv, &yv);
                    let mut value_support = Vec::new();
                    for v in &o.values {
                        let k = v.value.to_string();
                        if let (Some(px), Some(py)) = (x.values.get(&k), y.values.get(&k)) {
                            // Only differences beyond the option's own change are news.
                            let (g, l) = diff(px, py);
                            let g: Vec<String> =
                                g.into_iter().filter(|p| !gained.contains(p)).collect();
                            let l: Vec<String> =
                                l.into_iter().filter(|p| !lost.contains(p)).collect();
                            if !g.is_empty() || !l.is_empty() {
                                value_support.push((k, g, l));
                            }
                        }
                    }
                    let c = OptionChange {
                        gained,
                        lost,
                        values_added,
                        values_removed,
                        value_support,
                        default: (x.default != y.default).then(|| {
                            (
                                x.default.clone().unwrap_or_else(|| "unset".into()),
                                y.default.clone().unwrap_or_else(|| "unset".into()),
                            )
                        }),
                        deprecated: y.deprecated && !x.deprecated,
                    };
                    if !c.is_empty() {
                        ch.changed.push((o.path.clone(), c));
                    }
                }
                (None, None) => {}
            }
        }
        (ch.rules_added, ch.rules_removed) = rule_changes(&prev.id, &cur.id);
        Some(ch)
    }
}

/// Rules added and removed from release `from` to `to`, from the one release comparison.
/// cann-config's tables are built from the same `spec/` this spec was read from.
fn rule_changes(from: &str, to: &str) -> (Vec<String>, Vec<String>) {
    let (Ok(a), Ok(b)) = (
        from.parse::<cann_config::Release>(),
        to.parse::<cann_config::Release>(),
    ) else {
        return (Vec::new(), Vec::new());
    };
    let d = cann_config::diff::diff(a, b, None);
    let ids = |change: &str| {
        d.changes
            .iter()
            .filter(|c| c.kind == "rule" && c.change == change)
            .map(|c| c.subject.clone())
            .collect::<Vec<_>>()
    };
    (ids("added"), ids("removed"))
}

/// A YAML scalar that reads back as the same type.
pub fn yaml(l: &Literal) -> String {
    match l {
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Str(s) => json_str(s),
    }
}

/// A double-quoted string valid in JSON, YAML and Python.
fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}
