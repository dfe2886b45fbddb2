//! What the generators derive from the spec, computed once for all of them: product support
//! by release with the validators' semantics, the rules that touch an option, example values
//! and the snippets for each API surface, and what changed between consecutive releases.

use cann_config::emit::{emit, Format};
use cann_i18n::catalog::docs as docs_msg;

/// A catalog text without arguments, as a function of the language.
type Words = fn(cann_i18n::Lang) -> String;
use cann_spec::{ConfigClass, Literal, OptionSpec, OptionType, Rule, Spec, Support};

pub struct Facts<'a> {
    pub spec: &'a Spec,
}

/// One way of setting an option, ready to paste.
pub struct Snippet {
    /// Stable id: `file`, `estimator`, `session`, `tf2`, `env`.
    pub id: &'static str,
    /// Its tab's title, from the catalog.
    pub title: Words,
    /// `yaml`, `python` or `shell`.
    pub lang: &'static str,
    pub code: String,
}

/// A release compared with the one before it: what `cannctl diff PREV R` reports, with its
/// details in English and in Chinese (the same changes in the same order).
pub struct ReleaseChanges {
    pub en: cann_config::diff::ReleaseDiff,
    pub zh: cann_config::diff::ReleaseDiff,
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

    pub fn available(&self, o: &OptionSpec, ri: usize) -> bool {
        o.available.contains_index(ri, |id| self.index(id))
            && self
                .ancestors(o)
                .iter()
                .all(|a| a.available.contains_index(ri, |id| self.index(id)))
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
            // A fraction shows that one is allowed.
            OptionType::Float => Literal::Float(cann_spec::Float(0.5)),
            OptionType::StrEnum | OptionType::Str => Literal::Str("...".into()),
            OptionType::Path { .. } => Literal::Str("/home/user/cann".into()),
            OptionType::CorePair => Literal::Str("24|48".into()),
            // Neither has a value a config file or a snippet can write.
            OptionType::Config(_) | OptionType::Object(_) => return None,
        })
    }

    /// Every snippet the option has: config file, Estimator, TF1 session, TF2, env.
    pub fn snippets(&self, o: &OptionSpec) -> Vec<Snippet> {
        let Some(value) = self.example(o) else {
            return Vec::new();
        };
        let mut out = vec![Snippet {
            id: "file",
            title: docs_msg::snippet_file,
            lang: "yaml",
            code: self.yaml_snippet(o, &value),
        }];
        // The Python and shell snippets are what `cannctl emit` writes for the config file
        // above, so the docs and the emitters cannot disagree.
        let Ok(file) = cann_config::parse_config(&out[0].code) else {
            return out;
        };
        let cfg = &file.config;
        let surfaces: [(bool, &str, Words, &str, Format); 4] = [
            (
                o.surfaces.estimator.is_some(),
                "estimator",
                docs_msg::snippet_estimator,
                "python",
                Format::Estimator,
            ),
            (
                o.surfaces.session.is_some(),
                "session",
                docs_msg::snippet_session,
                "python",
                Format::Session,
            ),
            (
                o.surfaces.tf2.is_some(),
                "tf2",
                docs_msg::snippet_tf2,
                "python",
                Format::Tf2,
            ),
            (
                o.surfaces.env.is_some(),
                "env",
                docs_msg::snippet_env,
                "shell",
                Format::Env,
            ),
        ];
        for (present, id, title, lang, format) in surfaces {
            if present {
                out.push(Snippet {
                    id,
                    title,
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

    /// What changed in release `ri` since release `ri - 1`, from the one release comparison;
    /// `None` for the first release. cann-config's tables are built from the same `spec/`
    /// this spec was read from ([`super::generate`] refuses to run when they disagree).
    pub fn changes(&self, ri: usize) -> Option<ReleaseChanges> {
        let prev = self.spec.releases.get(ri.checked_sub(1)?)?;
        let cur = self.spec.releases.get(ri)?;
        let (a, b) = (
            prev.id.parse::<cann_config::Release>().ok()?,
            cur.id.parse::<cann_config::Release>().ok()?,
        );
        let diff = |lang| cann_config::diff::diff_in(a, b, None, lang);
        Some(ReleaseChanges {
            en: diff(cann_config::meta::Lang::En),
            zh: diff(cann_config::meta::Lang::Zh),
        })
    }
}

/// A YAML scalar that reads back as the same type.
pub fn yaml(l: &Literal) -> String {
    match l {
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Float(x) => x.to_string(),
        Literal::Str(s) => json_str(s),
    }
}

/// A double-quoted string valid in JSON, YAML and Python.
fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}
