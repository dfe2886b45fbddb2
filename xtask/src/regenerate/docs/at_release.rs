//! An option page viewed at one release: the facts `explain --release` gives, one block per
//! release, shown by the page's release picker (`?release=`).

use cann_config::meta::Lang;
use cann_spec::OptionSpec;

use super::html::{bi, Html};
use super::text::{msg, with};
use crate::regenerate::by_release;
use crate::regenerate::facts::Facts;

pub struct AtRelease {
    pub id: String,
    /// "unreleased" after the name of a release not out yet.
    pub badge: Html,
    /// The release picker's entry: the id, and for a release not out yet the word in both
    /// languages (an `<option>` holds text only).
    pub label: String,
    pub read: bool,
    pub not_read: Html,
    pub default: Option<String>,
    pub range: Option<String>,
    pub ge_key: Option<String>,
    /// The values taken in this release, each with the products that may use it when they
    /// are fewer than the option's.
    pub values: Vec<(String, Option<Html>)>,
    pub products: Html,
}

pub fn views(f: &Facts<'_>, o: &OptionSpec) -> Vec<AtRelease> {
    let Some(meta) = by_release::meta(o) else {
        return Vec::new();
    };
    let names = |ids: &[&str]| -> Html {
        with(|l| {
            if ids.is_empty() {
                return msg::at_release_no_product(l);
            }
            l.join(ids.iter().map(|id| {
                f.spec
                    .products
                    .iter()
                    .find(|p| p.id == *id)
                    .map_or(id.to_string(), |p| match l {
                        Lang::En => p.name.en.clone(),
                        Lang::Zh => p.name.zh.clone(),
                    })
            }))
        })
    };
    cann_config::Release::ALL
        .iter()
        .enumerate()
        .map(|(ri, r)| {
            let at = meta.in_release(*r);
            let read = f.available(o, ri);
            let supported: Vec<&str> = f
                .spec
                .products
                .iter()
                .filter(|p| f.supported(o, &p.id, ri))
                .map(|p| p.id.as_str())
                .collect();
            let values = at
                .available_values()
                .map(|v| {
                    let own: Vec<&str> = supported
                        .iter()
                        .copied()
                        .filter(|p| v.products.iter().any(|q| q.id() == *p))
                        .collect();
                    let fewer = own.len() < supported.len();
                    (v.value.value.to_string(), fewer.then(|| names(&own)))
                })
                .collect();
            AtRelease {
                id: r.id().to_string(),
                badge: super::views::release_badge(f, r.id()),
                label: if r.meta().unreleased {
                    format!(
                        "{} ({} / {})",
                        r.id(),
                        msg::badge_unreleased(Lang::En),
                        msg::badge_unreleased(Lang::Zh)
                    )
                } else {
                    r.id().to_string()
                },
                read,
                not_read: with(|l| msg::at_release_not_read(l, r.id())),
                default: at.default.map(|d| d.to_string()),
                range: by_release::range_text(at.range, o),
                ge_key: at.ge_key.map(str::to_string),
                values,
                products: if read {
                    names(&supported)
                } else {
                    bi(&cann_spec::Text::default())
                },
            }
        })
        .collect()
}
