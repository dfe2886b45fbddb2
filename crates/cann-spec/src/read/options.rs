//! `options/*.yaml`: one configuration class and its options per file.

use std::path::Path;

use super::support::read_support;
use super::surfaces::read_surfaces;
use super::{list, read_int_range, read_literal, read_special, MapReader};
use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::model::{
    CharClass, ConfigClass, ConfigKind, OptionSpec, OptionType, Support, ValueSpec,
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
    let mut o = OptionSpec {
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
    };
    // A float option's ranges bound numbers, not integers, wherever they are written.
    if o.ty == OptionType::Float {
        let ranges = o
            .range
            .iter_mut()
            .chain(o.changes.iter_mut().filter_map(|c| c.range.as_mut()));
        for r in ranges.chain(o.by_product.iter_mut().filter_map(|f| f.range.as_mut())) {
            r.real = true;
        }
    }
    Some(o)
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
    let facts = crate::model::ProductFacts::<crate::model::Owned> {
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
    let change = crate::model::Change::<crate::model::Owned> {
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
        "float" => OptionType::Float,
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
