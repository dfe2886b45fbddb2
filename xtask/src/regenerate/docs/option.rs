//! An option's page: what it is, what it does in each release, how to set it, the rules on
//! it and where the facts come from. A retired option's page leads with its retirement and
//! offers nothing to set.

use cann_config::meta::Lang;
use cann_i18n::catalog::config as cfg;
use cann_spec::{Gone, OptionSpec, OptionType, Removal};

use super::html::{bi, bi_p, escape, inline, Html};
use super::text::{msg, t, with};
use super::views::{releases_in, releases_text, SupportTable};
use super::{at_release, sources};
use crate::regenerate::by_release;
use crate::regenerate::facts::Facts;

pub struct ValueRow {
    pub value: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub doc: Html,
    pub restriction: Option<Html>,
    pub is_default: bool,
}

pub struct SnippetView {
    pub id: &'static str,
    pub title: Html,
    pub lang: &'static str,
    pub code: String,
}

/// A rule's example that fires, and the close one that does not, side by side.
pub struct ExamplePair {
    pub problem: Option<String>,
    pub fixed: Option<String>,
}

pub struct RuleView {
    pub id: String,
    pub severity: &'static str,
    pub when: Vec<String>,
    pub message: Html,
    pub hint: Option<Html>,
    pub pairs: Vec<ExamplePair>,
}

/// A whole option retired: said first on its page.
pub struct RetiredView {
    /// Whether some release still reads it (then the support table says which).
    pub read_somewhere: bool,
    /// "Removed", or "Never read" for an option no release of the adapter ever read.
    pub title: Html,
    pub lead: Html,
    pub detail: Html,
}

pub struct OptionView {
    pub name: String,
    pub path: String,
    pub class: String,
    pub doc: Html,
    pub retired: Option<RetiredView>,
    pub deprecated: Option<Html>,
    /// When its first release is not known: the interval and the builds looked at.
    pub introduced: Option<Html>,
    /// Retired spellings of an option that lives on.
    pub removed: Vec<Html>,
    pub ty: String,
    pub class_type: Option<String>,
    pub is_class: bool,
    /// Whether a value can be set at all (not for an option no release reads).
    pub settable: bool,
    pub default: Option<String>,
    pub range: Option<String>,
    pub ge_key: Option<String>,
    pub available: Html,
    pub values: Vec<ValueRow>,
    /// The facts by release, when they change; empty when every release has the same.
    pub history: Vec<by_release::Row>,
    pub at_release: Vec<at_release::AtRelease>,
    pub snippets: Vec<SnippetView>,
    /// Surfaces the option is not reachable from, said in words.
    pub missing: Vec<Html>,
    pub rules: Vec<RuleView>,
    pub table: Option<SupportTable>,
    /// Each source, and its address when it is a web page or an upstream file.
    pub sources: Vec<Html>,
}

/// The releases (one flag each) that read `o`.
pub fn read_in(f: &Facts<'_>, o: &OptionSpec) -> Vec<bool> {
    (0..f.spec.releases.len())
        .map(|ri| f.available(o, ri))
        .collect()
}

/// Where `o` is read, in words: "any release" only when it is read in every release, from
/// an open start (no unknown first release) to an open end (not retired).
pub fn available_text(f: &Facts<'_>, o: &OptionSpec) -> Html {
    let open_start = o.available.from.is_none() && o.introduced.is_none();
    let open_end = o.available.last.is_none() && o.removal().is_none();
    let mut read = read_in(f, o);
    // Of an option whose first release is not known, only the releases from the first
    // that records it are certain; the box above the facts says what may come before.
    if let Some(first) = o
        .introduced
        .as_ref()
        .and_then(|i| f.spec.release_index(&i.first_recorded))
    {
        read.iter_mut().take(first).for_each(|r| *r = false);
    }
    releases_text(f, &read, open_start, open_end)
}

impl OptionView {
    pub fn new(f: &Facts<'_>, o: &OptionSpec) -> Self {
        // The page leads with the newest release's facts; `history` shows the older ones.
        let newest = by_release::newest(o);
        let default = match &newest {
            Some(n) => n.default.map(|d| d.to_string()),
            None => o.default.as_ref().map(|d| d.to_string()),
        };
        let read = read_in(f, o);
        let retired = o
            .removal()
            .map(|r| retired_view(o, r, read.contains(&true)));
        let values = o
            .values
            .iter()
            .map(|v| {
                let mut r = Vec::new();
                if !v.available.is_all() {
                    let flags: Vec<bool> = (0..f.spec.releases.len())
                        .map(|ri| {
                            read[ri]
                                && v.available
                                    .contains_index(ri, |id| f.spec.release_index(id))
                        })
                        .collect();
                    let (from, last) = (v.available.from.is_none(), v.available.last.is_none());
                    r.push(
                        with(|l| msg::value_releases(l, &releases_in(f, l, &flags, from, last)))
                            .to_string(),
                    );
                }
                if let Some(ps) = &v.products {
                    let list = |l: Lang| {
                        let each = ps.iter().map(|s| {
                            let name = f.spec.products.iter().find(|p| p.id == s.product).map_or(
                                s.product.clone(),
                                |p| match l {
                                    Lang::En => p.name.en.clone(),
                                    Lang::Zh => p.name.zh.clone(),
                                },
                            );
                            let when = cann_config::meta::describe_range(
                                l,
                                s.releases.from.as_deref(),
                                s.releases.last.as_deref(),
                            );
                            format!("{name} ({when})")
                        });
                        l.join(each)
                    };
                    r.push(with(|l| msg::value_products(l, &list(l))).to_string());
                }
                ValueRow {
                    value: v.value.to_string(),
                    name: v.name.clone(),
                    aliases: v.aliases.iter().map(|a| a.to_string()).collect(),
                    doc: bi(&v.doc),
                    restriction: (!r.is_empty()).then(|| Html::trusted(r.join("; "))),
                    is_default: default.as_deref() == Some(v.value.to_string().as_str()),
                }
            })
            .collect();
        let env = o.config == "Environment" || o.surfaces.env.is_some();
        let mut missing = Vec::new();
        if retired.is_none() && !env && !matches!(o.ty, OptionType::Config(_)) {
            if o.surfaces.estimator.is_none() {
                missing.push(t(msg::not_estimator));
            }
            if o.surfaces.session.is_none() {
                missing.push(t(msg::not_session));
            }
            if o.surfaces.tf2.is_none() {
                missing.push(t(msg::not_tf2));
            }
        }
        let range = match &newest {
            Some(n) => by_release::range_text(n.range, o),
            None => o.range.and_then(|r| by_release::range_text(Some(r), o)),
        };
        let ge_key = match &newest {
            Some(n) => n.ge_key.map(str::to_string),
            None => o.ge_key.clone(),
        };
        let snippets = if retired.is_some() {
            Vec::new()
        } else {
            f.snippets(o)
                .into_iter()
                .map(|s| SnippetView {
                    id: s.id,
                    title: t(s.title),
                    lang: s.lang,
                    code: s.code,
                })
                .collect()
        };
        OptionView {
            name: o.name.clone(),
            path: o.path.clone(),
            class: o.config.clone(),
            doc: bi_p(&o.doc),
            deprecated: o.deprecated.as_ref().map(|d| {
                let since = match d.replacement.as_deref() {
                    // Replacements are option paths; pages are named by path.
                    Some(r) => format!(
                        "{} {}",
                        with(|l| msg::deprecated_use(l, &d.since)),
                        option_link(r)
                    ),
                    None => with(|l| msg::deprecated_since(l, &d.since)).to_string(),
                };
                Html::trusted(format!("{since} {}", bi(&d.note)))
            }),
            introduced: o.introduced.as_ref().map(introduced_html),
            removed: o
                .removed
                .iter()
                .filter(|r| !r.is_whole())
                .map(spelling_html)
                .collect(),
            ty: o.ty.describe(),
            class_type: match &o.ty {
                OptionType::Config(c) => Some(c.clone()),
                _ => None,
            },
            is_class: matches!(o.ty, OptionType::Config(_)),
            settable: read.contains(&true),
            default,
            range: range.filter(|_| read.contains(&true)),
            ge_key,
            history: by_release::rows(o),
            at_release: if read.contains(&true) {
                at_release::views(f, o)
            } else {
                Vec::new()
            },
            available: available_text(f, o),
            values,
            snippets,
            missing,
            rules: f
                .rules_for(o)
                .into_iter()
                .map(|r| RuleView {
                    id: r.id.clone(),
                    severity: r.severity.as_str(),
                    when: r.when.iter().map(|c| c.to_string()).collect(),
                    message: bi(&r.message),
                    hint: r.hint.as_ref().map(bi),
                    pairs: pairs(&r.examples.fires, &r.examples.quiet),
                })
                .collect(),
            table: match &retired {
                Some(r) if !r.read_somewhere => None,
                _ => Some(SupportTable::new(f, "../", |p, ri| f.supported(o, p, ri))),
            },
            retired,
            sources: o.source.iter().map(|s| sources::html(s)).collect(),
        }
    }
}

fn option_link(path: &str) -> String {
    format!(
        "<a href=\"{}.html\"><code>{}</code></a>",
        escape(path),
        escape(path)
    )
}

/// `<code>path</code>` in rendered text made a link to its page.
fn linked(html: String, path: &str) -> String {
    html.replacen(
        &format!("<code>{}</code>", escape(path)),
        &option_link(path),
        1,
    )
}

/// The retirement of a whole option: when, what replaces it, and what the adapter does.
fn retired_view(o: &OptionSpec, r: &Removal, read_somewhere: bool) -> RetiredView {
    let lead = match (&r.gone, read_somewhere) {
        (Gone::Never, _) => t(msg::never_read_lead),
        (_, true) => t(msg::removed_lead),
        (_, false) => t(msg::removed_lead_none),
    };
    let what = format!("`{}`", o.name);
    let gone = |l: Lang| r.gone.sentence(&what, l);
    let instead = |l: Lang| {
        let note = cann_i18n::Text { en: "", zh: "" };
        match &r.replacement {
            Some(rep) if r.values.is_empty() => cfg::use_instead(l, rep, note),
            Some(rep) => {
                let map: Vec<String> = r
                    .values
                    .iter()
                    .map(|m| format!("{} → {}", m.from, m.to))
                    .collect();
                cfg::use_mapped_instead(l, rep, &map.join(", "), note)
            }
            None => String::new(),
        }
    };
    let one = |l: Lang| {
        let stop = match l {
            Lang::En => ". ",
            Lang::Zh => "。",
        };
        let mut s = inline(&gone(l));
        if r.empty_ignored.is_some() {
            s = inline(&cfg::empty_setting_ignored(l, &gone(l)));
        }
        s.push_str(stop);
        let i = instead(l);
        if !i.is_empty() {
            let mut i = inline(i.trim_end());
            if let Some(rep) = &r.replacement {
                i = linked(i, rep);
            }
            s.push_str(&capitalized(&i));
        }
        s.trim_end().to_string()
    };
    let sources: Vec<String> = r.source.iter().map(|s| source_html(s)).collect();
    let detail = Html::trusted(format!(
        "<span class=\"en\" lang=\"en\">{}</span><span class=\"zh\" lang=\"zh\">{}</span> <strong>{}</strong> {}{}",
        one(Lang::En),
        one(Lang::Zh),
        t(msg::adapter_does),
        bi(&r.note),
        if sources.is_empty() {
            String::new()
        } else {
            format!(" {} {}", t(msg::sources_label), sources.join("; "))
        }
    ));
    RetiredView {
        read_somewhere,
        title: match r.gone {
            Gone::Never => t(msg::never_read_title),
            _ => t(msg::removed_title),
        },
        lead,
        detail,
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|first| first.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// An unknown first release in both languages, with the builds or pages that bound it.
fn introduced_html(i: &cann_spec::Introduced) -> Html {
    use cann_config::history::introduced_text;
    let sources: Vec<String> = i.source.iter().map(|s| source_html(s)).collect();
    Html::trusted(format!(
        "{}. {} {}",
        with(|l| introduced_text(&i.after, &i.first_recorded, l)),
        t(msg::sources_label),
        sources.join("; ")
    ))
}

/// A source as inline markup: one rendering, `sources::html`.
fn source_html(s: &str) -> String {
    sources::html(s).to_string()
}

/// A retired spelling of an option that lives on: which spelling, when, and what instead.
fn spelling_html(r: &Removal) -> Html {
    let what = r.what("");
    let gone = with(|l| r.gone.sentence(&what, l));
    let mut s = gone.to_string();
    if let Some(rep) = &r.replacement {
        s.push_str(&format!(" {} {}", t(msg::use_word), option_link(rep)));
        if !r.values.is_empty() {
            let map: Vec<String> = r
                .values
                .iter()
                .map(|m| format!("{} → {}", m.from, m.to))
                .collect();
            s.push_str(&format!(" (<code>{}</code>)", escape(&map.join(", "))));
        }
        s.push('.');
    }
    Html::trusted(format!("{s} {}", bi(&r.note)))
}

/// The examples a rule fires on beside the close ones it is quiet on, as problem and fix.
fn pairs(fires: &[cann_spec::Example], quiet: &[cann_spec::Example]) -> Vec<ExamplePair> {
    let text = |e: &cann_spec::Example| format!("{}\n", e.config.trim_end());
    (0..fires.len().max(quiet.len()))
        .map(|i| ExamplePair {
            problem: fires.get(i).map(text),
            fixed: quiet.get(i).map(text),
        })
        .collect()
}
