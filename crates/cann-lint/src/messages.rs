//! The texts lint writes itself come from the catalog (`cann_i18n::catalog::lint`, English
//! and Chinese); this module picks the entry for what was found (the spec's own texts, such
//! as rule messages, come from the spec). Each function returns the text in `lang`.

use cann_config::history;
use cann_config::meta::{Gone, Lang, RemovalMeta};
use cann_i18n::catalog::lint as msg;

/// The API surface a name was written on, as a noun phrase.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Place<'a> {
    Kwarg(&'a str),
    Key,
    Tf2,
    Env,
}

fn place(lang: Lang, p: Place<'_>) -> String {
    match p {
        Place::Kwarg(c) => msg::place_kwarg(lang, c),
        Place::Key => msg::place_key(lang),
        Place::Tf2 => msg::place_tf2(lang),
        Place::Env => msg::place_env(lang),
    }
}

/// What happens at run time when the name is not one the API knows.
fn consequence(lang: Lang, p: Place<'_>) -> String {
    match p {
        Place::Kwarg(c) => msg::raises_kwarg(lang, c),
        Place::Key => msg::key_never_read(lang),
        Place::Tf2 => msg::raises_value_error(lang),
        Place::Env => msg::env_never_read(lang),
    }
}

pub(crate) fn unknown_name(lang: Lang, p: Place<'_>, name: &str) -> String {
    msg::unknown_name(lang, &place(lang, p), name, &consequence(lang, p))
}

pub(crate) fn did_you_mean(lang: Lang, name: &str) -> String {
    msg::did_you_mean(lang, name)
}

/// The option exists under another name on this surface.
pub(crate) fn written_here(lang: Lang, option: &str, here: &str) -> String {
    msg::written_here(lang, option, here)
}

/// The option exists, but not on this surface.
pub(crate) fn not_on_surface(lang: Lang, p: Place<'_>, name: &str) -> String {
    let via = match p {
        Place::Kwarg(c) => msg::via_kwarg(lang, c),
        Place::Key => msg::via_key(lang),
        Place::Tf2 => msg::via_tf2(lang),
        Place::Env => msg::via_env(lang),
    };
    msg::not_on_surface(lang, name, &via, &consequence(lang, p))
}

/// A spelling of an option that the adapter stopped taking on this surface: when, from the
/// spec's retirement, and what the script then does. A key nothing reads is said once.
pub(crate) fn retired_name(lang: Lang, p: Place<'_>, name: &str, r: &RemovalMeta) -> String {
    let gone = history::removed_message(&msg::named(lang, &place(lang, p), name), r, lang);
    match (p, r.gone) {
        (Place::Key | Place::Env, Gone::Never) => gone,
        _ => msg::retired_then(lang, &gone, &consequence(lang, p)),
    }
}

/// What to do instead of a retired spelling: the replacement as it is written on the same
/// surface where it has a name there, the spec's value mapping, and its note.
pub(crate) fn retired_hint(lang: Lang, r: &RemovalMeta, replacement: Option<&str>) -> String {
    history::replacement_hint(replacement.or(r.replacement), r.values, r.note, lang)
}

/// A retired option set to an empty value, which upstream still accepts and ignores.
pub(crate) fn empty_ignored(lang: Lang, name: &str, r: &RemovalMeta) -> String {
    msg::empty_ignored(
        lang,
        &history::removed_message(&format!("`{name}`"), r, lang),
    )
}

pub(crate) fn set_through(lang: Lang, ways: &[String]) -> String {
    msg::set_through(lang, &ways.join(&msg::or(lang)))
}

/// A Python type, as the surfaces take values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PyType {
    Bool,
    Int,
    /// An int or a float: what RunConfig compares with a bound.
    Number,
    Str,
}

fn py_type(lang: Lang, t: PyType) -> String {
    match t {
        PyType::Bool => msg::py_bool(lang),
        PyType::Int => msg::py_int(lang),
        PyType::Number => msg::py_number(lang),
        PyType::Str => msg::py_str(lang),
    }
}

/// `parameter_map["k"]` read with one accessor, set with another. The adapter then reads
/// the field's empty value; `refused` says whether that empty value is outside the values
/// the option lists (the adapter or the graph engine then refuses it) rather than one it
/// takes (the value written is lost).
pub(crate) fn accessor(
    lang: Lang,
    key: &str,
    want: &str,
    got: &str,
    reads: PyType,
    refused: bool,
) -> String {
    let what = py_type(lang, reads);
    let empty = match reads {
        PyType::Bool => "False",
        PyType::Int => "0",
        PyType::Number => "0.0",
        PyType::Str => "\"\"",
    };
    if refused {
        msg::accessor_refused(lang, key, &what, want, got, empty)
    } else {
        msg::accessor_lost(lang, key, &what, want, got, empty)
    }
}

/// A value of a Python type the API refuses.
pub(crate) fn wrong_type(
    lang: Lang,
    what: &str,
    takes: PyType,
    found: &str,
    raises: &str,
) -> String {
    msg::wrong_type(lang, what, &py_type(lang, takes), found, raises)
}

/// A TF2 value outside the list the option's `OptionValue` accepts.
pub(crate) fn tf2_not_allowed(lang: Lang, path: &str, found: &str, allowed: &str) -> String {
    msg::tf2_not_allowed(lang, path, allowed, found)
}

/// What a rename fix does.
pub(crate) fn fix_rename(lang: Lang, from: &str, to: &str) -> String {
    msg::fix_rename(lang, from, to)
}

/// A rule that holds only if settings made in different `if` statements all run.
pub(crate) fn only_if_together(lang: Lang) -> String {
    msg::only_if_together(lang)
}

/// The walk over one script's syntax tree stopped at its budget.
pub(crate) fn node_budget(lang: Lang, budget: usize) -> String {
    msg::node_budget(lang, budget)
}

pub(crate) fn node_budget_hint(lang: Lang) -> String {
    msg::node_budget_hint(lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RETIRED: RemovalMeta = RemovalMeta {
        gone: Gone::Never,
        surfaces: cann_config::meta::SurfacesMeta {
            estimator: Some("x"),
            estimator_default: cann_config::meta::PyDefault::None,
            session: None,
            tf2: None,
            tf2_as: None,
            tf2_default: None,
            tf2_values: None,
            env: None,
        },
        replacement: None,
        values: &[],
        empty_ignored: None,
        note: cann_config::meta::Text { en: "n", zh: "n" },
        source: &[],
        loc: (),
    };

    /// Every text exists in both languages and the two differ (a missing translation would
    /// show as the English text twice).
    #[test]
    fn both_languages_differ() {
        let pairs = [
            (
                unknown_name(Lang::En, Place::Key, "x"),
                unknown_name(Lang::Zh, Place::Key, "x"),
            ),
            (
                unknown_name(Lang::En, Place::Kwarg("NPURunConfig"), "x"),
                unknown_name(Lang::Zh, Place::Kwarg("NPURunConfig"), "x"),
            ),
            (
                unknown_name(Lang::En, Place::Tf2, "x"),
                unknown_name(Lang::Zh, Place::Tf2, "x"),
            ),
            (
                unknown_name(Lang::En, Place::Env, "x"),
                unknown_name(Lang::Zh, Place::Env, "x"),
            ),
            (did_you_mean(Lang::En, "x"), did_you_mean(Lang::Zh, "x")),
            (
                accessor(Lang::En, "k", "s", "b", PyType::Str, true),
                accessor(Lang::Zh, "k", "s", "b", PyType::Str, true),
            ),
            (
                accessor(Lang::En, "k", "s", "b", PyType::Str, false),
                accessor(Lang::Zh, "k", "s", "b", PyType::Str, false),
            ),
            (
                wrong_type(Lang::En, "w", PyType::Int, "1.5", "TypeError"),
                wrong_type(Lang::Zh, "w", PyType::Int, "1.5", "TypeError"),
            ),
            (
                tf2_not_allowed(Lang::En, "p", "0", "'0'"),
                tf2_not_allowed(Lang::Zh, "p", "0", "'0'"),
            ),
            (node_budget(Lang::En, 1), node_budget(Lang::Zh, 1)),
            (only_if_together(Lang::En), only_if_together(Lang::Zh)),
            (
                fix_rename(Lang::En, "a", "b"),
                fix_rename(Lang::Zh, "a", "b"),
            ),
            (node_budget_hint(Lang::En), node_budget_hint(Lang::Zh)),
            (
                retired_name(Lang::En, Place::Kwarg("NPURunConfig"), "x", &RETIRED),
                retired_name(Lang::Zh, Place::Kwarg("NPURunConfig"), "x", &RETIRED),
            ),
        ];
        for (en, zh) in pairs {
            assert_ne!(en, zh);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
        }
    }
}
