//! A release page: exactly what `cann_config::diff` (and so `cannctl diff PREV R`) reports
//! against the release before, one item per change, so the page and the command cannot
//! disagree. Details come from the diff in each language.

use cann_config::diff::{kind_title, support_text, Change};
use cann_config::meta::Lang;
use cann_spec::OptionSpec;

use super::html::{bi, bi_p, bi_str, escape, Html};
use super::text::{msg, t, with};
use crate::regenerate::facts::{Facts, ReleaseChanges};

pub struct ChangeSection {
    pub title: Html,
    pub items: Vec<ChangeItem>,
}

/// One change of the diff, rendered.
pub struct ChangeItem {
    /// `kind|change|subject|detail` as `cannctl diff --format json` reports the change (the
    /// detail in English): what a test or a reader's tool matches the page against.
    pub key: String,
    pub html: Html,
}

pub struct ReleaseView {
    pub id: String,
    /// "unreleased" after the name of a release not out yet.
    pub badge: Html,
    pub note: Option<Html>,
    pub prev: Option<String>,
    pub next: Option<String>,
    pub products: Vec<Html>,
    pub option_count: usize,
    /// "Changes since PREV", when there is a release before.
    pub changes_title: Option<Html>,
    pub changes: Vec<ChangeSection>,
}

fn option_link(f: &Facts<'_>, path: &str) -> Html {
    match f.spec.option_by_path(path) {
        Some(o) => Html::trusted(format!(
            "<a href=\"../options/{}.html\"><code>{}</code></a>",
            escape(path),
            escape(&o.name)
        )),
        None => Html::trusted(format!("<code>{}</code>", escape(path))),
    }
}

fn product_link(f: &Facts<'_>, id: &str) -> Html {
    Html::trusted(match f.spec.products.iter().find(|p| p.id == id) {
        Some(p) => format!(
            "<a href=\"../products.html#{}\">{}</a>",
            escape(id),
            bi(&p.name)
        ),
        None => escape(id),
    })
}

impl ReleaseView {
    pub fn new(f: &Facts<'_>, ri: usize) -> Self {
        let spec = f.spec;
        let r = &spec.releases[ri];
        let ch = f.changes(ri);
        let added = |id: &str| {
            ch.as_ref().is_some_and(|c| {
                c.en.changes
                    .iter()
                    .any(|x| x.kind == "product" && x.change == "added" && x.subject == id)
            })
        };
        ReleaseView {
            id: r.id.clone(),
            badge: super::views::release_badge(f, &r.id),
            note: r.note.as_ref().map(bi_p),
            prev: ri.checked_sub(1).map(|p| spec.releases[p].id.clone()),
            next: spec.releases.get(ri + 1).map(|n| n.id.clone()),
            products: r
                .products
                .iter()
                .map(|id| {
                    let name = product_link(f, id);
                    if added(id) {
                        Html::trusted(format!(
                            "{name} <span class=\"badge new\">{}</span>",
                            t(msg::badge_new)
                        ))
                    } else {
                        name
                    }
                })
                .collect(),
            option_count: spec.options.iter().filter(|o| f.available(o, ri)).count(),
            changes_title: ri
                .checked_sub(1)
                .map(|p| with(|l| msg::changes_since(l, &spec.releases[p].id))),
            changes: ch.map(|c| sections(f, &c, ri)).unwrap_or_default(),
        }
    }
}

/// The diff's changes in its order, one section per kind.
fn sections(f: &Facts<'_>, ch: &ReleaseChanges, ri: usize) -> Vec<ChangeSection> {
    let mut out: Vec<ChangeSection> = Vec::new();
    let mut kind = "";
    for (en, zh) in ch.en.changes.iter().zip(&ch.zh.changes) {
        if en.kind != kind || out.is_empty() {
            kind = en.kind;
            out.push(ChangeSection {
                title: bi_str(
                    &capitalized(&kind_title(kind, Lang::En)),
                    &kind_title(kind, Lang::Zh),
                ),
                items: Vec::new(),
            });
        }
        if let Some(s) = out.last_mut() {
            s.items.push(ChangeItem {
                key: key(en),
                html: item(f, ri, en, zh),
            });
        }
    }
    out
}

pub fn key(c: &Change) -> String {
    format!(
        "{}|{}|{}|{}",
        c.kind,
        c.change,
        c.subject,
        c.detail.as_deref().unwrap_or_default()
    )
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn item(f: &Facts<'_>, ri: usize, en: &Change, zh: &Change) -> Html {
    let (badge, sign) = match en.change {
        // Its first release is not known: it may have come here, or at another release of
        // the interval; the detail names the interval.
        _ if en.kind == "introduced" => ("", t(msg::change_maybe_here)),
        "added" => (" new", t(msg::change_added)),
        "removed" => ("", t(msg::change_removed)),
        _ => ("", t(msg::change_changed)),
    };
    let subject = match en.kind {
        "product" => product_link(f, &en.subject),
        "rule" => Html::trusted(format!("<code>{}</code>", escape(&en.subject))),
        _ => option_link(f, &en.subject),
    };
    let detail = match (en.kind, en.detail.as_deref(), zh.detail.as_deref()) {
        ("support", Some(p), _) => format!(": {}", product_link(f, p)),
        // The product's name is the subject's link; what a new product brings is news.
        ("product", _, _) if en.change == "added" => new_product(f, &en.subject, ri),
        ("product", _, _) => String::new(),
        (_, Some(e), Some(z)) => format!(": {}", bi_str(e, z)),
        _ => String::new(),
    };
    let word = |s: &str, lang| match en.kind {
        "support" | "value-support" => support_text(s, lang),
        _ => s.to_string(),
    };
    let side = |s: &Option<String>| match s {
        Some(s) => bi_str(
            &format!("`{}`", word(s, Lang::En)),
            &format!("`{}`", word(s, Lang::Zh)),
        ),
        None => super::views::unset(),
    };
    let before_after = if en.change == "changed" || en.kind.ends_with("support") {
        format!(" ({} → {})", side(&en.before), side(&en.after))
    } else {
        String::new()
    };
    Html::trusted(format!(
        "<span class=\"badge{badge}\">{sign}</span> {subject}{detail}{before_after}"
    ))
}

/// How many options a product new to release `ri` may use, and which it may not.
fn new_product(f: &Facts<'_>, product: &str, ri: usize) -> String {
    let (yes, no): (Vec<&OptionSpec>, Vec<&OptionSpec>) = f
        .spec
        .options
        .iter()
        .filter(|o| f.available(o, ri))
        .partition(|o| f.supported(o, product, ri));
    let missing: Vec<String> = no
        .iter()
        .map(|o| option_link(f, &o.path).to_string())
        .collect();
    format!(
        ": {}{}",
        with(|l| msg::new_product_supported(l, yes.len())),
        if missing.is_empty() {
            String::new()
        } else {
            format!(
                "; {} {}",
                t(msg::new_product_unsupported),
                missing.join(", ")
            )
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `data-change` keys of a rendered release page, in page order.
    fn listed(page: &str) -> Vec<String> {
        page.split("data-change=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .map(|k| {
                k.replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&#x27;", "'")
                    .replace("&amp;", "&")
            })
            .collect()
    }

    /// For each consecutive pair of releases, the release page lists exactly the changes
    /// `cannctl diff PREV R` reports, in its order: no more, no fewer.
    #[test]
    fn each_release_page_lists_exactly_the_diff() {
        let Ok(spec) = cann_config::model() else {
            panic!("the bundled spec does not load");
        };
        let pages = match super::super::generate(spec, "{}") {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        for pair in cann_config::Release::ALL.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let path = format!("docs/releases/{}.html", b.id());
            let Some(page) = pages.iter().find(|o| o.path == path) else {
                panic!("{path} was not generated");
            };
            let want: Vec<String> = cann_config::diff::diff(a, b, None)
                .changes
                .iter()
                .map(key)
                .collect();
            assert_eq!(listed(&page.text), want, "{path} against diff {a} {b}");
        }
    }

    /// The support changes the release pages list are the changes of the option pages'
    /// support tables (which follow `check`, classes included): one per option and product
    /// both releases know whose cell flips.
    #[test]
    fn support_changes_follow_the_support_tables() {
        let Ok(spec) = cann_config::model() else {
            panic!("the bundled spec does not load");
        };
        let f = Facts::new(spec);
        for ri in 1..spec.releases.len() {
            let Some(ch) = f.changes(ri) else {
                panic!("no changes for {}", spec.releases[ri].id)
            };
            let mut want = Vec::new();
            for o in spec.options.iter() {
                if !(f.available(o, ri - 1) && f.available(o, ri)) {
                    continue;
                }
                for p in &spec.products {
                    if !(f.release_knows(ri - 1, &p.id) && f.release_knows(ri, &p.id)) {
                        continue;
                    }
                    let (x, y) = (f.supported(o, &p.id, ri - 1), f.supported(o, &p.id, ri));
                    if x != y {
                        want.push(format!("{}|{}", o.path, p.id));
                    }
                }
            }
            let mut got: Vec<String> = ch
                .en
                .changes
                .iter()
                .filter(|c| c.kind == "support")
                .map(|c| format!("{}|{}", c.subject, c.detail.as_deref().unwrap_or_default()))
                .collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "support changes in {}", spec.releases[ri].id);
        }
    }
}
