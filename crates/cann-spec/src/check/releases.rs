//! The releases: the products each knows, and their order.

use crate::diag::{Diagnostics, Loc};
use crate::model::Spec;

use super::refs::{product_ids, range, support, unknown};
use super::uniqueness::unique;

pub(super) fn releases(spec: &mut Spec, d: &mut Diagnostics) {
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
