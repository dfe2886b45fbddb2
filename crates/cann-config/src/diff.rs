//! What changed between two releases: products, options, values, support, defaults,
//! ranges, graph-engine keys, deprecations and rules, each with before and after.

use cann_i18n::catalog::cli as msg;
use serde::Serialize;

use crate::history::{removal_summary, spelling};
use crate::meta::RuleMeta;
use crate::meta::{supports, Lang, OptionMeta, ValueMeta};
use crate::{Product, Release, OPTIONS, PRODUCTS, RULES};

/// One difference. `before`/`after` are `None` where the thing did not exist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// `product`, `option`, `introduced` (an option that may have come in between, its
    /// release unknown), `surface` (a retired spelling of a living option), `value`,
    /// `support`, `value-support`, `default`, `range`, `ge-key`, `deprecation` or `rule`.
    pub kind: &'static str,
    /// `added`, `removed` or `changed`.
    pub change: &'static str,
    /// The product id, option path or rule id the change is about.
    pub subject: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReleaseDiff {
    pub from: &'static str,
    pub to: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<&'static str>,
    pub changes: Vec<Change>,
}

fn verdict(before: bool, after: bool) -> Option<&'static str> {
    match (before, after) {
        (false, true) => Some("added"),
        (true, false) => Some("removed"),
        _ => None,
    }
}

fn yes(b: bool) -> Option<String> {
    Some(if b { "supported" } else { "not supported" }.to_string())
}

/// The heading of a kind of change, in `lang`: what `cannctl diff` and the release pages
/// show above the changes of that kind.
pub fn kind_title(kind: &str, lang: Lang) -> String {
    match kind {
        "product" => msg::diff_kind_product(lang),
        "option" => msg::diff_kind_option(lang),
        "introduced" => msg::diff_kind_introduced(lang),
        "surface" => msg::diff_kind_surface(lang),
        "support" => msg::diff_kind_support(lang),
        "value" => msg::diff_kind_value(lang),
        "value-support" => msg::diff_kind_value_support(lang),
        "default" => msg::diff_kind_default(lang),
        "range" => msg::diff_kind_range(lang),
        "ge-key" => msg::diff_kind_ge_key(lang),
        "deprecation" => msg::diff_kind_deprecation(lang),
        "rule" => msg::diff_kind_rule(lang),
        other => other.to_string(),
    }
}

/// The `before`/`after` of a `support` or `value-support` change, in `lang`.
pub fn support_text(s: &str, lang: Lang) -> String {
    match s {
        "supported" => msg::diff_supported(lang),
        "not supported" => msg::diff_not_supported(lang),
        other => other.to_string(),
    }
}

/// The options of the classes above `o`, nearest first: a field exists and may be used only
/// where every class holding it does (`cannctl check` reports an unsupported class once).
fn ancestors(o: &OptionMeta) -> impl Iterator<Item = &'static OptionMeta> + '_ {
    let mut path = o.path;
    std::iter::from_fn(move || loop {
        let (parent, _) = path.rsplit_once('.')?;
        path = parent;
        if let Some(p) = OPTIONS.iter().find(|x| x.path == parent) {
            return Some(p);
        }
    })
}

/// Whether the option, and every class above it, exists in `r`.
fn exists(o: &OptionMeta, r: Release) -> bool {
    o.available.contains(r) && ancestors(o).all(|a| a.available.contains(r))
}

/// Whether `p` may use the option in `r`: its own support and that of every class above it.
fn supported(o: &OptionMeta, p: Product, r: Release) -> bool {
    supports(o.products, p, r) && ancestors(o).all(|a| supports(a.products, p, r))
}

/// Whether `p` may use value `v` of `o` in `r`: the option may be used and the value's own
/// product list (where it has one) covers `p`.
fn value_supported(o: &OptionMeta, v: &ValueMeta, p: Product, r: Release) -> bool {
    supported(o, p, r) && v.products.is_none_or(|vp| supports(vp, p, r))
}

/// Whether the option exists in `r` (and, with a product, may be used on it).
fn present(o: &OptionMeta, r: Release, product: Option<Product>) -> bool {
    exists(o, r) && product.is_none_or(|p| supported(o, p, r))
}

/// Products both releases know: a product new to a release is reported once, as a product.
fn known_in_both(from: Release, to: Release) -> impl Iterator<Item = Product> {
    PRODUCTS
        .iter()
        .map(|p| p.product)
        .filter(move |p| from.meta().products.contains(p) && to.meta().products.contains(p))
}

/// Whether `rule` is checked in `r`: stated for the release and, with a product, about an
/// option that product may use there.
fn rule_in(rule: &RuleMeta, r: Release, product: Option<Product>) -> bool {
    rule.available.contains(r)
        && (product.is_none()
            || rule.options.iter().any(|path| {
                OPTIONS
                    .iter()
                    .any(|o| o.path == *path && present(o, r, product))
            }))
}

/// Differences between `from` and `to`, optionally as seen by one product.
pub fn diff(from: Release, to: Release, product: Option<Product>) -> ReleaseDiff {
    diff_in(from, to, product, Lang::En)
}

/// As [`diff`], with the details (product names, rule texts, removal notes) in `lang`.
pub fn diff_in(from: Release, to: Release, product: Option<Product>, lang: Lang) -> ReleaseDiff {
    let mut changes = Vec::new();
    for p in PRODUCTS
        .iter()
        .filter(|p| product.is_none_or(|q| q == p.product))
    {
        let (a, b) = (
            from.meta().products.contains(&p.product),
            to.meta().products.contains(&p.product),
        );
        if let Some(v) = verdict(a, b) {
            changes.push(Change {
                kind: "product",
                change: v,
                subject: p.id.to_string(),
                detail: Some(p.name.get(lang).to_string()),
                before: a.then(|| p.id.to_string()),
                after: b.then(|| p.id.to_string()),
            });
        }
    }
    for o in OPTIONS.iter() {
        let (a, b) = (present(o, from, product), present(o, to, product));
        if let Some(v) = verdict(a, b) {
            changes.push(Change {
                kind: "option",
                change: v,
                subject: o.path.to_string(),
                detail: o
                    .removal()
                    .filter(|r| r.gone_in(from) != r.gone_in(to))
                    .map(|r| removal_summary(r, lang)),
                before: a.then(|| o.ty.name().to_string()),
                after: b.then(|| o.ty.name().to_string()),
            });
            continue;
        }
        if !(a && b) {
            continue;
        }
        changes.extend(introduced(o, from, to, lang));
        option_changes(o, from, to, product, lang, &mut changes);
    }
    for r in RULES.iter() {
        let (a, b) = (rule_in(r, from, product), rule_in(r, to, product));
        if let Some(v) = verdict(a, b) {
            changes.push(Change {
                kind: "rule",
                change: v,
                subject: r.id.to_string(),
                detail: Some(r.message.get(lang).to_string()),
                before: a.then(|| r.severity.as_str().to_string()),
                after: b.then(|| r.severity.as_str().to_string()),
            });
        }
    }
    const ORDER: &[&str] = &[
        "product",
        "option",
        "introduced",
        "surface",
        "support",
        "value",
        "value-support",
        "default",
        "range",
        "ge-key",
        "deprecation",
        "rule",
    ];
    changes.sort_by_key(|c| {
        ORDER
            .iter()
            .position(|k| *k == c.kind)
            .unwrap_or(ORDER.len())
    });
    ReleaseDiff {
        from: from.id(),
        to: to.id(),
        product: product.map(|p| p.id()),
        changes,
    }
}

/// An option both releases may have whose first release is unknown and may lie between
/// them: "added between 7.0.0 and 9.0.0, release unknown", never a release of its own. The
/// older side is `unknown`.
fn introduced(o: &OptionMeta, from: Release, to: Release, lang: Lang) -> Option<Change> {
    let i = o.introduced?;
    if !i.uncertain_in(from.min(to)) {
        return None;
    }
    let known = || Some(o.ty.name().to_string());
    let unknown = || Some("unknown".to_string());
    let (change, before, after) = if from <= to {
        ("added", unknown(), known())
    } else {
        ("removed", known(), unknown())
    };
    Some(Change {
        kind: "introduced",
        change,
        subject: o.path.to_string(),
        detail: Some(msg::diff_added_between(
            lang,
            i.after,
            i.first_recorded.id(),
        )),
        before,
        after,
    })
}

fn option_changes(
    o: &'static OptionMeta,
    from: Release,
    to: Release,
    product: Option<Product>,
    lang: Lang,
    out: &mut Vec<Change>,
) {
    let subject = || o.path.to_string();
    if product.is_none() {
        for p in known_in_both(from, to) {
            let (x, y) = (supported(o, p, from), supported(o, p, to));
            if let Some(v) = verdict(x, y) {
                out.push(Change {
                    kind: "support",
                    change: v,
                    subject: subject(),
                    detail: Some(p.id().into()),
                    before: yes(x),
                    after: yes(y),
                });
            }
        }
    }
    for r in o.retired_surfaces() {
        let (x, y) = (!r.gone_in(from), !r.gone_in(to));
        if let Some(c) = verdict(x, y) {
            let spelled = spelling(o, r);
            out.push(Change {
                kind: "surface",
                change: c,
                subject: subject(),
                detail: Some(format!("{spelled}; {}", removal_summary(r, lang))),
                before: x.then(|| spelled.clone()),
                after: y.then_some(spelled),
            });
        }
    }
    for v in o.values {
        let at = |r: Release| {
            v.available.contains(r) && product.is_none_or(|p| value_supported(o, v, p, r))
        };
        let (x, y) = (at(from), at(to));
        if let Some(c) = verdict(x, y) {
            let gone = v
                .removed
                .filter(|r| r.gone_in(from) != r.gone_in(to))
                .map(|r| format!("; {}", removal_summary(&r, lang)))
                .unwrap_or_default();
            out.push(Change {
                kind: "value",
                change: c,
                subject: subject(),
                detail: Some(format!("{} ({}){gone}", v.value, v.name)),
                before: x.then(|| v.value.to_string()),
                after: y.then(|| v.value.to_string()),
            });
        } else if x && product.is_none() {
            value_support(o, v, from, to, out);
        }
    }
    let fact = |kind: &'static str, a: Option<String>, b: Option<String>, out: &mut Vec<Change>| {
        if a != b {
            out.push(Change {
                kind,
                change: "changed",
                subject: subject(),
                detail: None,
                before: a,
                after: b,
            });
        }
    };
    // Seen by one product, its own default and range (`by_product`) are what it gets.
    let default = |r: Release| match product {
        Some(p) => o.default_on(p, r),
        None => o.default_in(r),
    };
    let range = |r: Release| match product {
        Some(p) => o.range_on(p, r),
        None => o.range_in(r),
    };
    fact(
        "default",
        default(from).map(|d| d.to_string()),
        default(to).map(|d| d.to_string()),
        out,
    );
    fact(
        "range",
        range(from).map(|r| r.to_string()),
        range(to).map(|r| r.to_string()),
        out,
    );
    fact(
        "ge-key",
        o.ge_key_in(from).map(str::to_string),
        o.ge_key_in(to).map(str::to_string),
        out,
    );
    if let Some(d) = o.deprecated {
        let (x, y) = (from >= d.since, to >= d.since);
        if let Some(c) = verdict(x, y) {
            out.push(Change {
                kind: "deprecation",
                change: c,
                subject: subject(),
                detail: d.replacement.map(|r| format!("use {r}")),
                before: x.then(|| "deprecated".into()),
                after: y.then(|| "deprecated".into()),
            });
        }
    }
}

/// Products that gained or lost a value present in both releases, beyond what the option
/// itself gained or lost there (that is reported once, as `support`).
fn value_support(
    o: &'static OptionMeta,
    v: &'static ValueMeta,
    from: Release,
    to: Release,
    out: &mut Vec<Change>,
) {
    for p in known_in_both(from, to) {
        if supported(o, p, from) != supported(o, p, to) {
            continue;
        }
        let (x, y) = (value_supported(o, v, p, from), value_supported(o, v, p, to));
        if let Some(c) = verdict(x, y) {
            out.push(Change {
                kind: "value-support",
                change: c,
                subject: o.path.to_string(),
                detail: Some(format!("{}: {}", v.value, p.id())),
                before: yes(x),
                after: yes(y),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(d: &ReleaseDiff) -> Vec<(&'static str, String)> {
        d.changes
            .iter()
            .filter(|c| c.kind == "rule")
            .map(|c| (c.change, c.subject.clone()))
            .collect()
    }

    fn has(list: &[(&'static str, String)], change: &str, rule: &str) -> bool {
        list.iter().any(|(c, r)| *c == change && r == rule)
    }

    #[test]
    fn an_option_of_unknown_first_release_is_added_between_never_at_a_release() {
        let at = |id: &str| -> Release { id.parse().unwrap_or_else(|e| panic!("{e}")) };
        let uncertain: Vec<&OptionMeta> =
            OPTIONS.iter().filter(|o| o.introduced.is_some()).collect();
        assert!(!uncertain.is_empty(), "the spec has no such option to test");
        let o = uncertain[0];
        let i = o.introduced.unwrap_or_else(|| unreachable!());
        let first = i.first_recorded;
        let older = Release::ALL[0];
        assert!(older < first, "{}", o.path);
        let d = diff(older, first, None);
        let c = d
            .changes
            .iter()
            .find(|c| c.subject == o.path)
            .unwrap_or_else(|| panic!("{} not in {d:?}", o.path));
        assert_eq!((c.kind, c.change), ("introduced", "added"));
        let text = c.detail.as_deref().unwrap_or_default();
        assert_eq!(
            text,
            format!(
                "added between {} and {}, release unknown",
                i.after,
                first.id()
            )
        );
        // Not an option added at either end: it may exist in both.
        assert!(!d
            .changes
            .iter()
            .any(|c| c.kind == "option" && c.subject == o.path));
        // From its first record on nothing is unknown; back the other way it went.
        assert!(!diff(first, first, None)
            .changes
            .iter()
            .any(|c| c.subject == o.path));
        let back = diff(first, older, None);
        assert!(back
            .changes
            .iter()
            .any(|c| c.subject == o.path && c.kind == "introduced" && c.change == "removed"));
        let zh = diff_in(older, at(first.id()), None, Lang::Zh);
        let z = zh.changes.iter().find(|c| c.subject == o.path);
        assert!(z
            .and_then(|c| c.detail.as_deref())
            .is_some_and(|t| t.contains("具体版本不详")));
    }

    #[test]
    fn rules_stated_from_a_release_are_listed_as_added_or_removed() {
        let from: Release = "8.0.RC3".parse().unwrap_or_else(|e| panic!("{e}"));
        let to: Release = "8.0.0".parse().unwrap_or_else(|e| panic!("{e}"));
        let got = rules(&diff(from, to, None));
        assert!(
            has(&got, "added", "static-memory-policy-not-concurrent"),
            "{got:?}"
        );
        assert!(
            has(&got, "added", "expandable-memory-costs-speed"),
            "{got:?}"
        );
        assert!(
            has(&got, "removed", "static-memory-policy-not-concurrent-2"),
            "{got:?}"
        );
        // Back again: the same rules, the other way round.
        let back = rules(&diff(to, from, None));
        assert!(
            has(&back, "removed", "expandable-memory-costs-speed"),
            "{back:?}"
        );
        // A release compared with itself has no rule news.
        assert!(rules(&diff(to, to, None)).is_empty());
    }
}
