//! Checks across items: references, ranges, uniqueness. Each pushes and continues.
//!
//! One module per concern; `check` runs them in the order their results are needed (paths
//! before options, history before the rules that read it).

mod behaviour;
mod option;
mod paths;
mod refs;
mod releases;
mod rules;
pub(crate) mod special;
mod uniqueness;

use crate::diag::Diagnostics;
use crate::model::Spec;

pub(crate) fn check(spec: &mut Spec, d: &mut Diagnostics) {
    behaviour::check(spec, d);
    uniqueness::uniqueness(spec, d);
    releases::releases(spec, d);
    paths::compute_paths(spec, d);
    for o in &spec.options {
        option::option(spec, o, d);
    }
    crate::history::check(spec, d);
    crate::introduced::check(spec, d);
    crate::history::apply(spec);
    rules::rules(spec, d);
}
