//! One option: its class, type, values, range, default, products and deprecation.

use std::collections::BTreeSet;

use crate::diag::{Diagnostics, Loc};
use crate::fits::literal_fits;
use crate::keys as k;
use crate::model::{ConfigKind, Literal, OptionSpec, OptionType, Spec};

use super::refs::{product_ids, range, release_ids, support, unknown};
use super::special::special_values;

pub(super) fn option(spec: &Spec, o: &OptionSpec, d: &mut Diagnostics) {
    let what = format!("option `{}`", o.name);
    range(spec, &o.available, d);
    support(spec, &o.products, d);
    if let Some(class) = spec.config(&o.config) {
        if class.kind == ConfigKind::Environment && o.surfaces.env.is_none() {
            d.error(
                o.loc.clone(),
                format!("{what} is an environment variable but has no `env` name"),
            );
        }
    }
    match &o.ty {
        OptionType::Config(class) if spec.config(class).is_none() => {
            let known: Vec<&str> = spec.configs.iter().map(|c| c.name.as_str()).collect();
            unknown(d, o.at(k::TYPE), "config class", class, &known);
        }
        // `values_of` problems are reported where it is read.
        OptionType::IntEnum | OptionType::StrEnum
            if o.values.is_empty() && o.values_of.is_none() =>
        {
            d.error(
                o.at(k::TYPE),
                format!("{what} is an enum but lists no `values`"),
            );
        }
        OptionType::Path { chars } if chars.is_empty() => {
            d.error(
                o.at(k::TYPE),
                format!("{what} is a path but lists no allowed `chars`"),
            );
        }
        _ => {}
    }
    let enumerated = matches!(
        o.ty,
        OptionType::IntEnum | OptionType::StrEnum | OptionType::Bool
    );
    if !o.values.is_empty() && !enumerated {
        d.error(
            o.at(k::VALUES),
            format!("{what} of type {} cannot list `values`", o.ty.name()),
        );
    }
    numeric_range(o, o.range.as_ref(), o.at(k::RANGE), &what, d);
    special_values(o.range.as_ref(), &o.special, &o.at(k::SPECIAL), &what, d);
    if !o.special.is_empty() && o.ty != OptionType::Int {
        d.error(
            o.at(k::SPECIAL),
            format!("{what}: `special` applies only to `int` options"),
        );
    }
    let mut spellings = BTreeSet::new();
    for v in &o.values {
        range(spec, &v.available, d);
        if let Some(p) = &v.products {
            support(spec, p, d);
        }
        for lit in std::iter::once(&v.value).chain(&v.aliases) {
            if !literal_fits(&o.ty, lit) {
                d.error(
                    v.loc.clone(),
                    format!(
                        "value {lit} does not fit the type {} of {what}",
                        o.ty.name()
                    ),
                );
            }
            if !spellings.insert(lit.to_string()) {
                d.error(
                    v.loc.clone(),
                    format!("value {lit} of {what} is listed twice"),
                );
            }
        }
        if !crate::names::is_identifier(&crate::names::variant_name(&v.name)) {
            d.error(
                v.loc.clone(),
                format!("value name `{}` does not make an identifier", v.name),
            )
            .hint("use letters, digits and dashes, starting with a letter");
        }
    }
    if let Some(def) = &o.default {
        default(o, def, o.at(k::DEFAULT), &what, d);
    }
    by_product(spec, o, &what, d);
    let mut last = None;
    for c in &o.changes {
        let idx = spec.release_index(&c.release);
        match idx {
            None => {
                let known = release_ids(spec);
                unknown(d, c.loc.clone(), "release", &c.release, &known);
            }
            Some(i) if last.is_some_and(|l| i <= l) => {
                d.error(
                    c.loc.clone(),
                    format!("changes of {what} must be listed oldest release first"),
                );
            }
            Some(_) => {}
        }
        last = idx.or(last);
        // A changed fact is checked as if it were the option's own.
        let mut as_of = o.clone();
        numeric_range(o, c.range.as_ref(), c.loc.clone(), &what, d);
        if let Some(r) = &c.range {
            as_of.range = Some(*r);
        }
        if let Some(def) = c.default.as_ref().or(o.default.as_ref()) {
            default(&as_of, def, c.loc.clone(), &what, d);
        }
    }
    if let Some(dep) = &o.deprecated {
        if spec.release_index(&dep.since).is_none() {
            let known = release_ids(spec);
            unknown(d, o.at(k::DEPRECATED), "release", &dep.since, &known);
        }
        if let Some(rep) = &dep.replacement {
            if spec.option_by_path(rep).is_none() {
                d.error(
                    o.at(k::DEPRECATED),
                    format!("replacement `{rep}` of {what} is not an option path"),
                );
            }
        }
    }
}

/// A range on `o` (its own, a change's or a product's): only numbers have one, and only a
/// float's may leave its lower bound out (for an integer, `above: n` is `min: n + 1`).
fn numeric_range(
    o: &OptionSpec,
    r: Option<&crate::model::IntRange>,
    loc: Loc,
    what: &str,
    d: &mut Diagnostics,
) {
    let Some(r) = r else { return };
    if !matches!(o.ty, OptionType::Int | OptionType::Float) {
        d.error(
            loc,
            format!("{what}: `range` applies only to `int` and `float` options"),
        );
    } else if r.min_exclusive && o.ty == OptionType::Int {
        let hint = r.min.map_or(String::new(), |m| {
            format!("write `min: {}`", m.saturating_add(1))
        });
        d.error(
            loc,
            format!("{what}: `above` applies only to `float` options"),
        )
        .hint(hint);
    }
}

/// Products named in `by_product` exist, and each entry's default fits its range.
fn by_product(spec: &Spec, o: &OptionSpec, what: &str, d: &mut Diagnostics) {
    let known = product_ids(spec);
    for f in &o.by_product {
        for p in &f.products {
            if !known.contains(&p.as_str()) {
                unknown(d, f.loc.clone(), "product", p, &known);
            }
        }
        numeric_range(o, f.range.as_ref(), f.loc.clone(), what, d);
        let mut on = o.clone();
        if let Some(r) = &f.range {
            on.range = Some(*r);
        }
        if let Some(def) = f.default.as_ref().or(o.default.as_ref()) {
            default(&on, def, f.loc.clone(), what, d);
        }
    }
}

fn default(o: &OptionSpec, def: &Literal, loc: Loc, what: &str, d: &mut Diagnostics) {
    if !literal_fits(&o.ty, def) {
        d.error(
            loc.clone(),
            format!(
                "default {def} of {what} does not fit its type {}",
                o.ty.name()
            ),
        );
        return;
    }
    if matches!(o.ty, OptionType::IntEnum | OptionType::StrEnum)
        && !o.values.iter().any(|v| v.value == *def)
    {
        let allowed: Vec<String> = o.values.iter().map(|v| v.value.to_string()).collect();
        d.error(
            loc.clone(),
            format!("default {def} of {what} is not one of its values"),
        )
        .expected(allowed.join(", "));
    }
    if let (Some(r), Literal::Float(v)) = (&o.range, def) {
        if !r.contains_real(v.get()) {
            d.error(
                loc.clone(),
                format!("default {v} of {what} is outside its range"),
            )
            .expected(format!("a value {r}"));
        }
    }
    if let (Some(r), Literal::Int(v)) = (&o.range, def) {
        let special = o.special.iter().any(|(s, _)| s == v);
        if !special && (r.min.is_some_and(|m| *v < m) || r.max.is_some_and(|m| *v > m)) {
            let lo = r.min.map_or("-inf".to_string(), |m| m.to_string());
            let hi = r.max.map_or("inf".to_string(), |m| m.to_string());
            d.error(
                loc.clone(),
                format!("default {v} of {what} is outside its range"),
            )
            .expected(format!("a value in [{lo}, {hi}]"));
        }
    }
}
