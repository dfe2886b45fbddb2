//! Checks across items: references, ranges, uniqueness. Each pushes and continues.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::model::{ConfigKind, Literal, OptionSpec, OptionType, Spec, Support, Test};
use crate::range::ReleaseRange;
use crate::read::did_you_mean;

pub(crate) fn check(spec: &mut Spec, d: &mut Diagnostics) {
    crate::check_behaviour::check(spec, d);
    uniqueness(spec, d);
    releases(spec, d);
    compute_paths(spec, d);
    for o in &spec.options {
        option(spec, o, d);
    }
    crate::history::check(spec, d);
    crate::introduced::check(spec, d);
    crate::history::apply(spec);
    rules(spec, d);
}

fn unique<'a>(
    d: &mut Diagnostics,
    what: &str,
    items: impl IntoIterator<Item = (&'a str, &'a Loc)>,
) {
    let mut seen: BTreeMap<&str, &Loc> = BTreeMap::new();
    for (key, loc) in items {
        if let Some(first) = seen.get(key) {
            d.error(loc.clone(), format!("duplicate {what} `{key}`"))
                .hint(format!("first defined at {first}"));
        } else {
            seen.insert(key, loc);
        }
    }
}

/// An alias names no other product's id and is listed once per product; one alias on
/// several products is allowed (a chip shared by two lines) and asks users to choose.
fn product_aliases(spec: &Spec, d: &mut Diagnostics) {
    let ids: BTreeMap<String, &str> = spec
        .products
        .iter()
        .map(|p| (crate::names::product_key(&p.id), p.id.as_str()))
        .collect();
    for p in &spec.products {
        let mut seen = BTreeSet::new();
        for a in &p.aliases {
            let key = crate::names::product_key(&a.name);
            if key.is_empty() {
                d.error(a.loc.clone(), "an alias needs letters or digits");
            } else if let Some(id) = ids.get(&key) {
                d.error(
                    a.loc.clone(),
                    format!(
                        "alias `{}` of `{}` reads as the product id `{id}`",
                        a.name, p.id
                    ),
                );
            } else if !seen.insert(key) {
                d.error(
                    a.loc.clone(),
                    format!("alias `{}` is listed twice for `{}`", a.name, p.id),
                );
            }
        }
    }
}

fn uniqueness(spec: &Spec, d: &mut Diagnostics) {
    product_aliases(spec, d);
    unique(
        d,
        "product id",
        spec.products.iter().map(|p| (p.id.as_str(), &p.loc)),
    );
    unique(
        d,
        "release id",
        spec.releases.iter().map(|r| (r.id.as_str(), &r.loc)),
    );
    unique(
        d,
        "config class",
        spec.configs.iter().map(|c| (c.name.as_str(), &c.loc)),
    );
    unique(
        d,
        "root key",
        spec.configs
            .iter()
            .filter_map(|c| c.root_key.as_deref().map(|k| (k, &c.loc))),
    );
    unique(
        d,
        "rule id",
        spec.rules.iter().map(|r| (r.id.as_str(), &r.loc)),
    );
    for c in &spec.configs {
        unique(
            d,
            &format!("option name in {}", c.name),
            spec.options_of(&c.name).map(|o| (o.name.as_str(), &o.loc)),
        );
    }
    unique(
        d,
        "ge key",
        spec.options
            .iter()
            .filter_map(|o| o.ge_key.as_deref().map(|k| (k, &o.loc))),
    );
    unique(
        d,
        "session parameter_map name",
        spec.options.iter().filter_map(|o| {
            o.surfaces
                .session
                .as_ref()
                .map(|(n, _)| (n.as_str(), &o.loc))
        }),
    );
    unique(
        d,
        "TF2 global_options path",
        spec.options
            .iter()
            .filter_map(|o| o.surfaces.tf2.as_deref().map(|k| (k, &o.loc))),
    );
    // Generated Rust names must not collide either: enums of options and class structs.
    let rust_names: Vec<(String, &Loc)> = spec
        .options
        .iter()
        .filter(|o| matches!(o.ty, OptionType::IntEnum | OptionType::StrEnum))
        .map(|o| (crate::names::enum_name(&o.name), &o.loc))
        .chain(
            spec.configs
                .iter()
                .map(|c| (crate::names::type_name(&c.name), &c.loc)),
        )
        .collect();
    unique(
        d,
        "generated Rust type name",
        rust_names.iter().map(|(n, l)| (n.as_str(), *l)),
    );
    for o in &spec.options {
        unique(
            d,
            &format!("value of `{}`", o.name),
            o.values.iter().map(|v| (v.name.as_str(), &v.loc)),
        );
    }
}

fn release_ids(spec: &Spec) -> Vec<&str> {
    spec.releases.iter().map(|r| r.id.as_str()).collect()
}

fn product_ids(spec: &Spec) -> Vec<&str> {
    spec.products.iter().map(|p| p.id.as_str()).collect()
}

fn releases(spec: &mut Spec, d: &mut Diagnostics) {
    let known = product_ids(spec);
    for r in &spec.releases {
        for p in &r.products {
            if !known.contains(&p.as_str()) {
                unknown(d, r.products_loc.clone(), "product", p, &known);
            }
        }
        unique(
            d,
            &format!("product of release {}", r.id),
            r.products.iter().map(|p| (p.as_str(), &r.products_loc)),
        );
    }
    // One order for every release's list, however it was written: products.yaml's.
    let order: Vec<String> = known.iter().map(|p| p.to_string()).collect();
    for r in &mut spec.releases {
        r.products
            .sort_by_key(|p| order.iter().position(|q| q == p).unwrap_or(usize::MAX));
    }
    let spec = &*spec;
    if spec.releases.is_empty() {
        d.error(Loc::default(), "the spec declares no releases");
    }
    unreleased_last(spec, d);
    for c in &spec.configs {
        range(spec, &c.available, d);
        support(spec, &c.products, d);
    }
}

/// Unreleased releases come after every released one, and at least one release is
/// released: the default target is the newest released release.
fn unreleased_last(spec: &Spec, d: &mut Diagnostics) {
    let mut pending: Option<&crate::model::Release> = None;
    for r in &spec.releases {
        match (r.unreleased, pending) {
            (true, None) => pending = Some(r),
            (false, Some(u)) => {
                d.error(
                    r.loc.clone(),
                    format!(
                        "release {} is released but follows the unreleased {}",
                        r.id, u.id
                    ),
                )
                .hint(format!(
                    "move {} above {}: unreleased releases come last",
                    r.id, u.id
                ));
            }
            _ => {}
        }
    }
    if !spec.releases.is_empty() && spec.newest_released().is_none() {
        d.error(
            spec.releases[0].loc.clone(),
            "every release is marked `unreleased`; the default target must be a released one",
        );
    }
}

fn unknown(d: &mut Diagnostics, loc: Loc, what: &str, id: &str, known: &[&str]) {
    let diag = d.error(loc, format!("unknown {what} id `{id}`"));
    diag.expected(format!("one of {}", crate::read::list(known)));
    if let Some(s) = did_you_mean(id, known.iter().copied()) {
        diag.hint(format!("did you mean `{s}`?"));
    }
}

/// Both ends name known releases, the first no later than the last.
fn range(spec: &Spec, r: &ReleaseRange, d: &mut Diagnostics) {
    let known = release_ids(spec);
    let mut idx = [None, None];
    for (i, end) in [&r.from, &r.last].into_iter().enumerate() {
        if let Some(id) = end {
            idx[i] = spec.release_index(id);
            if idx[i].is_none() {
                unknown(d, r.loc.clone(), "release", id, &known);
            }
        }
    }
    if let [Some(a), Some(b)] = idx {
        if a > b {
            d.error(r.loc.clone(), format!("release range `{r}` is empty"))
                .hint("`FROM..=LAST` runs from FROM through LAST; FROM must not come after LAST in releases.yaml");
        }
    }
}

fn support(spec: &Spec, list: &[Support], d: &mut Diagnostics) {
    let known = product_ids(spec);
    for s in list {
        if !known.contains(&s.product.as_str()) {
            unknown(d, s.loc.clone(), "product", &s.product, &known);
        }
        range(spec, &s.releases, d);
    }
}

/// Paths run from a root class's key through the options whose type is a nested class.
fn compute_paths(spec: &mut Spec, d: &mut Diagnostics) {
    let mut prefix: BTreeMap<String, String> = BTreeMap::new();
    for c in &spec.configs {
        if let Some(key) = &c.root_key {
            prefix.insert(c.name.clone(), key.clone());
        }
    }
    // Nesting is shallow; iterate until no new class is reached.
    let mut parent: BTreeMap<String, Loc> = BTreeMap::new();
    loop {
        let mut grew = false;
        for o in &spec.options {
            if let OptionType::Config(class) = &o.ty {
                if let Some(p) = prefix.get(&o.config).cloned() {
                    if !prefix.contains_key(class) {
                        prefix.insert(class.clone(), format!("{p}.{}", o.name));
                        parent.insert(class.clone(), o.loc.clone());
                        grew = true;
                    } else if parent.get(class).is_some_and(|l| *l != o.loc) {
                        d.error(
                            o.loc.clone(),
                            format!("class `{class}` is nested in two places"),
                        );
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    for c in &spec.configs {
        if !prefix.contains_key(&c.name) {
            d.error(
                c.loc.clone(),
                format!(
                    "class `{}` is not reachable from a user config file",
                    c.name
                ),
            )
            .hint("give it a `root_key`, or an option of `type: config` in a root class");
        }
        if c.kind == ConfigKind::Environment && c.root_key.is_none() {
            d.error(c.loc.clone(), "an environment class needs a `root_key`");
        }
    }
    for o in &mut spec.options {
        if let Some(p) = prefix.get(&o.config) {
            o.path = format!("{p}.{}", o.name);
        }
    }
}

pub(crate) fn literal_fits(ty: &OptionType, lit: &Literal) -> bool {
    matches!(
        (ty, lit),
        (OptionType::Bool, Literal::Bool(_))
            | (OptionType::Int | OptionType::IntEnum, Literal::Int(_))
            | (
                OptionType::StrEnum
                    | OptionType::Str
                    | OptionType::Path { .. }
                    | OptionType::CorePair,
                Literal::Str(_)
            )
    )
}

fn option(spec: &Spec, o: &OptionSpec, d: &mut Diagnostics) {
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
    if o.range.is_some() && o.ty != OptionType::Int {
        d.error(
            o.at(k::RANGE),
            format!("{what}: `range` applies only to `int` options"),
        );
    }
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

/// Products named in `by_product` exist, and each entry's default fits its range.
fn by_product(spec: &Spec, o: &OptionSpec, what: &str, d: &mut Diagnostics) {
    let known = product_ids(spec);
    for f in &o.by_product {
        for p in &f.products {
            if !known.contains(&p.as_str()) {
                unknown(d, f.loc.clone(), "product", p, &known);
            }
        }
        if f.range.is_some() && o.ty != OptionType::Int {
            d.error(
                f.loc.clone(),
                format!("{what}: `range` applies only to `int` options"),
            );
        }
        let mut on = o.clone();
        if let Some(r) = &f.range {
            on.range = Some(*r);
        }
        if let Some(def) = f.default.as_ref().or(o.default.as_ref()) {
            default(&on, def, f.loc.clone(), what, d);
        }
    }
}

/// A special value must lie outside the range (inside, it would be an ordinary value) and be
/// listed once.
pub(crate) fn special_values(
    range: Option<&crate::model::IntRange>,
    special: &[(i64, crate::model::Text)],
    loc: &Loc,
    what: &str,
    d: &mut Diagnostics,
) {
    let mut seen = BTreeSet::new();
    for (v, _) in special {
        if !seen.insert(*v) {
            d.error(
                loc.clone(),
                format!("special value {v} of {what} is listed twice"),
            );
        }
        if range.is_some_and(|r| r.min.is_none_or(|m| *v >= m) && r.max.is_none_or(|m| *v <= m)) {
            d.error(
                loc.clone(),
                format!("special value {v} of {what} lies inside its range"),
            )
            .hint("a special value is one the range excludes, such as -1 meaning `off`");
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

fn rules(spec: &Spec, d: &mut Diagnostics) {
    let paths: Vec<&str> = spec.options.iter().map(|o| o.path.as_str()).collect();
    for r in &spec.rules {
        range(spec, &r.available, d);
        for c in &r.when {
            let Some(o) = spec.option_by_path(&c.option) else {
                let diag = d.error(
                    c.loc.clone(),
                    format!("rule `{}` names unknown option `{}`", r.id, c.option),
                );
                if let Some(s) = did_you_mean(&c.option, paths.iter().copied()) {
                    diag.hint(format!("did you mean `{s}`?"));
                }
                continue;
            };
            let lits: Vec<&Literal> = match &c.test {
                Test::Equals(l) | Test::Not(l) => vec![l],
                Test::In(ls) => ls.iter().collect(),
                Test::Set | Test::Unset => vec![],
            };
            for lit in lits {
                if !literal_fits(&o.ty, lit) {
                    d.error(
                        c.loc.clone(),
                        format!(
                            "rule `{}`: {lit} does not fit the type {} of `{}`",
                            r.id,
                            o.ty.name(),
                            o.path
                        ),
                    );
                } else if !o.values.is_empty()
                    && o.ty != OptionType::Bool
                    && !o.values.iter().any(|v| v.value == *lit)
                {
                    d.error(
                        c.loc.clone(),
                        format!("rule `{}`: {lit} is not a value of `{}`", r.id, o.path),
                    )
                    .hint("conditions compare canonical values, not legacy aliases");
                }
            }
            if matches!(o.ty, OptionType::Config(_)) && !matches!(c.test, Test::Set | Test::Unset) {
                d.error(
                    c.loc.clone(),
                    format!(
                        "rule `{}`: a config class can only be tested with `set`/`unset`",
                        r.id
                    ),
                );
            }
        }
    }
}
