//! The `ge.*` option map the graph engine consumes.

use std::collections::BTreeMap;

use crate::meta::OptionMeta;
use crate::{Config, ValueRef, Visit, Visitor};

/// Graph-engine keys to their string values, sorted by key.
pub fn ge_options(cfg: &Config) -> BTreeMap<&'static str, String> {
    struct Ge(BTreeMap<&'static str, String>);
    impl Visitor for Ge {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            if let Some(key) = o.ge_key {
                // The adapter sends booleans as lower-case "true"/"false".
                self.0.insert(key, super::plain(v));
            }
        }
    }
    let mut ge = Ge(BTreeMap::new());
    cfg.visit(&mut ge);
    ge.0
}
