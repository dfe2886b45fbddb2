//! What the client says about settings (`initializationOptions`, and
//! `workspace/didChangeConfiguration`), over what `[tool.cannctl]` says: the editor's
//! settings are the server's flags. Keys: `product`, `release`, `lang`, `docsUrl`,
//! `exclude` (see the crate docs); unknown keys are ignored, as editors send their own.

use std::path::Path;

use cann_check::settings::{Exclude, Settings, SettingsError};
use cann_config::meta::Lang;
use cann_config::{Product, Release};
use serde_json::Value;

/// The client's settings, each unset unless it sent one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientSettings {
    pub product: Option<String>,
    pub release: Option<String>,
    pub lang: Option<String>,
    pub docs_url: Option<String>,
    pub exclude: Option<Vec<String>>,
}

impl ClientSettings {
    /// From a JSON object; the settings may also sit under a `cannctl` key (VS Code's
    /// `settings` section), and `null` or an empty string means unset.
    pub fn from_json(v: &Value) -> ClientSettings {
        let v = v.get("cannctl").unwrap_or(v);
        let text = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        ClientSettings {
            product: text("product"),
            release: text("release"),
            lang: text("lang"),
            docs_url: text("docsUrl"),
            exclude: v.get("exclude").and_then(Value::as_array).map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            }),
        }
    }
}

/// The settings a document is checked with, and what was wrong with them.
#[derive(Debug, Clone, Default)]
pub struct Effective {
    pub product: Option<Product>,
    pub release: Option<Release>,
    pub lang: Lang,
    pub docs_url: Option<String>,
    pub exclude: Exclude,
    /// The project's settings could not be read, or a client setting is unknown: said once
    /// on the document, which is still checked with what was understood.
    pub problems: Vec<SettingsError>,
}

/// Client settings over the project's. The language: the client's `lang` setting, else its
/// `locale` (`client_lang`), else the project's `lang`, else English.
pub fn effective(
    client: &ClientSettings,
    project: Result<Settings, SettingsError>,
    client_lang: Option<Lang>,
    root: &Path,
) -> Effective {
    let chosen = client
        .lang
        .as_deref()
        .and_then(cann_check::settings::parse_lang)
        .or(client_lang);
    let (project, mut problems) = match project {
        Ok(p) => (p, Vec::new()),
        Err(e) => (Settings::default(), vec![e]),
    };
    let lang = chosen.or(project.lang).unwrap_or(Lang::En);
    let unknown = |message: String, hint: Option<String>| SettingsError {
        file: "initializationOptions".into(),
        place: None,
        message,
        hint,
        source_line: None,
    };
    let product = match client.product.as_deref() {
        Some(p) => match cann_check::parse_product(p, lang) {
            Ok(p) => Some(p),
            Err(e) => {
                problems.push(unknown(e.message(lang), e.hint(lang)));
                project.product
            }
        },
        None => project.product,
    };
    let release = match client.release.as_deref() {
        Some(r) => match cann_check::parse_release(r, lang) {
            Ok(r) => Some(r),
            Err(e) => {
                problems.push(unknown(e.message(lang), e.hint(lang)));
                project.release
            }
        },
        None => project.release,
    };
    let exclude = match &client.exclude {
        Some(globs) => match Exclude::new(root, globs.clone()) {
            Ok(x) => x,
            Err((i, e)) => {
                let glob = globs.get(i).cloned().unwrap_or_default();
                problems.push(unknown(
                    cann_i18n::catalog::settings::bad_glob(lang, &glob, &e.kind().to_string()),
                    None,
                ));
                project.exclude.clone()
            }
        },
        None => project.exclude.clone(),
    };
    Effective {
        product,
        release,
        lang,
        docs_url: client.docs_url.clone().or(project.docs_url),
        exclude,
        problems,
    }
}

/// `zh*` locales speak Chinese, `en*` English; others say nothing.
pub fn locale_lang(locale: &str) -> Option<Lang> {
    cann_check::settings::parse_lang(locale)
}
