//! Option paths, from a root class's key through the nested classes.

use std::collections::BTreeMap;

use crate::diag::{Diagnostics, Loc};
use crate::model::{ConfigKind, OptionType, Spec};

/// Paths run from a root class's key through the options whose type is a nested class.
pub(super) fn compute_paths(spec: &mut Spec, d: &mut Diagnostics) {
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
