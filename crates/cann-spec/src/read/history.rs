//! `deprecated:` and `removed:`: what an option became over the releases.

use std::path::Path;

use super::{read_literal, MapReader};
use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::model::{
    Deprecation, Gone, Introduced, Literal, Removal, Sources, Surfaces, ValueMapping,
};
use crate::yaml::{Kind, Node};

pub(crate) fn read_deprecation(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<Deprecation> {
    const KEYS: &[&str] = &[k::SINCE, k::REPLACEMENT, k::VALUES, k::NOTE, k::SOURCE];
    let what = "`deprecated`";
    let r = MapReader::new(file, n, what, KEYS, d)?;
    Some(Deprecation {
        since: r.string(k::SINCE, what, d)?,
        replacement: r.opt_string(k::REPLACEMENT, d),
        values: mappings(&r, what, d),
        note: r.text(k::NOTE, what, d)?,
        source: r.sources(d),
    })
}

/// `introduced: { after, first_recorded, source }`: the first release is not known. Without
/// a source the claim is not taken.
pub(crate) fn read_introduced(file: &Path, n: &Node, d: &mut Diagnostics) -> Option<Introduced> {
    const KEYS: &[&str] = &[k::AFTER, k::FIRST_RECORDED, k::SOURCE];
    let what = "`introduced`";
    let r = MapReader::new(file, n, what, KEYS, d)?;
    let after = r.string(k::AFTER, what, d);
    let first_recorded = r.string(k::FIRST_RECORDED, what, d);
    let source = r.sources(d);
    if source.is_empty() {
        d.error(
            r.loc(),
            format!("{what} needs a `source`: the builds or pages that lack and have the option"),
        );
        return None;
    }
    Some(Introduced {
        after: after?,
        first_recorded: first_recorded?,
        source,
        loc: r.loc(),
    })
}

/// `removed:` of an option: one entry, or a list when surfaces went at different releases.
pub(crate) fn read_option_removals(file: &Path, n: &Node, d: &mut Diagnostics) -> Vec<Removal> {
    const KEYS: &[&str] = &[
        k::LAST,
        k::BEFORE,
        k::NEVER_READ,
        k::ESTIMATOR,
        k::SESSION,
        k::TF2,
        k::ENV,
        k::REPLACEMENT,
        k::VALUES,
        k::EMPTY_IGNORED,
        k::NOTE,
        k::SOURCE,
    ];
    let entries: Vec<&Node> = match &n.kind {
        Kind::Seq(items) => items.iter().collect(),
        _ => vec![n],
    };
    entries
        .into_iter()
        .filter_map(|e| {
            let what = "`removed`";
            let r = MapReader::new(file, e, what, KEYS, d)?;
            let gone = gone(&r, d)?;
            Some(Removal {
                gone,
                surfaces: super::surfaces::read_surfaces(&r, d),
                replacement: r.opt_string(k::REPLACEMENT, d),
                values: mappings(&r, what, d),
                empty_ignored: empty_ignored(file, &r, d),
                note: r.text(k::NOTE, what, d)?,
                source: r.sources(d),
                loc: r.loc(),
            })
        })
        .collect()
}

/// `removed:` of a value; its `replacement` is the value to use instead.
pub(crate) fn read_value_removal(
    file: &Path,
    n: &Node,
    value: &Literal,
    d: &mut Diagnostics,
) -> Option<Removal> {
    const KEYS: &[&str] = &[
        k::LAST,
        k::BEFORE,
        k::NEVER_READ,
        k::REPLACEMENT,
        k::NOTE,
        k::SOURCE,
    ];
    let what = "`removed` of a value";
    let r = MapReader::new(file, n, what, KEYS, d)?;
    let gone = gone(&r, d)?;
    let values = r
        .get(k::REPLACEMENT)
        .and_then(|v| read_literal(file, v, d))
        .map(|to| ValueMapping {
            from: value.clone(),
            to,
            loc: r.loc(),
        })
        .into_iter()
        .collect();
    Some(Removal {
        gone,
        surfaces: Surfaces::default(),
        replacement: None,
        values,
        empty_ignored: None,
        note: r.text(k::NOTE, what, d)?,
        source: r.sources(d),
        loc: r.loc(),
    })
}

/// `empty_ignored: { source: [...] }`: an empty value still does no harm, as those sources
/// show. Without a source the claim is not taken.
fn empty_ignored(file: &Path, r: &MapReader<'_>, d: &mut Diagnostics) -> Option<Sources> {
    let n = r.get(k::EMPTY_IGNORED)?;
    let what = "`empty_ignored` of a removal";
    let sources = MapReader::new(file, n, what, &[k::SOURCE], d)?.sources(d);
    if sources.is_empty() {
        d.error(
            Loc::new(file, n.pos),
            format!("{what} needs a `source` showing that upstream accepts an empty value"),
        );
        return None;
    }
    Some(sources)
}

/// `last: "X"`, `before: "X"` or `never_read: true`: exactly one.
fn gone(r: &MapReader<'_>, d: &mut Diagnostics) -> Option<Gone> {
    let never = r.get(k::NEVER_READ).map(|n| match n.kind {
        Kind::Bool(true) => true,
        ref other => {
            d.error(
                Loc::new(r.file(), n.pos),
                format!(
                    "`{}` can only be `true`, found {}",
                    k::NEVER_READ,
                    other.describe()
                ),
            )
            .hint("leave it out and give `last` or `before` when some release read it");
            false
        }
    });
    let mut found = Vec::new();
    if let Some(l) = r.opt_string(k::LAST, d) {
        found.push((k::LAST, Gone::After(l)));
    }
    if let Some(b) = r.opt_string(k::BEFORE, d) {
        found.push((k::BEFORE, Gone::Before(b)));
    }
    match never {
        Some(true) => found.push((k::NEVER_READ, Gone::Never)),
        Some(false) => return None,
        None => {}
    }
    match found.len() {
        1 => found.pop().map(|(_, g)| g),
        0 => {
            d.error(
                r.loc(),
                format!(
                    "a removal needs `{}` (the last release that supports it), `{}` (a release \
                     that no longer does, when the last one is not known) or `{}: true`",
                    k::LAST,
                    k::BEFORE,
                    k::NEVER_READ
                ),
            );
            None
        }
        _ => {
            let keys: Vec<String> = found.iter().map(|(k, _)| format!("`{k}`")).collect();
            d.error(
                r.loc(),
                format!("a removal has more than one of {}", keys.join(", ")),
            )
            .hint("`last` names the last release that supports it, `before` one that does not, `never_read` says no release read it");
            None
        }
    }
}

/// `values: [{ from: old, to: new }, ...]`
fn mappings(r: &MapReader<'_>, what: &str, d: &mut Diagnostics) -> Vec<ValueMapping> {
    r.seq(k::VALUES, what, d)
        .iter()
        .filter_map(|n| {
            let what = "a value mapping";
            let m = MapReader::new(r.file(), n, what, &[k::FROM, k::TO], d)?;
            let from = read_literal(r.file(), m.required(k::FROM, what, d)?, d)?;
            let to = read_literal(r.file(), m.required(k::TO, what, d)?, d)?;
            Some(ValueMapping {
                from,
                to,
                loc: m.loc(),
            })
        })
        .collect()
}
