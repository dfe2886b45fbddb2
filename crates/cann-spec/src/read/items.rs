//! Products, releases, rules and file formats.

use std::path::Path;

use super::{read_literal, MapReader};
use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::model::{
    Condition, Cores, Example, FileFormat, FileKey, FileSection, IntRange, Product, Release, Rule,
    RuleExamples, Severity, Test, Text,
};
use crate::yaml::{Kind, Node};

/// The list under `key` at the top of a file, each item read by `f`.
fn top_list<'a, T>(
    file: &'a Path,
    doc: &'a Node,
    key: &'static str,
    allowed: &'static [&'static str],
    d: &mut Diagnostics,
    mut f: impl FnMut(&'a Path, &'a Node, &mut Diagnostics) -> Option<T>,
) -> Vec<T> {
    let Some(top) = MapReader::new(file, doc, "the file", allowed, d) else {
        return Vec::new();
    };
    let items = top.seq(key, "the file", d);
    if top.get(key).is_none() {
        d.error(
            top.loc(),
            format!("the file is missing the required key `{key}`"),
        );
    }
    items.iter().filter_map(|n| f(file, n, d)).collect()
}

pub(crate) fn read_products(file: &Path, doc: &Node, d: &mut Diagnostics) -> Vec<Product> {
    top_list(file, doc, k::PRODUCTS, &[k::PRODUCTS], d, |file, n, d| {
        const KEYS: &[&str] = &[k::ID, k::NAME, k::ALIASES, k::NOTE, k::CORES, k::SOURCE];
        let r = MapReader::new(file, n, "a product", KEYS, d)?;
        let id = r.string(k::ID, "a product", d);
        let name = r.text(k::NAME, "a product", d);
        let note = r.opt_text(k::NOTE, "a product", d);
        let cores = r.get(k::CORES).and_then(|c| {
            let cr = MapReader::new(file, c, "`cores`", &[k::CUBE, k::VECTOR], d)?;
            let count = |key: &str, d: &mut Diagnostics| {
                let v = cr.int(key, d);
                if v.is_none() && cr.get(key).is_none() {
                    d.error(cr.loc(), format!("`cores` is missing `{key}`"));
                }
                v.and_then(|v| u32::try_from(v).ok().filter(|v| *v > 0))
            };
            Some(Cores {
                cube: count(k::CUBE, d)?,
                vector: count(k::VECTOR, d)?,
            })
        });
        let aliases = r
            .seq(k::ALIASES, "a product", d)
            .iter()
            .filter_map(|a| {
                let ar = MapReader::new(file, a, "an alias", &[k::NAME, k::SOURCE], d)?;
                let sources = ar.sources(d);
                if sources.is_empty() {
                    d.error(
                        ar.loc(),
                        "an alias needs a `source` saying where the name is used",
                    )
                    .hint("cite the page or file that names the product so");
                }
                Some(crate::model::Alias {
                    name: ar.string(k::NAME, "an alias", d)?,
                    source: sources,
                    loc: ar.loc(),
                })
            })
            .collect();
        Some(Product {
            id: id?,
            name: name?,
            aliases,
            note,
            cores,
            source: r.sources(d),
            loc: r.loc(),
        })
    })
}

pub(crate) fn read_releases(file: &Path, doc: &Node, d: &mut Diagnostics) -> Vec<Release> {
    // Each release may be written relative to the one before it.
    let mut previous: Option<(String, Vec<String>)> = None;
    top_list(file, doc, k::RELEASES, &[k::RELEASES], d, |file, n, d| {
        const KEYS: &[&str] = &[
            k::ID,
            k::PRODUCTS,
            k::UNRELEASED,
            k::REFS,
            k::NOTE,
            k::SOURCE,
        ];
        let r = MapReader::new(file, n, "a release", KEYS, d)?;
        let id = r.string(k::ID, "a release", d);
        let products_node = r.required(k::PRODUCTS, "a release", d);
        let products = products_node
            .map(|p| release_products(file, p, previous.as_ref(), d))
            .unwrap_or_default();
        let id = id?;
        previous = Some((id.clone(), products.clone()));
        Some(Release {
            id,
            products,
            products_loc: products_node.map_or_else(|| r.loc(), |p| Loc::new(file, p.pos)),
            unreleased: r.flag(k::UNRELEASED, d),
            refs: release_refs(&r, d),
            note: r.opt_text(k::NOTE, "a release", d),
            source: r.sources(d),
            loc: r.loc(),
        })
    })
}

/// `refs: ["hicann/tensorflow@tfa_v0.0.48_9.0.0"]`: the upstream git refs (tag, branch or
/// commit) whose code is this release, each written `owner/name@ref`.
fn release_refs(r: &MapReader<'_>, d: &mut Diagnostics) -> Vec<String> {
    let mut out = Vec::new();
    for n in r.seq(k::REFS, "`refs` of a release", d) {
        let at = Loc::new(r.file(), n.pos);
        let Some(text) = n.as_str() else {
            d.error(
                at,
                format!("a ref must be a string, found {}", n.kind.describe()),
            );
            continue;
        };
        match crate::source::Cited::parse(text) {
            Some(c) if c.path.is_none() => out.push(text.to_string()),
            _ => {
                d.error(at, format!("`{text}` is not a git ref"))
                    .expected("`owner/name@ref`, e.g. `hicann/tensorflow@tfa_v0.0.48_9.0.0`");
            }
        }
    }
    out
}

/// `products: [a, b]` lists a release's products; `products: { add: [c], remove: [a] }`
/// starts from the previous release's, and `products: {}` keeps them unchanged.
fn release_products(
    file: &Path,
    node: &Node,
    previous: Option<&(String, Vec<String>)>,
    d: &mut Diagnostics,
) -> Vec<String> {
    let ids = |items: &[Node], d: &mut Diagnostics| -> Vec<(String, Loc)> {
        items
            .iter()
            .filter_map(|p| match p.as_str() {
                Some(s) => Some((s.to_string(), Loc::new(file, p.pos))),
                None => {
                    d.error(Loc::new(file, p.pos), "product ids must be strings");
                    None
                }
            })
            .collect()
    };
    match &node.kind {
        Kind::Seq(items) => ids(items, d).into_iter().map(|(p, _)| p).collect(),
        Kind::Map(_) => {
            let what = "`products` of a release";
            let Some(m) = MapReader::new(file, node, what, &[k::ADD, k::REMOVE], d) else {
                return Vec::new();
            };
            let Some((prev_id, prev)) = previous else {
                d.error(
                    Loc::new(file, node.pos),
                    "the first release has no previous one to add to or remove from",
                )
                .hint("list its products: `products: [atlas-a2-training, ...]`");
                return Vec::new();
            };
            let mut out = prev.clone();
            for (p, loc) in ids(m.seq(k::REMOVE, what, d), d) {
                match out.iter().position(|x| *x == p) {
                    Some(i) => {
                        out.remove(i);
                    }
                    None => {
                        d.error(
                            loc,
                            format!("`{p}` is not a product of {prev_id}, so it cannot be removed"),
                        )
                        .expected(format!("one of {}", super::list(prev)));
                    }
                }
            }
            for (p, loc) in ids(m.seq(k::ADD, what, d), d) {
                if out.contains(&p) {
                    d.error(loc, format!("`{p}` is already a product of {prev_id}"))
                        .hint(
                            "a release written with `add` keeps every product of the one before it",
                        );
                } else {
                    out.push(p);
                }
            }
            out
        }
        other => {
            d.error(
                Loc::new(file, node.pos),
                format!(
                    "`products` of a release must be a list of product ids or a mapping with `add` and `remove`, found {}",
                    other.describe()
                ),
            );
            Vec::new()
        }
    }
}

pub(crate) fn read_rules(file: &Path, doc: &Node, d: &mut Diagnostics) -> Vec<Rule> {
    top_list(file, doc, k::RULES, &[k::RULES], d, |file, n, d| {
        const KEYS: &[&str] = &[
            k::ID,
            k::SEVERITY,
            k::WHEN,
            k::AVAILABLE,
            k::MESSAGE,
            k::HINT,
            k::SOURCE,
            k::EXAMPLES,
        ];
        let r = MapReader::new(file, n, "a rule", KEYS, d)?;
        let id = r.string(k::ID, "a rule", d);
        let severity = r.string(k::SEVERITY, "a rule", d).and_then(|s| {
            let sev = match s.as_str() {
                "error" => Some(Severity::Error),
                "warning" => Some(Severity::Warning),
                "note" => Some(Severity::Note),
                _ => None,
            };
            if sev.is_none() {
                d.error(r.loc(), format!("unknown severity `{s}`"))
                    .expected(super::list(k::SEVERITIES));
            }
            sev
        });
        let when: Vec<Condition> = r
            .seq(k::WHEN, "a rule", d)
            .iter()
            .filter_map(|c| read_condition(file, c, d))
            .collect();
        if when.is_empty() && r.get(k::WHEN).is_some() {
            d.error(r.loc(), "a rule needs at least one condition under `when`");
        } else if r.get(k::WHEN).is_none() {
            d.error(r.loc(), "a rule is missing the required key `when`");
        }
        Some(Rule {
            id: id?,
            severity: severity?,
            when,
            available: r.range(k::AVAILABLE, d),
            message: r.text(k::MESSAGE, "a rule", d)?,
            hint: r.opt_text(k::HINT, "a rule", d),
            source: r.sources(d),
            examples: read_examples(file, &r, d),
            loc: r.loc(),
        })
    })
}

/// `examples: { fires: [config, ...], quiet: [config, ...] }`, each config a string.
fn read_examples(file: &Path, rule: &MapReader<'_>, d: &mut Diagnostics) -> RuleExamples {
    let Some(node) = rule.get(k::EXAMPLES) else {
        return RuleExamples::default();
    };
    let Some(r) = MapReader::new(file, node, "`examples`", &[k::FIRES, k::QUIET], d) else {
        return RuleExamples::default();
    };
    let mut list = |key: &str| -> Vec<Example> {
        r.seq(key, "`examples`", d)
            .iter()
            .filter_map(|n| match &n.kind {
                Kind::Str(s) => Some(Example {
                    config: s.clone(),
                    loc: Loc::new(file, n.pos),
                }),
                other => {
                    d.error(
                        Loc::new(file, n.pos),
                        format!(
                            "an example under `{key}` must be a string (a config file's text), found {}",
                            other.describe()
                        ),
                    )
                    .hint("quote it, or write it as a block: `- |` and the config on the next lines");
                    None
                }
            })
            .collect()
    };
    RuleExamples {
        fires: list(k::FIRES),
        quiet: list(k::QUIET),
    }
}

fn read_condition(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<Condition> {
    const KEYS: &[&str] = &[k::OPTION, k::EQUALS, k::NOT, k::IN, k::SET, k::UNSET];
    let r = MapReader::new(file, n, "a condition", KEYS, d)?;
    let option = r.string(k::OPTION, "a condition", d);
    let mut tests = Vec::new();
    if let Some(v) = r.get(k::EQUALS) {
        tests.extend(read_literal(file, v, d).map(Test::Equals));
    }
    if let Some(v) = r.get(k::NOT) {
        tests.extend(read_literal(file, v, d).map(Test::Not));
    }
    if let Some(v) = r.get(k::IN) {
        let items = r.seq(k::IN, "a condition", d);
        let lits: Vec<_> = items
            .iter()
            .filter_map(|i| read_literal(file, i, d))
            .collect();
        if lits.is_empty() {
            d.error(Loc::new(file, v.pos), "`in` needs at least one value");
        }
        tests.push(Test::In(lits));
    }
    for (key, test) in [(k::SET, Test::Set), (k::UNSET, Test::Unset)] {
        if let Some(v) = r.get(key) {
            if v.kind != Kind::Bool(true) {
                d.error(Loc::new(file, v.pos), format!("`{key}` takes only `true`"));
            }
            tests.push(test);
        }
    }
    if tests.len() != 1 {
        d.error(
            r.loc(),
            format!("a condition needs exactly one test, found {}", tests.len()),
        )
        .expected(format!(
            "one of `{}`, `{}`, `{}`, `{}`, `{}`",
            k::EQUALS,
            k::NOT,
            k::IN,
            k::SET,
            k::UNSET
        ));
        return None;
    }
    Some(Condition {
        option: option?,
        test: tests.pop()?,
        loc: r.loc(),
    })
}

pub(crate) fn read_int_range(r: &MapReader<'_>, d: &mut Diagnostics) -> Option<IntRange> {
    let node = r.get(k::RANGE)?;
    let keys = &[k::MIN, k::ABOVE, k::MAX, k::ADVICE];
    let rr = MapReader::new(r.file(), node, "`range`", keys, d)?;
    let (min, above) = (rr.int(k::MIN, d), rr.int(k::ABOVE, d));
    if min.is_some() && above.is_some() {
        d.error(rr.loc(), "`range` has both `min` and `above`")
            .hint("`min: n` lets n in, `above: n` leaves it out: keep one");
    }
    let range = IntRange {
        advice: rr.flag(k::ADVICE, d),
        min: min.or(above),
        max: rr.int(k::MAX, d),
        min_exclusive: min.is_none() && above.is_some(),
        // Set by the option's reader, which knows its type.
        real: false,
    };
    if let (Some(lo), Some(hi)) = (range.min, range.max) {
        if lo > hi {
            d.error(
                rr.loc(),
                format!("`range` is empty: min {lo} is above max {hi}"),
            );
        } else if lo == hi && range.min_exclusive {
            d.error(
                rr.loc(),
                format!("`range` is empty: nothing is above {lo} and at most {hi}"),
            );
        }
    }
    Some(range)
}

/// `special: [{ value: -1, doc: ... }]`: integers outside `range` that mean something
/// particular (such as "aging off").
pub(crate) fn read_special(r: &MapReader<'_>, what: &str, d: &mut Diagnostics) -> Vec<(i64, Text)> {
    r.seq(k::SPECIAL, what, d)
        .iter()
        .filter_map(|s| {
            let sr = MapReader::new(r.file(), s, "a special value", &[k::VALUE, k::DOC], d)?;
            Some((sr.int(k::VALUE, d)?, sr.text(k::DOC, "a special value", d)?))
        })
        .collect()
}

pub(crate) fn read_files_doc(file: &Path, doc: &Node, d: &mut Diagnostics) -> Vec<FileFormat> {
    top_list(file, doc, k::FILES, &[k::FILES], d, |file, n, d| {
        const KEYS: &[&str] = &[
            k::NAME,
            k::LOCATION,
            k::SECTIONS,
            k::INVALID,
            k::DOC,
            k::SOURCE,
        ];
        let r = MapReader::new(file, n, "a file format", KEYS, d)?;
        let sections = r
            .seq(k::SECTIONS, "a file format", d)
            .iter()
            .filter_map(|s| {
                let sr = MapReader::new(file, s, "a section", &[k::NAME, k::KEYS], d)?;
                let keys = sr
                    .seq(k::KEYS, "a section", d)
                    .iter()
                    .filter_map(|kn| read_file_key(file, kn, d))
                    .collect();
                Some(FileSection {
                    name: sr.string(k::NAME, "a section", d)?,
                    keys,
                })
            })
            .collect();
        Some(FileFormat {
            name: r.string(k::NAME, "a file format", d)?,
            location: r.text(k::LOCATION, "a file format", d)?,
            sections,
            invalid: r.text(k::INVALID, "a file format", d)?,
            doc: r.text(k::DOC, "a file format", d)?,
            source: r.sources(d),
            loc: r.loc(),
        })
    })
}

fn read_file_key(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<FileKey> {
    const KEYS: &[&str] = &[
        k::NAME,
        k::RANGE,
        k::UNIT,
        k::DEFAULT,
        k::ENV,
        k::SPECIAL,
        k::DOC,
    ];
    let r = MapReader::new(file, n, "a file key", KEYS, d)?;
    let special = read_special(&r, "a file key", d);
    let key = FileKey {
        name: r.string(k::NAME, "a file key", d)?,
        range: read_int_range(&r, d),
        unit: r.opt_string(k::UNIT, d),
        default: r.int(k::DEFAULT, d),
        env: r.opt_string(k::ENV, d),
        special,
        doc: r.text(k::DOC, "a file key", d)?,
        loc: r.loc(),
    };
    let what = format!("file key `{}`", key.name);
    crate::check::special::special_values(key.range.as_ref(), &key.special, &key.loc, &what, d);
    if let (Some(def), Some(range)) = (key.default, &key.range) {
        let special = key.special.iter().any(|(v, _)| *v == def);
        if !special && (range.min.is_some_and(|m| def < m) || range.max.is_some_and(|m| def > m)) {
            d.error(
                key.loc.clone(),
                format!("default {def} of `{}` is outside its range", key.name),
            );
        }
    }
    Some(key)
}
