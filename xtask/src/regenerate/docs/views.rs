//! What each page shows, computed from the spec; the templates only lay it out.

use cann_spec::{ConfigClass, OptionSpec, OptionType, Product, ReleaseRange};
use serde_json::json;

use super::html::{bi, bi_p, bi_str, escape, Html};
use crate::regenerate::by_release;
use crate::regenerate::facts::Facts;

/// One cell of a product × release table. "Not in this release" (the release does not know
/// the product) is not "not supported" (it knows it, and the thing does not work there):
/// the vendor pages mark the latter ☓, and so do we.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Yes,
    No,
    Absent,
}

impl Cell {
    pub fn class(&self) -> &'static str {
        match self {
            Cell::Yes => "yes",
            Cell::No => "no",
            Cell::Absent => "absent",
        }
    }

    pub fn mark(&self) -> &'static str {
        match self {
            Cell::Yes => "✓",
            Cell::No => "☓",
            Cell::Absent => "—",
        }
    }

    /// The tooltip, in both languages (an attribute cannot follow the language switch).
    pub fn title(&self) -> &'static str {
        match self {
            Cell::Yes => "supported / 支持",
            Cell::No => "not supported / 不支持",
            Cell::Absent => "product not in this release / 该版本不含此产品",
        }
    }
}

pub struct SupportRow {
    pub id: String,
    pub name: Html,
    pub cells: Vec<Cell>,
}

pub struct SupportTable {
    pub root: &'static str,
    pub releases: Vec<String>,
    pub rows: Vec<SupportRow>,
    /// Whether any cell is ☓, so the legend names only marks the table uses.
    pub has_no: bool,
}

impl SupportTable {
    /// `ok(product, release)` says whether the thing works there; a release that does not
    /// know the product shows "not in this release" whatever `ok` says.
    pub fn new(f: &Facts<'_>, root: &'static str, ok: impl Fn(&str, usize) -> bool) -> Self {
        let cell = |p: &str, ri: usize| {
            if !f.release_knows(ri, p) {
                Cell::Absent
            } else if ok(p, ri) {
                Cell::Yes
            } else {
                Cell::No
            }
        };
        let rows: Vec<SupportRow> = f
            .spec
            .products
            .iter()
            .map(|p| SupportRow {
                id: p.id.clone(),
                name: bi(&p.name),
                cells: (0..f.spec.releases.len())
                    .map(|ri| cell(&p.id, ri))
                    .collect(),
            })
            .collect();
        SupportTable {
            has_no: rows.iter().any(|r| r.cells.contains(&Cell::No)),
            rows,
            root,
            releases: f.spec.releases.iter().map(|r| r.id.clone()).collect(),
        }
    }
}

/// Release ranges in words, as every other output says them.
fn range_text(r: &ReleaseRange) -> Html {
    let (from, last) = (r.from.as_deref(), r.last.as_deref());
    bi_str(
        &cann_config::meta::describe_range(cann_config::meta::Lang::En, from, last),
        &cann_config::meta::describe_range(cann_config::meta::Lang::Zh, from, last),
    )
}

pub struct OptionRow {
    pub name: String,
    pub path: String,
    pub ty: String,
    pub default: String,
    pub doc: Html,
    pub deprecated: bool,
    pub removed: bool,
}

pub struct OptionGroup {
    pub class: String,
    pub root: &'static str,
    pub options: Vec<OptionRow>,
}

impl OptionGroup {
    pub fn new(f: &Facts<'_>, c: &ConfigClass, root: &'static str) -> Self {
        OptionGroup {
            class: c.name.clone(),
            root,
            options: f
                .spec
                .options_of(&c.name)
                .map(|o| OptionRow {
                    name: o.name.clone(),
                    path: o.path.clone(),
                    ty: o.ty.name().into(),
                    default: o.default.as_ref().map_or(String::new(), |d| d.to_string()),
                    doc: bi(&o.doc),
                    deprecated: o.deprecated.is_some(),
                    removed: o.removal().is_some(),
                })
                .collect(),
        }
    }
}

pub struct ClassRow {
    pub name: String,
    pub count: usize,
    pub doc: Html,
}

impl ClassRow {
    pub fn new(f: &Facts<'_>, c: &ConfigClass) -> Self {
        ClassRow {
            name: c.name.clone(),
            count: f.spec.options_of(&c.name).count(),
            doc: bi(&c.doc),
        }
    }
}

pub struct ValueRow {
    pub value: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub doc: Html,
    pub restriction: Option<String>,
    pub is_default: bool,
}

pub struct SnippetView {
    pub id: &'static str,
    pub title_en: &'static str,
    pub title_zh: &'static str,
    pub lang: &'static str,
    pub code: String,
}

pub struct RuleView {
    pub id: String,
    pub severity: &'static str,
    pub when: Vec<String>,
    pub message: Html,
    pub hint: Option<Html>,
    /// The spec's examples: config files it fires on, and close ones it stays quiet on.
    pub fires: Vec<String>,
    pub quiet: Vec<String>,
}

pub struct OptionView {
    pub name: String,
    pub path: String,
    pub class: String,
    pub doc: Html,
    pub deprecated: Option<Html>,
    /// When its first release is not known: the interval and the builds looked at.
    pub introduced: Option<Html>,
    /// Each retirement: of the whole option, or of one of its spellings.
    pub removed: Vec<Html>,
    pub ty: String,
    pub class_type: Option<String>,
    pub is_class: bool,
    pub default: Option<String>,
    pub range: Option<String>,
    pub ge_key: Option<String>,
    pub available: Html,
    pub values: Vec<ValueRow>,
    /// The facts by release, when they change; empty when every release has the same.
    pub history: Vec<by_release::Row>,
    pub snippets: Vec<SnippetView>,
    /// Surfaces the option is not reachable from, said in words.
    pub missing: Vec<Html>,
    pub rules: Vec<RuleView>,
    pub table: SupportTable,
    /// Each source, and its address when it is a web page (the vendor's release pages).
    pub sources: Vec<(String, Option<String>)>,
}

impl OptionView {
    pub fn new(f: &Facts<'_>, o: &OptionSpec) -> Self {
        // The page leads with the newest release's facts; `history` shows the older ones.
        let newest = by_release::newest(o);
        let default = match &newest {
            Some(n) => n.default.map(|d| d.to_string()),
            None => o.default.as_ref().map(|d| d.to_string()),
        };
        let values = o
            .values
            .iter()
            .map(|v| {
                let mut r = Vec::new();
                if !v.available.is_all() {
                    r.push(format!("releases {}", v.available));
                }
                if let Some(ps) = &v.products {
                    let ps: Vec<String> = ps
                        .iter()
                        .map(|s| format!("{} {}", s.product, s.releases))
                        .collect();
                    r.push(format!("products: {}", ps.join(", ")));
                }
                ValueRow {
                    value: v.value.to_string(),
                    name: v.name.clone(),
                    aliases: v.aliases.iter().map(|a| a.to_string()).collect(),
                    doc: bi(&v.doc),
                    restriction: (!r.is_empty()).then(|| r.join("; ")),
                    is_default: default.as_deref() == Some(v.value.to_string().as_str()),
                }
            })
            .collect();
        let env = o.config == "Environment" || o.surfaces.env.is_some();
        let mut missing = Vec::new();
        if !env && !matches!(o.ty, OptionType::Config(_)) {
            if o.surfaces.estimator.is_none() {
                missing.push(bi_str(
                    "Not settable as an Estimator argument.",
                    "不能作为 Estimator 参数设置。",
                ));
            }
            if o.surfaces.session.is_none() {
                missing.push(bi_str(
                    "Not settable through a TF1 session's parameter_map.",
                    "不能通过 TF1 session 的 parameter_map 设置。",
                ));
            }
            if o.surfaces.tf2.is_none() {
                missing.push(bi_str(
                    "Not settable through TF2 global options.",
                    "不能通过 TF2 global_options 设置。",
                ));
            }
        }
        let range = match &newest {
            Some(n) => by_release::range_text(n.range, o),
            None => o.range.as_ref().and_then(|r| {
                by_release::range_text(
                    Some(cann_config::meta::RangeMeta {
                        min: r.min,
                        max: r.max,
                    }),
                    o,
                )
            }),
        };
        let ge_key = match &newest {
            Some(n) => n.ge_key.map(str::to_string),
            None => o.ge_key.clone(),
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
                        "{} <a href=\"{}.html\"><code>{}</code></a>",
                        bi_str(
                            &format!("since {}; use", d.since),
                            &format!("自 {} 起；请改用", d.since)
                        ),
                        escape(r),
                        escape(r)
                    ),
                    None => bi_str(
                        &format!("since {}.", d.since),
                        &format!("自 {} 起。", d.since),
                    )
                    .to_string(),
                };
                Html::trusted(format!("{since} {}", bi(&d.note)))
            }),
            introduced: o.introduced.as_ref().map(introduced_html),
            removed: o.removed.iter().map(removal_html).collect(),
            ty: o.ty.name().into(),
            class_type: match &o.ty {
                OptionType::Config(c) => Some(c.clone()),
                _ => None,
            },
            is_class: matches!(o.ty, OptionType::Config(_)),
            default,
            range,
            ge_key,
            history: by_release::rows(o),
            available: range_text(&o.available),
            values,
            snippets: f
                .snippets(o)
                .into_iter()
                .map(|s| SnippetView {
                    id: s.id,
                    title_en: s.title_en,
                    title_zh: s.title_zh,
                    lang: s.lang,
                    code: s.code,
                })
                .collect(),
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
                    fires: examples(&r.examples.fires),
                    quiet: examples(&r.examples.quiet),
                })
                .collect(),
            table: SupportTable::new(f, "../", |p, ri| f.supported(o, p, ri)),
            sources: o
                .source
                .iter()
                .map(|s| {
                    let web = s.starts_with("https://") || s.starts_with("http://");
                    (s.clone(), web.then(|| s.clone()))
                })
                .collect(),
        }
    }
}

pub struct ClassView {
    pub name: String,
    pub doc: Html,
    pub root_key: Option<String>,
    /// Path of the option that holds this class, for nested classes.
    pub holder: Option<String>,
    pub import: Option<String>,
    pub available: Html,
    pub table: SupportTable,
}

impl ClassView {
    pub fn new(f: &Facts<'_>, c: &ConfigClass) -> Self {
        ClassView {
            name: c.name.clone(),
            doc: bi_p(&c.doc),
            root_key: c.root_key.clone(),
            holder: f.option_holding(&c.name).map(|o| o.path.clone()),
            import: c.python_import.clone(),
            available: range_text(&c.available),
            table: SupportTable::new(f, "../", |p, ri| match f.option_holding(&c.name) {
                Some(h) => f.supported(h, p, ri),
                None => f.class_supported(c, p, ri),
            }),
        }
    }
}

pub struct ProductView {
    pub id: String,
    pub name: Html,
    pub note: Option<Html>,
    pub releases: Vec<String>,
    pub latest: String,
    /// (path, name) of the options supported in the newest release that knows the product.
    pub options: Vec<(String, String)>,
}

impl ProductView {
    pub fn new(f: &Facts<'_>, p: &Product) -> Self {
        let known: Vec<usize> = (0..f.spec.releases.len())
            .filter(|ri| f.release_knows(*ri, &p.id))
            .collect();
        let latest = known.last().copied();
        ProductView {
            id: p.id.clone(),
            name: bi(&p.name),
            note: p.note.as_ref().map(bi_p),
            releases: known
                .iter()
                .map(|ri| f.spec.releases[*ri].id.clone())
                .collect(),
            latest: latest.map_or(String::new(), |ri| f.spec.releases[ri].id.clone()),
            options: latest.map_or(Vec::new(), |ri| {
                f.spec
                    .options
                    .iter()
                    .filter(|o| f.supported(o, &p.id, ri))
                    .map(|o| (o.path.clone(), o.name.clone()))
                    .collect()
            }),
        }
    }
}

/// The search index: options and classes with both languages' descriptions.
pub fn search_index(f: &Facts<'_>) -> String {
    let mut items = Vec::new();
    for o in &f.spec.options {
        let values: Vec<String> = o
            .values
            .iter()
            .map(|v| format!("{} {}", v.value, v.name))
            .collect();
        items.push(json!({
            "kind": "option",
            "name": o.name,
            "path": o.path,
            "class": o.config,
            "url": format!("options/{}.html", o.path),
            "ge": o.ge_key,
            "env": o.surfaces.env,
            "estimator": o.surfaces.estimator,
            "tf2": o.surfaces.tf2,
            "en": o.doc.en,
            "zh": o.doc.zh,
            "values": values.join(" "),
        }));
    }
    for c in &f.spec.configs {
        items.push(json!({
            "kind": "class",
            "name": c.name,
            "path": c.root_key.clone().unwrap_or_default(),
            "class": c.name,
            "url": format!("classes/{}.html", c.name),
            "en": c.doc.en,
            "zh": c.doc.zh,
        }));
    }
    serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into())
}

/// An unknown first release in both languages, with the builds or pages that bound it.
fn introduced_html(i: &cann_spec::Introduced) -> Html {
    use cann_config::history::introduced_text;
    use cann_config::meta::Lang;
    let text = |lang| introduced_text(&i.after, &i.first_recorded, lang);
    let sources: Vec<String> = i
        .source
        .iter()
        .map(|s| format!("<code>{}</code>", escape(s)))
        .collect();
    Html::trusted(format!(
        "{}. {} {}",
        bi_str(&text(Lang::En), &text(Lang::Zh)),
        bi_str("Sources:", "来源："),
        sources.join("; ")
    ))
}

/// One retirement in both languages: when, what replaces it, and the note.
fn removal_html(r: &cann_spec::Removal) -> Html {
    let mut s = String::new();
    if r.surfaces != cann_spec::Surfaces::default() {
        let spelled = [
            r.surfaces.estimator.as_deref().map(|e| format!("{e}=")),
            r.surfaces
                .session
                .as_ref()
                .map(|(n, _)| format!("parameter_map[\"{n}\"]")),
            r.surfaces
                .tf2
                .as_deref()
                .map(|t| format!("npu.global_options().{t}")),
            r.surfaces.env.clone(),
        ];
        let spelled: Vec<String> = spelled.into_iter().flatten().collect();
        s.push_str(&format!("<code>{}</code>: ", escape(&spelled.join(", "))));
    }
    s.push_str(&match &r.gone {
        cann_spec::Gone::Before(b) => bi_str(
            &format!("no release since {b} supports it."),
            &format!("自 {b} 起的版本均不支持它。"),
        )
        .to_string(),
        cann_spec::Gone::After(l) => bi_str(
            &format!("{l} is the last release that supports it."),
            &format!("最后支持它的版本是 {l}。"),
        )
        .to_string(),
        cann_spec::Gone::Never => bi_str(
            "no release of the adapter reads it.",
            "适配器的任何版本都不读取它。",
        )
        .to_string(),
    });
    if let Some(rep) = &r.replacement {
        s.push_str(&format!(
            " {} <a href=\"{}.html\"><code>{}</code></a>",
            bi_str("Use", "请改用"),
            escape(rep),
            escape(rep)
        ));
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

/// Example configs as shown: one text each, ending in a line break like a file.
fn examples(list: &[cann_spec::Example]) -> Vec<String> {
    list.iter()
        .map(|e| format!("{}\n", e.config.trim_end()))
        .collect()
}
