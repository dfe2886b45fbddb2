//! What each page shows, computed from the spec; the templates only lay it out.

use cann_config::meta::{describe_range, Lang};
use cann_spec::{ConfigClass, Product, ReleaseRange};

use super::html::{bi, bi_p, Html};
use super::text::{msg, t, with};
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
    pub fn title(&self) -> String {
        let f = self.words();
        format!("{} / {}", f(Lang::En), f(Lang::Zh))
    }

    /// What the mark means, for the legend.
    pub fn words(&self) -> fn(Lang) -> String {
        match self {
            Cell::Yes => msg::cell_yes,
            Cell::No => msg::cell_no,
            Cell::Absent => msg::cell_absent,
        }
    }

    pub fn legend(&self) -> Html {
        t(self.words())
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

/// The releases flagged in `read` (one flag per release of the spec) in words, as every other
/// output says ranges: each run of releases as a range, open at the spec's first release
/// only when `open_start` (nothing says it began there) and at its last only when `open_end`
/// (nothing says it ends). No release at all is said so.
pub fn releases_in(
    f: &Facts<'_>,
    lang: Lang,
    read: &[bool],
    open_start: bool,
    open_end: bool,
) -> String {
    // An unreleased release is named with the word that says so ("next (unreleased)").
    let ids: Vec<String> = f
        .spec
        .releases
        .iter()
        .map(|r| {
            if r.unreleased {
                format!("{} ({})", r.id, msg::badge_unreleased(lang))
            } else {
                r.id.clone()
            }
        })
        .collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, on) in read.iter().enumerate() {
        if !on {
            continue;
        }
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    if runs.is_empty() {
        return msg::no_release_reads(lang);
    }
    let last = ids.len().saturating_sub(1);
    lang.join(runs.iter().map(|&(a, b)| {
        let from = (a > 0 || !open_start).then(|| ids[a].as_str());
        let to = (b < last || !open_end).then(|| ids[b].as_str());
        describe_range(lang, from, to)
    }))
}

pub fn releases_text(f: &Facts<'_>, read: &[bool], open_start: bool, open_end: bool) -> Html {
    with(|l| releases_in(f, l, read, open_start, open_end))
}

/// A class's or a release range's releases in words.
fn range_text(f: &Facts<'_>, r: &ReleaseRange) -> Html {
    let read: Vec<bool> = (0..f.spec.releases.len())
        .map(|ri| r.contains_index(ri, |id| f.spec.release_index(id)))
        .collect();
    releases_text(f, &read, r.from.is_none(), r.last.is_none())
}

pub struct OptionRow {
    pub name: String,
    pub path: String,
    pub ty: String,
    /// The default, or "unset" in the words every page uses.
    pub default: Result<String, Html>,
    pub doc: Html,
    pub deprecated: bool,
    pub removed: bool,
    pub never_read: bool,
}

/// "unset", as every page and the index write it (the word `explain` uses).
pub fn unset() -> Html {
    t(cann_i18n::catalog::explain::label_unset)
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
                    ty: o.ty.describe(),
                    default: o.default.as_ref().map(|d| d.to_string()).ok_or_else(unset),
                    doc: bi(&o.doc),
                    deprecated: o.deprecated.is_some(),
                    removed: o.removal().is_some(),
                    never_read: o
                        .removal()
                        .is_some_and(|r| matches!(r.gone, cann_spec::Gone::Never)),
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
            available: range_text(f, &c.available),
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
    /// "Options supported in LATEST (N)".
    pub summary: Html,
    /// (path, name) of the options supported in the newest release that knows the product.
    pub options: Vec<(String, String)>,
}

impl ProductView {
    pub fn new(f: &Facts<'_>, p: &Product) -> Self {
        let known: Vec<usize> = (0..f.spec.releases.len())
            .filter(|ri| f.release_knows(*ri, &p.id))
            .collect();
        let latest = known.last().copied();
        let options: Vec<(String, String)> = latest.map_or(Vec::new(), |ri| {
            f.spec
                .options
                .iter()
                .filter(|o| f.supported(o, &p.id, ri))
                .map(|o| (o.path.clone(), o.name.clone()))
                .collect()
        });
        let latest_id = latest.map_or(String::new(), |ri| f.spec.releases[ri].id.clone());
        ProductView {
            summary: with(|l| msg::options_supported_in(l, &latest_id, options.len())),
            id: p.id.clone(),
            name: bi(&p.name),
            note: p.note.as_ref().map(bi_p),
            releases: known
                .iter()
                .map(|ri| f.spec.releases[*ri].id.clone())
                .collect(),
            options,
        }
    }
}

/// The "unreleased" badge after a release's name, empty for a released one.
pub fn release_badge(f: &Facts<'_>, id: &str) -> Html {
    let unreleased = f.spec.releases.iter().any(|r| r.id == id && r.unreleased);
    if !unreleased {
        return Html::trusted(String::new());
    }
    Html::trusted(format!(
        " <span class=\"badge new unreleased\">{}</span>",
        with(msg::badge_unreleased)
    ))
}
