//! The `ge.*` option map the graph engine consumes.

use std::collections::BTreeMap;

use crate::meta::OptionMeta;
use crate::{Config, Release, ValueRef, Visit, Visitor};

/// Graph-engine keys to their string values, sorted by key, as of the newest release.
pub fn ge_options(cfg: &Config) -> BTreeMap<&'static str, String> {
    ge_options_for(cfg, Release::LATEST)
}

/// Graph-engine keys to their string values as `release` names them.
pub fn ge_options_for(cfg: &Config, release: Release) -> BTreeMap<&'static str, String> {
    struct Ge(BTreeMap<&'static str, String>, Release);
    impl Visitor for Ge {
        fn value(&mut self, o: &'static OptionMeta, v: ValueRef<'_>) {
            if let Some(key) = o.ge_key_in(self.1) {
                // The adapter sends booleans as lower-case "true"/"false".
                self.0.insert(key, super::plain(v));
            }
        }
    }
    let mut ge = Ge(BTreeMap::new(), release);
    cfg.visit(&mut ge);
    ge.0
}
