//! The static docs site under `docs/`: a page per option, per configuration class and per
//! release, a products page, client-side search and an English/Chinese switch.
//!
//! Pages are askama templates (`xtask/templates/`), checked against these view structs at
//! compile time and HTML-escaped by default. Spec prose goes through [`html::inline`], the
//! one place it is escaped and its `code` spans are marked up.

mod html;
mod release;
mod views;

use askama::Template;
use cann_spec::Spec;

use super::facts::Facts;
use super::Output;
use crate::ensure::{MARKER, REGENERATE};
use release::ReleaseView;
use views::*;

const SITE_CSS: &str = include_str!("../../assets/site.css");
const SITE_JS: &str = include_str!("../../assets/site.js");

#[derive(Template)]
#[template(path = "index.html")]
struct IndexPage {
    root: &'static str,
    title: String,
    classes: Vec<ClassRow>,
    groups: Vec<OptionGroup>,
    releases: Vec<String>,
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

/// Every file of the site, paths relative to the workspace root.
pub fn generate(spec: &Spec) -> Result<Vec<Output>, askama::Error> {
    let f = Facts::new(spec);
    let mut out = Vec::new();
    let mut page = |path: String, text: String| out.push(Output { path, text });

    page(
        "docs/assets/site.css".into(),
        format!("/* {MARKER} from xtask/assets/site.css; do not edit */\n{SITE_CSS}"),
    );
    page(
        "docs/assets/site.js".into(),
        format!("// {MARKER} from xtask/assets/site.js; do not edit\n{SITE_JS}"),
    );
    page(
        "docs/assets/search-index.js".into(),
        format!(
            "// {MARKER} from spec/; do not edit. Run `{REGENERATE}`.\n\
             // Loaded by a script tag (not fetch) so that search works from file:// too.\n\
             window.CANN_SEARCH = {};\n",
            views::search_index(&f)
        ),
    );

    let releases: Vec<String> = spec.releases.iter().map(|r| r.id.clone()).collect();
    page(
        "docs/index.html".into(),
        IndexPage {
            root: "",
            title: "Options".into(),
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
            title: "Products".into(),
            products: spec
                .products
                .iter()
                .map(|p| ProductView::new(&f, p))
                .collect(),
            table: SupportTable::new(&f, "", |p, ri| f.release_knows(ri, p)),
        }
        .render()?,
    );
    Ok(out)
}
