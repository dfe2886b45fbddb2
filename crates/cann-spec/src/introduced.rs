//! `introduced:` of an option whose first release is not known, and CANN release ids in
//! order (its `after` may name a release the spec does not model, e.g. 7.0.0).
//!
//! The fact narrows nothing: `available` stays the outer bound (the option may exist from
//! its start), and `first_recorded` is where it is known to exist. The checks keep the two
//! consistent, so that every reader can say "added after X, by Y" and nothing stronger.

use crate::diag::Diagnostics;
use crate::model::{Introduced, OptionSpec, Spec};

/// A CANN release id as a sortable key: `7.0.RC1` before `7.0.0` before `8.0.RC2`.
/// `None` for anything that is not `MAJOR.MINOR.PATCH` or `MAJOR.MINOR.RCn`.
pub fn release_order(id: &str) -> Option<(u32, u32, u32, u32)> {
    let mut parts = id.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let third = parts.next()?;
    if parts.next().is_some() {
        return None;
    }
    // A release candidate sorts before the release of the same major.minor.
    match third.strip_prefix("RC") {
        Some(n) => Some((major, minor, 0, n.parse().ok()?)),
        None => Some((major, minor, 1, third.parse().ok()?)),
    }
}

pub(crate) fn check(spec: &Spec, d: &mut Diagnostics) {
    for o in &spec.options {
        if let Some(i) = &o.introduced {
            one(spec, o, i, d);
        }
    }
}

fn one(spec: &Spec, o: &OptionSpec, i: &Introduced, d: &mut Diagnostics) {
    let what = format!("`introduced` of option `{}`", o.name);
    let Some(first) = spec.release_index(&i.first_recorded) else {
        let known: Vec<&str> = spec.releases.iter().map(|r| r.id.as_str()).collect();
        let diag = d.error(
            i.loc.clone(),
            format!("{what}: unknown release id `{}`", i.first_recorded),
        );
        diag.expected(format!("one of {}", crate::read::list(&known)));
        if let Some(s) = crate::read::did_you_mean(&i.first_recorded, known.iter().copied()) {
            diag.hint(format!("did you mean `{s}`?"));
        }
        return;
    };
    let (Some(after), Some(first_key)) =
        (release_order(&i.after), release_order(&i.first_recorded))
    else {
        d.error(
            i.loc.clone(),
            format!("{what}: `{}` is not a CANN release id", i.after),
        )
        .hint("write it as CANN does, e.g. `7.0.0` or `8.0.RC2`");
        return;
    };
    if after >= first_key {
        d.error(
            i.loc.clone(),
            format!(
                "{what}: `after` ({}) must be older than `first_recorded` ({})",
                i.after, i.first_recorded
            ),
        );
        return;
    }
    let lookup = |id: &str| spec.release_index(id);
    if !o.available.contains_index(first, lookup) {
        d.error(
            i.loc.clone(),
            format!(
                "{what}: the option is not available in {}, its first recorded release",
                i.first_recorded
            ),
        )
        .hint("`available` is the outer bound and must include `first_recorded`");
        return;
    }
    // A modelled release the option may exist in, yet known to lack it, is a false claim
    // of `available`; one older than `after` cannot hold it either.
    let from = o.available.from.as_deref().and_then(lookup).unwrap_or(0);
    let lacking = spec
        .releases
        .get(from..first)
        .unwrap_or_default()
        .iter()
        .find(|r| release_order(&r.id).is_some_and(|k| k <= after));
    if let Some(r) = lacking {
        d.error(
            i.loc.clone(),
            format!(
                "{what}: `available` includes {}, but `after` says {} lacks it",
                r.id, i.after
            ),
        )
        .hint(format!(
            "start `available` after {}, or drop `introduced` if the release is known",
            i.after
        ));
        return;
    }
    if from == first {
        d.error(
            i.loc.clone(),
            format!(
                "{what}: `available` already starts at {}, so nothing is unknown",
                i.first_recorded
            ),
        )
        .hint("drop `introduced`");
    }
}

#[cfg(test)]
mod tests {
    use super::release_order;

    #[test]
    fn release_ids_sort_as_cann_releases() {
        let mut ids = [
            "8.0.0", "7.0.RC1", "9.0.0", "8.0.RC2", "7.0.0", "6.3.RC2", "8.0.RC3",
        ];
        ids.sort_by_key(|id| release_order(id));
        assert_eq!(
            ids,
            ["6.3.RC2", "7.0.RC1", "7.0.0", "8.0.RC2", "8.0.RC3", "8.0.0", "9.0.0"]
        );
        for bad in ["9", "9.0", "9.0.0.1", "9.0.RCx", "v9.0.0", ""] {
            assert_eq!(release_order(bad), None, "{bad}");
        }
    }
}
