//! The search index the site's script reads (`assets/search-index.js`): every option and
//! class with its names, keys and both languages' descriptions (its values' too), the
//! similarity the CLI's "did you mean" asks of a name, and the script's own texts.
//!
//! Matching is the script's (`xtask/assets/search.js`): Chinese text by character bigrams,
//! Latin words by stem and prefix, names by Jaro-Winkler at the CLI's threshold.

use serde_json::json;

use super::text::script_texts;
use crate::ensure::{MARKER, REGENERATE};
use crate::regenerate::facts::Facts;

/// The whole `search-index.js`.
pub fn script(f: &Facts<'_>) -> String {
    format!(
        "// {MARKER} from spec/; do not edit. Run `{REGENERATE}`.\n\
         // Loaded by a script tag (not fetch) so that search works from file:// too.\n\
         window.CANN_SEARCH = {};\n\
         // cann_spec::DID_YOU_MEAN_SIMILARITY: a name this close (Jaro-Winkler) is a typo's target.\n\
         window.CANN_SEARCH_TYPO = {};\n\
         window.CANN_TEXT = {};\n",
        index(f),
        cann_spec::DID_YOU_MEAN_SIMILARITY,
        serde_json::to_string_pretty(&script_texts()).unwrap_or_else(|_| "{}".into()),
    )
}

/// The search index: options and classes with both languages' descriptions.
fn index(f: &Facts<'_>) -> String {
    let mut items = Vec::new();
    for o in &f.spec.options {
        let values: Vec<String> = o
            .values
            .iter()
            .map(|v| format!("{} {}", v.value, v.name))
            .collect();
        let doc = |zh: bool| -> String {
            o.values
                .iter()
                .map(|v| {
                    if zh {
                        v.doc.zh.as_str()
                    } else {
                        v.doc.en.as_str()
                    }
                })
                .chain(
                    o.special
                        .iter()
                        .map(|(_, d)| if zh { d.zh.as_str() } else { d.en.as_str() }),
                )
                .collect::<Vec<_>>()
                .join(" ")
        };
        items.push(json!({
            "kind": "option",
            "name": o.name,
            "path": o.path,
            "class": o.config,
            "url": format!("options/{}.html", o.path),
            "ge": o.ge_key,
            "env": o.surfaces.env,
            "estimator": o.surfaces.estimator,
            "session": o.surfaces.session.as_ref().map(|(n, _)| n.clone()),
            "tf2": o.surfaces.tf2,
            "removed": o.removal().is_some(),
            "en": o.doc.en,
            "zh": o.doc.zh,
            "values": values.join(" "),
            "valuesEn": doc(false),
            "valuesZh": doc(true),
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
