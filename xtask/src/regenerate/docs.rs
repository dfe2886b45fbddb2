//! The static docs site under `docs/`: a page per option, per configuration class and per
//! release, a products page, a release × product picker, client-side search, an
//! English/Chinese switch and a dark theme, and the JSON Schema served beside them.
//!
//! Pages are askama templates (`xtask/templates/`), checked against these view structs at
//! compile time and HTML-escaped by default. Spec prose goes through [`html::inline`], the
//! one place it is escaped and its `code` spans are marked up; the site's own words come
//! from the catalog through [`text::t`]. Every internal link is checked ([`links`]).

mod at_release;
mod html;
mod links;
mod option;
mod picker;
mod release;
mod search;
mod sources;
mod text;
#[cfg(test)]
mod truth;
mod views;

use askama::Template;
use cann_spec::Spec;

pub use links::Broken;

use super::facts::Facts;
use super::Output;
use crate::ensure::MARKER;
use html::Html;
use option::OptionView;
use release::ReleaseView;
use text::{msg, t};
use views::*;

const SITE_CSS: &str = include_str!("../../assets/site.css");
const SITE_JS: &str = include_str!("../../assets/site.js");
const SEARCH_JS: &str = include_str!("../../assets/search.js");
const PICKER_JS: &str = include_str!("../../assets/picker.js");

/// Where the site serves the JSON Schema (a copy of `schema/`, so the site is whole).
pub const SCHEMA_PATH: &str = "docs/schema/cann-config.schema.json";

#[derive(Template)]
#[template(path = "index.html")]
struct IndexPage {
    root: &'static str,
    title: String,
    classes: Vec<ClassRow>,
    groups: Vec<OptionGroup>,
    /// Each release's id and its "unreleased" badge (empty for a released one).
    releases: Vec<(String, Html)>,
}

#[derive(Template)]
#[template(path = "option.html")]
struct OptionPage {
    root: &'static str,
    title: String,
    o: OptionView,
}

#[derive(Template)]
#[template(path = "class.html")]
struct ClassPage {
    root: &'static str,
    title: String,
    c: ClassView,
    g: OptionGroup,
}

#[derive(Template)]
#[template(path = "release.html")]
struct ReleasePage {
    root: &'static str,
    title: String,
    r: ReleaseView,
}

#[derive(Template)]
#[template(path = "products.html")]
struct ProductsPage {
    root: &'static str,
    title: String,
    products: Vec<ProductView>,
    table: SupportTable,
}

#[derive(Template)]
#[template(path = "picker.html")]
struct PickerPage {
    root: &'static str,
    title: String,
}

fn asset(name: &str, from: &str, body: &str) -> Output {
    Output {
        path: format!("docs/assets/{name}"),
        text: format!("// {MARKER} from {from}; do not edit\n{body}"),
    }
}

/// Every file of the site, paths relative to the workspace root; `schema` is the JSON Schema
/// the site serves.
pub fn generate(spec: &Spec, schema: &str) -> Result<Vec<Output>, askama::Error> {
    let f = Facts::new(spec);
    let mut out = vec![
        Output {
            path: "docs/assets/site.css".into(),
            text: format!("/* {MARKER} from xtask/assets/site.css; do not edit */\n{SITE_CSS}"),
        },
        asset("site.js", "xtask/assets/site.js", SITE_JS),
        asset("search.js", "xtask/assets/search.js", SEARCH_JS),
        asset("picker.js", "xtask/assets/picker.js", PICKER_JS),
        Output {
            path: "docs/assets/search-index.js".into(),
            text: search::script(&f),
        },
        Output {
            path: "docs/assets/picker-data.js".into(),
            text: picker::script(&f),
        },
        Output {
            path: SCHEMA_PATH.into(),
            text: schema.to_string(),
        },
    ];
    let mut page = |path: String, text: String| out.push(Output { path, text });

    let releases: Vec<(String, Html)> = spec
        .releases
        .iter()
        .map(|r| (r.id.clone(), views::release_badge(&f, &r.id)))
        .collect();
    page(
        "docs/index.html".into(),
        IndexPage {
            root: "",
            title: msg::nav_options(cann_i18n::Lang::En),
            classes: spec.configs.iter().map(|c| ClassRow::new(&f, c)).collect(),
            groups: spec
                .configs
                .iter()
                .map(|c| OptionGroup::new(&f, c, ""))
                .collect(),
            releases,
        }
        .render()?,
    );
    for o in &spec.options {
        page(
            format!("docs/options/{}.html", o.path),
            OptionPage {
                root: "../",
                title: o.name.clone(),
                o: OptionView::new(&f, o),
            }
            .render()?,
        );
    }
    for c in &spec.configs {
        page(
            format!("docs/classes/{}.html", c.name),
            ClassPage {
                root: "../",
                title: c.name.clone(),
                c: ClassView::new(&f, c),
                g: OptionGroup::new(&f, c, "../"),
            }
            .render()?,
        );
    }
    for ri in 0..spec.releases.len() {
        let r = ReleaseView::new(&f, ri);
        page(
            format!("docs/releases/{}.html", r.id),
            ReleasePage {
                root: "../",
                title: format!("CANN {}", r.id),
                r,
            }
            .render()?,
        );
    }
    page(
        "docs/products.html".into(),
        ProductsPage {
            root: "",
            title: msg::nav_products(cann_i18n::Lang::En),
            products: spec
                .products
                .iter()
                .map(|p| ProductView::new(&f, p))
                .collect(),
            table: SupportTable::new(&f, "", |p, ri| f.release_knows(ri, p)),
        }
        .render()?,
    );
    page(
        "docs/picker.html".into(),
        PickerPage {
            root: "",
            title: msg::picker_title(cann_i18n::Lang::En),
        }
        .render()?,
    );
    Ok(out)
}

/// Every broken internal link of the site among `outputs`.
pub fn broken_links(outputs: &[Output]) -> Vec<Broken> {
    links::check(outputs)
}

/// Used by the templates: a catalog text in both languages.
fn l(f: fn(cann_i18n::Lang) -> String) -> Html {
    t(f)
}

/// Used by the templates where only one language fits (an attribute before the script
/// sets the reader's): the English text.
fn en(f: fn(cann_i18n::Lang) -> String) -> String {
    f(cann_i18n::Lang::En)
}
