//! The site's own words, from the catalog (`cann_i18n::catalog::docs`): templates call
//! [`t`] with a catalog function, and the script gets the texts it shows as `CANN_TEXT`.

use cann_i18n::Lang;
use serde_json::{json, Map, Value};

pub use cann_i18n::catalog::docs as msg;

use super::html::{bi_str, Html};

/// A catalog text without arguments, as a function of the language.
pub type Words = fn(Lang) -> String;

/// A catalog text in both languages, marked up for the language switch.
pub fn t(f: Words) -> Html {
    with(f)
}

/// As [`t`], for a message with arguments.
pub fn with(f: impl Fn(Lang) -> String) -> Html {
    bi_str(&f(Lang::En), &f(Lang::Zh))
}

/// The texts the script writes itself (search results, the contents box, buttons), by
/// language; `{count}` in a text is the script's to fill in.
pub fn script_texts() -> Value {
    let entries: [(&str, Words); 18] = [
        ("none", msg::search_none),
        ("ge", msg::by_ge),
        ("path", msg::by_path),
        ("env", msg::by_env),
        ("estimator", msg::by_estimator),
        ("tf2", msg::by_tf2),
        ("session", msg::by_session),
        ("text", msg::by_text),
        ("typo", msg::by_typo),
        ("onThisPage", msg::on_this_page),
        ("anchor", msg::anchor_label),
        ("placeholder", msg::search_placeholder),
        ("searchLabel", msg::search_label),
        ("notInRelease", msg::picker_not_in_release),
        ("newest", msg::at_release_newest),
        ("theme", msg::theme_toggle),
        ("copy", msg::copy),
        ("unreleased", msg::badge_unreleased),
    ];
    let mut out = Map::new();
    for lang in Lang::ALL {
        let mut m = Map::new();
        for (k, f) in &entries {
            m.insert((*k).into(), Value::String(f(lang)));
        }
        m.insert("count".into(), json!(msg::picker_count(lang, "{count}")));
        out.insert(lang.code().into(), Value::Object(m));
    }
    Value::Object(out)
}
