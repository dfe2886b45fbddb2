//! Names that must be unique: ids, keys, surfaces, generated Rust names, product aliases.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Diagnostics, Loc};
use crate::model::{OptionType, Spec};

pub(super) fn unique<'a>(
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

pub(super) fn uniqueness(spec: &Spec, d: &mut Diagnostics) {
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
