//! `options/*.yaml`: one configuration class and its options per file.

use std::path::Path;

use super::{list, read_int_range, read_literal, read_special, MapReader};
use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::model::{
    Accessor, CharClass, ConfigClass, ConfigKind, Encoding, Literal, OptionSpec, OptionType,
    PyDefault, Support, Surfaces, ValueSpec,
};
use crate::yaml::{Kind, Node};

/// An options file either declares its class (`config:` is a mapping) or adds options to a
/// class declared in another file (`config: NPURunConfig`), so large classes can be split
/// by topic.
pub(crate) fn read_options_file(
    file: &Path,
    doc: &Node,
    d: &mut Diagnostics,
) -> Option<(Option<ConfigClass>, Vec<OptionSpec>)> {
    let top = MapReader::new(file, doc, "the file", &[k::CONFIG, k::OPTIONS], d)?;
    let config_node = top.required(k::CONFIG, "the file", d)?;
    let (class, name) = match config_node.as_str() {
        Some(name) => (None, name.to_string()),
        None => {
            let c = read_config(file, config_node, d)?;
            let name = c.name.clone();
            (Some(c), name)
        }
    };
    let options = top
        .seq(k::OPTIONS, "the file", d)
        .iter()
        .filter_map(|n| read_option(file, n, &name, d))
        .collect();
    Some((class, options))
}

fn read_config(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<ConfigClass> {
    const KEYS: &[&str] = &[
        k::NAME,
        k::ROOT_KEY,
        k::KIND,
        k::PYTHON_IMPORT,
        k::AVAILABLE,
        k::PRODUCTS,
        k::DOC,
        k::SOURCE,
    ];
    let what = "`config`";
    let r = MapReader::new(file, n, what, KEYS, d)?;
    let kind = match r.opt_string(k::KIND, d).as_deref() {
        None | Some("python") => ConfigKind::Python,
        Some("environment") => ConfigKind::Environment,
        Some(other) => {
            d.error(r.loc(), format!("unknown config kind `{other}`"))
                .expected(list(k::CONFIG_KINDS));
            ConfigKind::Python
        }
    };
    Some(ConfigClass {
        name: r.string(k::NAME, what, d)?,
        root_key: r.opt_string(k::ROOT_KEY, d),
        kind,
        python_import: r.opt_string(k::PYTHON_IMPORT, d),
        products: class_support(&r, d),
        available: r.range(k::AVAILABLE, d),
        doc: r.text(k::DOC, what, d)?,
        source: r.sources(d),
        loc: r.loc(),
    })
}

/// A class states its product support: options and values may narrow it, and a product
/// added to a release gains nothing until it is named here.
fn class_support(r: &MapReader<'_>, d: &mut Diagnostics) -> Vec<Support> {
    if r.get(k::PRODUCTS).is_none() {
        d.error(r.loc(), "`config` is missing the required key `products`")
            .hint("name the products that support the class and from which release, e.g. `products: { atlas-a2-training: \"8.0.RC2..\" }`");
    }
    read_support(r, d)
}

/// `products: { atlas-350: "9.0.0..", ... }`
pub(crate) fn read_support(r: &MapReader<'_>, d: &mut Diagnostics) -> Vec<Support> {
    let Some(node) = r.get(k::PRODUCTS) else {
        return Vec::new();
    };
    let Kind::Map(entries) = &node.kind else {
        d.error(
            Loc::new(r.file(), node.pos),
            format!(
                "`products` must map product ids to release ranges, found {}",
                node.kind.describe()
            ),
        )
        .hint("write `products: { atlas-a2-training: \"8.0.RC2..\" }`");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in entries {
        let loc = Loc::new(r.file(), key.pos);
        let Some(product) = key.as_str() else {
            d.error(loc, "product ids must be strings");
            continue;
        };
        // One range, or a list when support lapsed and came back.
        let ranges: Vec<&Node> = match &value.kind {
            Kind::Seq(items) => items.iter().collect(),
            _ => vec![value],
        };
        for rn in ranges {
            let Some(text) = rn.as_str() else {
                d.error(
                    Loc::new(r.file(), rn.pos),
                    format!("the release range of `{product}` must be a string such as \"9.0.0..\", or a list of them"),
                );
                continue;
            };
            let releases = super::read_range(text, Loc::new(r.file(), rn.pos), d);
            out.push(Support {
                product: product.to_string(),
                releases,
                loc: loc.clone(),
            });
        }
    }
    out
}

fn read_option(file: &Path, n: &Node, config: &str, d: &mut Diagnostics) -> Option<OptionSpec> {
    const KEYS: &[&str] = &[
        k::NAME,
        k::TYPE,
        k::CLASS,
        k::DEFAULT,
        k::VALUES,
        k::VALUES_OF,
        k::BEHAVIOURS,
        k::RANGE,
        k::SPECIAL,
        k::UNIT,
        k::CHARS,
        k::GE_KEY,
        k::ESTIMATOR,
        k::SESSION,
        k::TF2,
        k::ENV,
        k::AVAILABLE,
        k::INTRODUCED,
        k::PRODUCTS,
        k::DEPRECATED,
        k::REMOVED,
        k::CHANGES,
        k::BY_PRODUCT,
        k::DOC,
        k::SOURCE,
    ];
    let r = MapReader::new(file, n, "an option", KEYS, d)?;
    let name = r.string(k::NAME, "an option", d)?;
    let what = format!("option `{name}`");
    let ty = read_type(&r, &what, d);
    let behaviours = super::value::read_family(&r, &what, d);
    let values: Vec<ValueSpec> = r
        .seq(k::VALUES, &what, d)
        .iter()
        .filter_map(|v| super::value::read_value(file, v, behaviours, &name, d))
        .collect();
    let default = r.get(k::DEFAULT).and_then(|v| match v.kind {
        // `default: ~` documents "unset" explicitly.
        Kind::Null => None,
        _ => read_literal(file, v, d),
    });
    let surfaces = read_surfaces(&r, d);
    let deprecated = r
        .get(k::DEPRECATED)
        .and_then(|n| super::history::read_deprecation(file, n, d));
    let removed = r
        .get(k::REMOVED)
        .map(|n| super::history::read_option_removals(file, n, d))
        .unwrap_or_default();
    Some(OptionSpec {
        path: String::new(),
        config: config.to_string(),
        ty: ty?,
        default,
        values,
        behaviours: behaviours.family(),
        values_of: r.opt_string(k::VALUES_OF, d),
        range: read_int_range(&r, d),
        special: read_special(&r, &what, d),
        unit: r.opt_string(k::UNIT, d),
        ge_key: r.opt_string(k::GE_KEY, d),
        surfaces,
        available: r.range(k::AVAILABLE, d),
        introduced: r
            .get(k::INTRODUCED)
            .and_then(|n| super::history::read_introduced(file, n, d)),
        products: read_support(&r, d),
        deprecated,
        removed,
        changes: r
            .seq(k::CHANGES, &what, d)
            .iter()
            .filter_map(|c| read_change(file, c, d))
            .collect(),
        by_product: r
            .seq(k::BY_PRODUCT, &what, d)
            .iter()
            .filter_map(|p| read_product_facts(file, p, d))
            .collect(),
        doc: r.text(k::DOC, &what, d)?,
        source: r.sources(d),
        loc: r.loc(),
        keys: r.key_locs(),
        name,
    })
}

/// `estimator`, `session`, `tf2` and `env` of a mapping: an option, or a removal entry.
pub(crate) fn read_surfaces(r: &MapReader<'_>, d: &mut Diagnostics) -> Surfaces {
    let file = r.file();
    let session = r.get(k::SESSION).and_then(|s| {
        let sr = MapReader::new(file, s, "`session`", &[k::NAME, k::ACCESSOR], d)?;
        let sname = sr.string(k::NAME, "`session`", d)?;
        let acc = sr.string(k::ACCESSOR, "`session`", d)?;
        let accessor = match acc.as_str() {
            "i" => Accessor::I,
            "s" => Accessor::S,
            "b" => Accessor::B,
            other => {
                d.error(sr.loc(), format!("unknown accessor `{other}`"))
                    .expected(list(k::ACCESSORS));
                return None;
            }
        };
        Some((sname, accessor))
    });
    let estimator = r.get(k::ESTIMATOR).and_then(|e| read_keyword(file, e, d));
    let tf2 = r.get(k::TF2).and_then(|t| read_tf2(file, t, d));
    let (estimator, estimator_default) = estimator.unzip();
    let tf2 = tf2.unwrap_or_default();
    Surfaces {
        estimator,
        estimator_default: estimator_default.unwrap_or_default(),
        session,
        tf2_as: tf2.encoding(),
        tf2: tf2.path,
        tf2_default: tf2.default,
        tf2_values: tf2.values,
        env: r.opt_string(k::ENV, d),
    }
}

/// `estimator: NAME` (a keyword defaulting to `None`), or
/// `estimator: { name: NAME, default: VALUE }` / `{ name: NAME, required: true }`.
fn read_keyword(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<(String, PyDefault)> {
    if let Some(name) = n.as_str() {
        return Some((name.to_string(), PyDefault::None));
    }
    let what = "`estimator`";
    let r = MapReader::new(file, n, what, &[k::NAME, k::DEFAULT, k::REQUIRED], d)?;
    let name = r.string(k::NAME, what, d)?;
    let required = r
        .get(k::REQUIRED)
        .map(|v| matches!(v.kind, Kind::Bool(true)));
    let default = match (r.get(k::DEFAULT), required) {
        (Some(_), Some(true)) => {
            d.error(
                r.loc(),
                format!("keyword `{name}` cannot both be required and have a default"),
            );
            PyDefault::Required
        }
        (_, Some(true)) => PyDefault::Required,
        (None, _) => PyDefault::None,
        (Some(v), _) => match v.kind {
            Kind::Null => PyDefault::None,
            _ => read_literal(file, v, d).map_or(PyDefault::None, PyDefault::Lit),
        },
    };
    Some((name, default))
}

/// What the `tf2:` key says: `tf2: PATH`, or `tf2: { path, default, values }` with the
/// default and accepted values of TF2's `OptionValue`.
#[derive(Default)]
struct Tf2 {
    path: Option<String>,
    default: Option<Literal>,
    values: Option<Vec<Option<Literal>>>,
}

impl Tf2 {
    /// The one Python type of the default and the values, if they agree on one.
    fn encoding(&self) -> Option<Encoding> {
        let mut lits = self
            .default
            .iter()
            .chain(self.values.iter().flatten().flatten());
        let first = lits.next()?;
        let enc = |l: &Literal| match l {
            Literal::Bool(_) => Encoding::Bool,
            Literal::Int(_) => Encoding::Int,
            Literal::Str(_) => Encoding::Str,
        };
        let e = enc(first);
        lits.all(|l| enc(l) == e).then_some(e)
    }
}

fn read_tf2(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<Tf2> {
    if let Some(p) = n.as_str() {
        return Some(Tf2 {
            path: Some(p.to_string()),
            ..Tf2::default()
        });
    }
    let what = "`tf2`";
    let r = MapReader::new(file, n, what, &[k::PATH, k::DEFAULT, k::VALUES], d)?;
    let path = r.string(k::PATH, what, d)?;
    let default = r.get(k::DEFAULT).and_then(|v| match v.kind {
        Kind::Null => None,
        _ => read_literal(file, v, d),
    });
    let values = r.get(k::VALUES).map(|_| {
        r.seq(k::VALUES, what, d)
            .iter()
            .map(|v| match v.kind {
                Kind::Null => None,
                _ => read_literal(file, v, d),
            })
            .collect()
    });
    Some(Tf2 {
        path: Some(path),
        default,
        values,
    })
}

/// `by_product: [{ for: [product, ...], range: {...}, default: ... }]`
fn read_product_facts(
    file: &Path,
    n: &Node,
    d: &mut Diagnostics,
) -> Option<crate::model::ProductFacts> {
    let what = "a `by_product` entry";
    let r = MapReader::new(file, n, what, &[k::FOR, k::RANGE, k::DEFAULT], d)?;
    let products: Vec<String> = r
        .seq(k::FOR, what, d)
        .iter()
        .filter_map(|p| match p.as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                d.error(Loc::new(file, p.pos), "product ids must be strings");
                None
            }
        })
        .collect();
    let facts = crate::model::ProductFacts {
        products,
        range: super::read_int_range(&r, d),
        default: r.get(k::DEFAULT).and_then(|v| read_literal(file, v, d)),
        loc: r.loc(),
    };
    if facts.products.is_empty() {
        d.error(
            r.loc(),
            format!("{what} must name its products under `for`"),
        );
    }
    if facts.range.is_none() && facts.default.is_none() {
        d.error(r.loc(), format!("{what} must change something"))
            .expected(format!("`{}` or `{}`", k::RANGE, k::DEFAULT));
    }
    Some(facts)
}

fn read_change(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<crate::model::Change> {
    const KEYS: &[&str] = &[k::RELEASE, k::DEFAULT, k::GE_KEY, k::RANGE];
    let what = "a change";
    let r = MapReader::new(file, n, what, KEYS, d)?;
    let change = crate::model::Change {
        release: r.string(k::RELEASE, what, d)?,
        default: r.get(k::DEFAULT).and_then(|v| read_literal(file, v, d)),
        ge_key: r.opt_string(k::GE_KEY, d),
        range: read_int_range(&r, d),
        loc: r.loc(),
    };
    if change.default.is_none() && change.ge_key.is_none() && change.range.is_none() {
        d.error(r.loc(), "a change must change something")
            .expected(format!(
                "one of `{}`, `{}`, `{}`",
                k::DEFAULT,
                k::GE_KEY,
                k::RANGE
            ));
    }
    Some(change)
}

fn read_type(r: &MapReader<'_>, what: &str, d: &mut Diagnostics) -> Option<OptionType> {
    let ty = r.string(k::TYPE, what, d)?;
    let t = match ty.as_str() {
        "bool" => OptionType::Bool,
        "int" => OptionType::Int,
        "int-enum" => OptionType::IntEnum,
        "string-enum" => OptionType::StrEnum,
        "string" => OptionType::Str,
        "core-pair" => OptionType::CorePair,
        "path" => OptionType::Path {
            chars: read_chars(r, d),
        },
        "config" => OptionType::Config(r.string(k::CLASS, what, d)?),
        "python-object" => OptionType::Object(r.string(k::CLASS, what, d)?),
        other => {
            let diag = d.error(r.loc(), format!("{what} has unknown type `{other}`"));
            diag.expected(list(k::TYPES));
            if let Some(s) = super::did_you_mean(other, k::TYPES.iter().copied()) {
                diag.hint(format!("did you mean `{s}`?"));
            }
            return None;
        }
    };
    Some(t)
}

fn read_chars(r: &MapReader<'_>, d: &mut Diagnostics) -> Vec<CharClass> {
    r.seq(k::CHARS, "a path option", d)
        .iter()
        .filter_map(|c| {
            let s = c.as_str()?;
            match s {
                "ascii-alphanumeric" => Some(CharClass::AsciiAlphanumeric),
                "cjk" => Some(CharClass::Cjk),
                _ => {
                    let mut it = s.chars();
                    match (it.next(), it.next()) {
                        (Some(ch), None) => Some(CharClass::Literal(ch)),
                        _ => {
                            d.error(
                                Loc::new(r.file(), c.pos),
                                format!(
                                    "`{s}` is neither a character class nor a single character"
                                ),
                            )
                            .expected(list(k::CHAR_CLASSES));
                            None
                        }
                    }
                }
            }
        })
        .collect()
}
