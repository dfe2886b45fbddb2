//! The lint rules, one module each, as in ruff: a rule's id, the catalog keys of its
//! messages, its SARIF description and help link, its fix and its documentation live in its
//! module, and so does every verdict it makes. The extractors (`crate::extract`) only find
//! what a script writes (a name on a surface, an accessor, a value, a session's optimizers
//! and rewrite options) and hand those facts to the rules here.
//!
//! | id                        | module               | fix    |
//! |---------------------------|----------------------|--------|
//! | `unknown-option`          | [`unknown_option`]   | rename |
//! | `not-on-surface`          | [`not_on_surface`]   |        |
//! | `session-accessor`        | [`session_accessor`] |        |
//! | `value-type`              | [`value_type`]       |        |
//! | `session-setup`           | [`session_setup`]    |        |
//! | a spec rule or option path| [`spec`]             |        |

pub(crate) mod not_on_surface;
pub(crate) mod rule;
pub(crate) mod session_accessor;
pub(crate) mod session_setup;
pub(crate) mod spec;
pub(crate) mod unknown_option;
pub(crate) mod value_type;

use cann_config::meta::{Lang, OptionMeta};

pub(crate) use rule::Rule;

use crate::{Finding, FindingKind, Surface};

/// The rule of lint's own a finding was made by; `None` for the spec's.
pub(crate) fn of(kind: FindingKind) -> Option<&'static Rule> {
    match kind {
        FindingKind::UnknownOption => Some(&unknown_option::RULE),
        FindingKind::NotOnSurface => Some(&not_on_surface::RULE),
        FindingKind::Accessor => Some(&session_accessor::RULE),
        FindingKind::Type => Some(&value_type::RULE),
        FindingKind::Session => Some(&session_setup::RULE),
        FindingKind::Spec => None,
    }
}

/// The id a finding is grouped under.
pub(crate) fn id(f: &Finding) -> &str {
    of(f.kind).map_or_else(|| spec::id(f), |r| r.id)
}

/// What a finding's rule stands for, in a sentence.
pub(crate) fn describe(f: &Finding, lang: Lang) -> String {
    of(f.kind).map_or_else(|| spec::describe(f, lang), |r| (r.summary)(lang))
}

/// The page that explains a finding's rule under the docs site at `docs_url`: for a rule of
/// lint's own, the page of the option the finding is about.
pub(crate) fn help(f: &Finding, docs_url: &str) -> Option<String> {
    match of(f.kind) {
        Some(_) => crate::docs::option_page(&f.diagnostic.option, docs_url),
        None => spec::help(f, docs_url),
    }
}

/// How `o` is named on a surface, when the surface offers it.
fn surface_name(o: &OptionMeta, s: Surface) -> Option<&'static str> {
    match s {
        Surface::Estimator => o.estimator,
        Surface::Session => o.session.map(|(n, _)| n),
        Surface::Tf2 => o.tf2,
        Surface::Env => o.env,
    }
}

/// How `o` is written on a surface, for messages, when the surface offers it.
fn name_on(o: &OptionMeta, s: Surface) -> Option<String> {
    match s {
        Surface::Session => o
            .session
            .map(|(n, a)| format!("parameter_map[\"{n}\"].{}", a.as_str())),
        _ => surface_name(o, s).map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn each_kind_has_one_rule_with_its_own_id() {
        let own = [
            FindingKind::UnknownOption,
            FindingKind::NotOnSurface,
            FindingKind::Accessor,
            FindingKind::Type,
            FindingKind::Session,
        ];
        let ids: std::collections::BTreeSet<&str> = own
            .iter()
            .map(|k| {
                let r = of(*k).unwrap();
                assert_eq!(r.kind, *k);
                r.id
            })
            .collect();
        assert_eq!(ids.len(), own.len());
        assert!(of(FindingKind::Spec).is_none());
    }
}
