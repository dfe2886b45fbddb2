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
                // The adapter hands booleans to the graph engine as "1"/"0"
                // (hicann/tensorflow@82957b9:tf_adapter/util/npu_attrs.cc, e.g.
                // `std::to_string(static_cast<int32_t>(hcom_parallel))`).
                let text = match v {
                    ValueRef::Bool(b) => if b { "1" } else { "0" }.to_string(),
                    v => super::plain(v),
                };
                self.0.insert(key, text);
            }
        }
    }
    let mut ge = Ge(BTreeMap::new(), release);
    cfg.visit(&mut ge);
    ge.0
}
