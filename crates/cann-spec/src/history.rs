//! Checks of what options became across releases (`deprecated:`, `removed:`), and the
//! availability a removal implies. One function per rule; each pushes and continues.
//!
//! A removal of the whole option (or value) ends its `available` range where it went (after
//! `last`, or at `before`), so every reader of availability (validation, `diff`, docs) sees
//! the end without a second copy of it. "Never read" leaves it available in no release.

use std::collections::BTreeMap;

use crate::diag::{Diagnostics, Loc};
use crate::model::{
    Gone, Literal, OptionSpec, OptionType, Removal, Spec, Surfaces, ValueMapping, ValueSpec,
};
use crate::range::ReleaseRange;

pub(crate) fn check(spec: &Spec, d: &mut Diagnostics) {
    for o in &spec.options {
        let what = format!("option `{}`", o.name);
        shape(o, &what, d);
        for r in &o.removed {
            last_release(spec, r, &what, d);
            replacement(spec, o, r, &what, d);
            retired_surfaces(o, r, &what, d);
        }
        if let Some(r) = o.removal() {
            ends_once(spec, o, r, &what, d);
        }
        deprecation(spec, o, &what, d);
        for v in &o.values {
            if let Some(r) = &v.removed {
                let what = format!("value {} of {what}", v.value);
                last_release(spec, r, &what, d);
                value_replacement(spec, o, v, r, &what, d);
                if v.available.last.is_some() {
                    d.error(
                        r.loc.clone(),
                        format!("{what} has both an end to `available` and `removed`"),
                    )
                    .hint("write the end once, in `removed`");
                }
            }
        }
    }
    retired_spellings_unique(spec, d);
}

/// Ends the availability of removed options and values (after the checks above).
pub(crate) fn apply(spec: &mut Spec) {
    let ends: Vec<Option<ReleaseRange>> = spec
        .options
        .iter()
        .map(|o| o.removal().and_then(|r| end_of(spec, &o.available, r)))
        .collect();
    let value_ends: Vec<Vec<Option<ReleaseRange>>> = spec
        .options
        .iter()
        .map(|o| {
            o.values
                .iter()
                .map(|v| {
                    v.removed
                        .as_ref()
                        .and_then(|r| end_of(spec, &v.available, r))
                })
                .collect()
        })
        .collect();
    for ((o, end), vends) in spec.options.iter_mut().zip(ends).zip(value_ends) {
        if let Some(end) = end {
            o.available = end;
        }
        for (v, end) in o.values.iter_mut().zip(vends) {
            if let Some(end) = end {
                v.available = end;
            }
        }
    }
}

/// The range `available` becomes once `r` applies; `None` when it cannot be computed
/// (the checks have said why).
fn end_of(spec: &Spec, available: &ReleaseRange, r: &Removal) -> Option<ReleaseRange> {
    let first = spec.releases.first()?.id.clone();
    let newest = spec.releases.last()?.id.clone();
    // Ranges include both ends, so "in no release" is a range whose start lies after its
    // end: no release falls in it.
    let nowhere = ReleaseRange {
        from: Some(newest),
        last: Some(first.clone()),
        loc: available.loc.clone(),
    };
    let last = match &r.gone {
        Gone::Never => return Some(nowhere),
        Gone::After(last) => last.clone(),
        Gone::Before(b) if *b == first => return Some(nowhere),
        Gone::Before(b) => {
            let i = spec.release_index(b)?;
            spec.releases.get(i.checked_sub(1)?)?.id.clone()
        }
    };
    Some(ReleaseRange {
        from: available.from.clone(),
        last: Some(last),
        loc: available.loc.clone(),
    })
}

/// At most one whole-option removal, listed after the surfaces that went first.
fn shape(o: &OptionSpec, what: &str, d: &mut Diagnostics) {
    let wholes: Vec<&Removal> = o.removed.iter().filter(|r| r.is_whole()).collect();
    if let Some(second) = wholes.get(1) {
        d.error(
            second.loc.clone(),
            format!("{what} is removed as a whole twice"),
        )
        .hint("an option is retired once; list earlier retired spellings with their surface");
    }
    if let (Some(whole), Some(last)) = (wholes.first(), o.removed.last()) {
        if !last.is_whole() {
            d.error(
                whole.loc.clone(),
                format!("the removal of the whole {what} must come last"),
            )
            .hint("list removals oldest first");
        }
    }
}

fn last_release(spec: &Spec, r: &Removal, what: &str, d: &mut Diagnostics) {
    let Some(last) = r.gone.release() else { return };
    if spec.release_index(last).is_none() {
        let known: Vec<&str> = spec.releases.iter().map(|r| r.id.as_str()).collect();
        let diag = d.error(r.loc.clone(), format!("unknown release id `{last}`"));
        diag.expected(format!("one of {}", crate::read::list(&known)));
        if let Some(s) = crate::read::did_you_mean(last, known.iter().copied()) {
            diag.hint(format!("did you mean `{s}`?"));
        }
    } else if matches!(r.gone, Gone::After(_)) && spec.release_after(last).is_none() {
        d.error(
            r.loc.clone(),
            format!("{what} is removed after {last}, the newest release the spec knows"),
        )
        .hint(
            "a removal is written once a release without it is added; until then use `deprecated`",
        );
    }
}

/// A whole removal is the one end of `available`, and does not precede its start.
fn ends_once(spec: &Spec, o: &OptionSpec, r: &Removal, what: &str, d: &mut Diagnostics) {
    if o.available.last.is_some() {
        d.error(
            r.loc.clone(),
            format!("{what} has both an end to `available` and `removed`"),
        )
        .hint("write the end once, in `removed`");
    }
    if let (Some(last), Some(from)) = (r.gone.release(), &o.available.from) {
        if let (Some(l), Some(f)) = (spec.release_index(last), spec.release_index(from)) {
            let early = match r.gone {
                Gone::After(_) => l < f,
                _ => l <= f,
            };
            if early {
                d.error(
                    r.loc.clone(),
                    format!("{what} is removed at {last}, before it became available in {from}"),
                );
            }
        }
    }
}

/// The first release that no longer reads it, where the spec models one.
fn first_without<'a>(spec: &'a Spec, gone: &'a Gone) -> Option<&'a str> {
    match gone {
        Gone::After(l) => spec.release_after(l),
        Gone::Before(b) => Some(b),
        Gone::Never => None,
    }
}

/// The replacement is another option, there when this one is gone, and the value mapping
/// fits both.
fn replacement(spec: &Spec, o: &OptionSpec, r: &Removal, what: &str, d: &mut Diagnostics) {
    let Some(path) = &r.replacement else {
        if !r.values.is_empty() {
            d.error(
                r.loc.clone(),
                format!("{what}: a removal maps values but names no `replacement`"),
            );
        }
        return;
    };
    let Some(rep) = replacement_option(spec, o, path, &r.loc, what, d) else {
        return;
    };
    if let Some(after) = first_without(spec, &r.gone) {
        let at = spec.release_index(after);
        let lookup = |id: &str| spec.release_index(id);
        if at.is_some_and(|i| !rep.available.contains_index(i, lookup)) {
            d.error(
                r.loc.clone(),
                format!("replacement `{path}` of {what} is not available in {after}, the first release without it"),
            );
        }
    }
    mappings(o, rep, &r.values, what, d);
}

fn replacement_option<'a>(
    spec: &'a Spec,
    o: &OptionSpec,
    path: &str,
    loc: &Loc,
    what: &str,
    d: &mut Diagnostics,
) -> Option<&'a OptionSpec> {
    match spec.option_by_path(path) {
        None => {
            let paths = spec.options.iter().map(|o| o.path.as_str());
            let diag = d.error(
                loc.clone(),
                format!("replacement `{path}` of {what} is not an option path"),
            );
            if let Some(s) = crate::read::did_you_mean(path, paths) {
                diag.hint(format!("did you mean `{s}`?"));
            }
            None
        }
        Some(rep) if rep.path == o.path => {
            d.error(
                loc.clone(),
                format!("{what} names itself as its replacement"),
            );
            None
        }
        Some(rep) => Some(rep),
    }
}

/// Each `from` is a value of the old option and each `to` a value of the replacement.
fn mappings(
    old: &OptionSpec,
    new: &OptionSpec,
    values: &[ValueMapping],
    what: &str,
    d: &mut Diagnostics,
) {
    for m in values {
        if !is_value_of(old, &m.from) {
            d.error(
                m.loc.clone(),
                format!("{} is not a value of {what}", m.from),
            );
        }
        if !is_value_of(new, &m.to) {
            d.error(
                m.loc.clone(),
                format!("{} is not a value of the replacement `{}`", m.to, new.path),
            );
        }
    }
}

/// Whether `lit` is a value `o` takes: of its type, and one of its listed values if it is
/// an enum.
fn is_value_of(o: &OptionSpec, lit: &Literal) -> bool {
    let fits = crate::fits::literal_fits(&o.ty, lit);
    let listed = !matches!(o.ty, OptionType::IntEnum | OptionType::StrEnum)
        || o.values
            .iter()
            .any(|v| v.value == *lit || v.aliases.contains(lit));
    fits && listed
}

/// A removed value's replacement is another value of the same option, still taken then.
fn value_replacement(
    spec: &Spec,
    o: &OptionSpec,
    v: &ValueSpec,
    r: &Removal,
    what: &str,
    d: &mut Diagnostics,
) {
    for m in &r.values {
        let Some(to) = o.values.iter().find(|x| x.value == m.to) else {
            d.error(
                m.loc.clone(),
                format!(
                    "replacement {} of {what} is not a value of `{}`",
                    m.to, o.name
                ),
            );
            continue;
        };
        if to.value == v.value {
            d.error(
                m.loc.clone(),
                format!("{what} names itself as its replacement"),
            );
        }
        let after = first_without(spec, &r.gone);
        if let Some(i) = after.and_then(|a| spec.release_index(a)) {
            if !to.available.contains_index(i, |id| spec.release_index(id))
                || to.removed.as_ref().is_some_and(|x| x.gone == r.gone)
            {
                d.error(
                    m.loc.clone(),
                    format!(
                        "replacement {} of {what} is not available when it is gone",
                        m.to
                    ),
                );
            }
        }
    }
}

/// Retired spellings are not also live ones of the same option.
fn retired_surfaces(o: &OptionSpec, r: &Removal, what: &str, d: &mut Diagnostics) {
    let Surfaces {
        estimator,
        session,
        tf2,
        env,
        ..
    } = &r.surfaces;
    let live = &o.surfaces;
    let clash = (estimator.is_some() && *estimator == live.estimator)
        || (session.is_some()
            && session.as_ref().map(|s| &s.0) == live.session.as_ref().map(|s| &s.0))
        || (tf2.is_some() && *tf2 == live.tf2)
        || (env.is_some() && *env == live.env);
    if clash {
        d.error(
            r.loc.clone(),
            format!("{what} lists a spelling as both removed and live"),
        )
        .hint("a removal that names a surface retires only that spelling; drop it from the option's own keys, or remove the whole option");
    }
}

/// The deprecation's release, replacement and value mapping are real, and it comes no later
/// than the removal.
fn deprecation(spec: &Spec, o: &OptionSpec, what: &str, d: &mut Diagnostics) {
    let Some(dep) = &o.deprecated else { return };
    if let Some(rep) = dep
        .replacement
        .as_deref()
        .and_then(|p| spec.option_by_path(p))
    {
        mappings(o, rep, &dep.values, what, d);
    } else if dep.replacement.is_none() && !dep.values.is_empty() {
        d.error(
            o.loc.clone(),
            format!("{what}: a deprecation maps values but names no `replacement`"),
        );
    }
    let since = spec.release_index(&dep.since);
    let last = o.removal().and_then(|r| match &r.gone {
        Gone::After(l) => spec.release_index(l),
        _ => None,
    });
    if let (Some(s), Some(l)) = (since, last) {
        if s > l {
            d.error(
                o.loc.clone(),
                format!(
                    "{what} is deprecated since {} but removed after an earlier release",
                    dep.since
                ),
            );
        }
    }
}

/// A retired session key, TF2 path or environment variable names one thing; a retired
/// keyword is not also a live keyword of the same class.
fn retired_spellings_unique(spec: &Spec, d: &mut Diagnostics) {
    type Key = (&'static str, String);
    let mut live: BTreeMap<Key, &OptionSpec> = BTreeMap::new();
    for o in &spec.options {
        for key in keys(&o.config, &o.surfaces) {
            live.entry(key).or_insert(o);
        }
    }
    let mut retired: BTreeMap<Key, &Loc> = BTreeMap::new();
    for o in &spec.options {
        for r in o.removed.iter().filter(|r| !r.is_whole()) {
            for key in keys(&o.config, &r.surfaces) {
                let elsewhere = match live.get(&key) {
                    // Live on the option itself: `retired_surfaces` says so.
                    Some(owner) if owner.path == o.path => continue,
                    Some(owner) => Some(&owner.loc),
                    None => None,
                };
                let first = elsewhere.or_else(|| retired.get(&key).copied());
                if let Some(first) = first {
                    d.error(
                        r.loc.clone(),
                        format!("retired {} `{}` is already spelled elsewhere", key.0, key.1),
                    )
                    .hint(format!("first at {first}"));
                } else {
                    retired.insert(key, &r.loc);
                }
            }
        }
    }
}

fn keys(class: &str, s: &Surfaces) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if let Some(e) = &s.estimator {
        out.push(("keyword", format!("{class}({e}=...)")));
    }
    if let Some((n, _)) = &s.session {
        out.push(("session parameter_map name", n.clone()));
    }
    if let Some(t) = &s.tf2 {
        out.push(("TF2 global_options path", t.clone()));
    }
    if let Some(e) = &s.env {
        out.push(("environment variable", e.clone()));
    }
    out
}
