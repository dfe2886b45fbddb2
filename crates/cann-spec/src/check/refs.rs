//! References to products and releases: each names a known id, and a release range runs
//! forwards.

use crate::diag::{Diagnostics, Loc};
use crate::model::{Spec, Support};
use crate::range::ReleaseRange;
use crate::read::did_you_mean;

pub(super) fn release_ids(spec: &Spec) -> Vec<&str> {
    spec.releases.iter().map(|r| r.id.as_str()).collect()
}

pub(super) fn product_ids(spec: &Spec) -> Vec<&str> {
    spec.products.iter().map(|p| p.id.as_str()).collect()
}

pub(super) fn unknown(d: &mut Diagnostics, loc: Loc, what: &str, id: &str, known: &[&str]) {
    let diag = d.error(loc, format!("unknown {what} id `{id}`"));
    diag.expected(format!("one of {}", crate::read::list(known)));
    if let Some(s) = did_you_mean(id, known.iter().copied()) {
        diag.hint(format!("did you mean `{s}`?"));
    }
}

/// Both ends name known releases, the first no later than the last.
pub(super) fn range(spec: &Spec, r: &ReleaseRange, d: &mut Diagnostics) {
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

pub(super) fn support(spec: &Spec, list: &[Support], d: &mut Diagnostics) {
    let known = product_ids(spec);
    for s in list {
        if !known.contains(&s.product.as_str()) {
            unknown(d, s.loc.clone(), "product", &s.product, &known);
        }
        range(spec, &s.releases, d);
    }
}
