//! The site's link checker: every internal `href` of every generated page names a file of
//! the site, and every `#anchor` an `id` on the page it leads to. Run on the generated text
//! by `regenerate` and `check` alike, so a broken link is never written or checked in.

use std::collections::{BTreeMap, BTreeSet};

use crate::regenerate::Output;

/// One broken link: the page, the link as written, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    pub page: String,
    pub href: String,
    pub why: &'static str,
}

impl std::fmt::Display for Broken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: `{}` {}", self.page, self.href, self.why)
    }
}

/// The values of `attr="..."` in a page, HTML entities of `&amp;` undone.
fn attrs(page: &str, attr: &str) -> Vec<String> {
    let needle = format!(" {attr}=\"");
    page.match_indices(&needle)
        .filter_map(|(i, _)| {
            let rest = &page[i + needle.len()..];
            rest.find('"').map(|end| rest[..end].replace("&amp;", "&"))
        })
        .collect()
}

/// `dir/../x/./y` as `x/y`; `None` when it climbs out of the site.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Every broken internal link of the `docs/` outputs.
pub fn check(outputs: &[Output]) -> Vec<Broken> {
    let site: BTreeMap<&str, &str> = outputs
        .iter()
        .filter_map(|o| o.path.strip_prefix("docs/").map(|p| (p, o.text.as_str())))
        .collect();
    let ids: BTreeMap<&str, BTreeSet<String>> = site
        .iter()
        .filter(|(p, _)| p.ends_with(".html"))
        .map(|(p, text)| (*p, attrs(text, "id").into_iter().collect()))
        .collect();
    let mut broken = Vec::new();
    for (page, text) in site.iter().filter(|(p, _)| p.ends_with(".html")) {
        let dir = page.rsplit_once('/').map_or("", |(d, _)| d);
        for href in attrs(text, "href") {
            let mut fail = |why| {
                broken.push(Broken {
                    page: format!("docs/{page}"),
                    href: href.clone(),
                    why,
                })
            };
            if href.contains("://") || href.starts_with("mailto:") {
                continue;
            }
            let (before_hash, anchor) = match href.split_once('#') {
                Some((a, b)) => (a, Some(b)),
                None => (href.as_str(), None),
            };
            let file = before_hash.split('?').next().unwrap_or_default();
            let target = if file.is_empty() {
                Some(page.to_string())
            } else {
                normalize(&format!("{dir}/{file}"))
            };
            let Some(target) = target else {
                fail("leads out of the site");
                continue;
            };
            if !site.contains_key(target.as_str()) {
                fail("names no file of the site");
                continue;
            }
            if let Some(a) = anchor.filter(|a| !a.is_empty()) {
                match ids.get(target.as_str()) {
                    Some(set) if set.contains(a) => {}
                    Some(_) => fail("names an anchor its page does not have"),
                    None => fail("has an anchor on a file that is not a page"),
                }
            }
        }
    }
    broken
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(path: &str, text: &str) -> Output {
        Output {
            path: path.into(),
            text: text.into(),
        }
    }

    #[test]
    fn finds_missing_files_and_anchors() {
        let site = [
            out("docs/index.html", "<a href=\"options/a.html#values\">a</a> <a href=\"options/b.html\">b</a> <a href=\"#top\">t</a> <a href=\"https://x.org/\">x</a>"),
            out("docs/options/a.html", "<h2 id=\"values\">v</h2><a href=\"../index.html?lang=zh#nope\">i</a><a href=\"../../x.html\">o</a>"),
        ];
        let got: Vec<String> = check(&site).iter().map(|b| b.to_string()).collect();
        assert_eq!(
            got,
            [
                "docs/index.html: `options/b.html` names no file of the site",
                "docs/index.html: `#top` names an anchor its page does not have",
                "docs/options/a.html: `../index.html?lang=zh#nope` names an anchor its page does not have",
                "docs/options/a.html: `../../x.html` leads out of the site",
            ]
        );
    }

    /// The bundled spec's site has no broken link (generation itself refuses one).
    #[test]
    fn the_generated_site_has_no_broken_link() {
        let Ok(spec) = cann_config::model() else {
            panic!("the bundled spec does not load");
        };
        match crate::regenerate::generate(spec) {
            Ok(outputs) => assert!(check(&outputs).is_empty()),
            Err(e) => panic!("{e}"),
        }
    }
}
