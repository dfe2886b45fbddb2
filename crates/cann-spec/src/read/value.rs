//! One value of an enumerated option, with `behaviour:` (see [`crate::behaviour`]), and
//! `behaviours:` on the option.

use std::path::Path;

use super::{did_you_mean, list, read_literal, MapReader};
use crate::behaviour::{Behaviour, Family};
use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::model::{Literal, ValueSpec};
use crate::yaml::Node;

/// What an option's `behaviours:` says.
#[derive(Clone, Copy)]
pub(super) enum Declared {
    /// No `behaviours:`: its values must not name one.
    Nothing,
    /// A family the loader knows: its values must each name one of its behaviours.
    Family(Family),
    /// Already reported: its values are not checked against it.
    Unreadable,
}

impl Declared {
    pub fn family(self) -> Option<Family> {
        match self {
            Declared::Family(f) => Some(f),
            _ => None,
        }
    }
}

/// The family an option's `behaviours:` names, if any.
pub(super) fn read_family(r: &MapReader<'_>, what: &str, d: &mut Diagnostics) -> Declared {
    if r.get(k::BEHAVIOURS).is_none() {
        return Declared::Nothing;
    }
    let Some(word) = r.opt_string(k::BEHAVIOURS, d) else {
        return Declared::Unreadable;
    };
    let family = Family::from_name(&word);
    if family.is_none() {
        let known: Vec<&str> = Family::names().collect();
        let diag = d.error(
            r.get(k::BEHAVIOURS)
                .map_or_else(|| r.loc(), |n| Loc::new(r.file(), n.pos)),
            format!("{what} names the unknown behaviour family `{word}`"),
        );
        diag.expected(format!("one of {}", list(&known)));
        if let Some(s) = did_you_mean(&word, known.iter().copied()) {
            diag.hint(format!("did you mean `{s}`?"));
        }
    }
    family.map_or(Declared::Unreadable, Declared::Family)
}

pub(super) fn read_value(
    file: &Path,
    n: &Node,
    family: Declared,
    option: &str,
    d: &mut Diagnostics,
) -> Option<ValueSpec> {
    const KEYS: &[&str] = &[
        k::VALUE,
        k::NAME,
        k::BEHAVIOUR,
        k::ALIASES,
        k::AVAILABLE,
        k::PRODUCTS,
        k::WARNING,
        k::REMOVED,
        k::DOC,
    ];
    let r = MapReader::new(file, n, "a value", KEYS, d)?;
    let value = read_literal(file, r.required(k::VALUE, "a value", d)?, d)?;
    let aliases = r
        .seq(k::ALIASES, "a value", d)
        .iter()
        .filter_map(|a| read_literal(file, a, d))
        .collect();
    let products = r
        .get(k::PRODUCTS)
        .map(|_| super::support::read_support(&r, d));
    let removed = r
        .get(k::REMOVED)
        .and_then(|n| super::history::read_value_removal(file, n, &value, d));
    let shown = match &value {
        Literal::Str(s) => s.clone(),
        other => other.to_string(),
    };
    let behaviour = read_behaviour(&r, family, option, &shown, d);
    Some(ValueSpec {
        behaviour,
        name: r.string(k::NAME, "a value", d)?,
        value,
        aliases,
        available: r.range(k::AVAILABLE, d),
        products,
        warning: r.opt_text(k::WARNING, "a value", d),
        removed,
        doc: r.text(k::DOC, "a value", d)?,
        loc: r.loc(),
    })
}

/// A value's `behaviour:`: required when its option names a family, refused otherwise.
fn read_behaviour(
    r: &MapReader<'_>,
    family: Declared,
    option: &str,
    value: &str,
    d: &mut Diagnostics,
) -> Option<Behaviour> {
    let words = |f: Family| {
        let all: Vec<&str> = f.behaviours().map(Behaviour::name).collect();
        all
    };
    let family = match family {
        Declared::Family(f) => f,
        Declared::Unreadable => return None,
        Declared::Nothing => {
            if let Some(n) = r.get(k::BEHAVIOUR) {
                d.error(
                    Loc::new(r.file(), n.pos),
                    format!("value `{value}` of `{option}` has a `behaviour`, but the option names no behaviour family"),
                )
                .hint(format!(
                    "say which closed set the runtime implements for the option: `behaviours:` one of {}",
                    list(&Family::names().collect::<Vec<_>>())
                ));
            }
            return None;
        }
    };
    let Some(word) = r.opt_string(k::BEHAVIOUR, d) else {
        if r.get(k::BEHAVIOUR).is_none() {
            d.error(
                r.loc(),
                format!("value `{value}` of `{option}` does not say what the runtime does with it"),
            )
            .expected(format!(
                "`behaviour:` one of {} (the `{family}` family the runtime implements)",
                list(&words(family))
            ))
            .hint(
                "pick the behaviour the value has upstream; a value that needs a new behaviour needs the runtime to implement it first",
            );
        }
        return None;
    };
    let found = Behaviour::from_name(family, &word);
    if found.is_none() {
        let known = words(family);
        let at = r
            .get(k::BEHAVIOUR)
            .map_or_else(|| r.loc(), |n| Loc::new(r.file(), n.pos));
        let diag = d.error(
            at,
            format!("`{word}` is not a behaviour of the `{family}` family"),
        );
        diag.expected(format!("one of {}", list(&known)));
        if let Some(s) = did_you_mean(&word, known.iter().copied()) {
            diag.hint(format!("did you mean `{s}`?"));
        }
    }
    found
}
