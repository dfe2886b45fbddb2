//! `unknown-option`: a name the API does not know on the surface it was written on.
//!
//! A keyword makes the call raise `TypeError`, a TF2 attribute makes the assignment raise
//! `ValueError`, and a `parameter_map` key is silently ignored by the adapter, so what the
//! user meant is lost: every such name is an error. Environment variables are the
//! exception: a script sets many that are not the adapter's, so only a likely misspelling
//! of one the spec knows is reported.
//!
//! ```python
//! NPURunConfig(op_debug_levl=0)        # error: did you mean `op_debug_level`?
//! NPURunConfig(op_debug_level=0)       # the fix: the last segment renamed
//! ```
//!
//! The fix renames the name to the option's name on the surface, only when that is the one
//! nearest name and the value written fits the option there. Names the spec knows on
//! another surface, or retired, are [`super::not_on_surface`]'s.

use cann_config::meta::{Lang, OptionMeta};
use cann_config::yaml::Node as Value;
use cann_i18n::catalog::lint as msg;

use super::{name_on, not_on_surface, surface_name, Rule};
use crate::messages;
use crate::object::{ConfigObject, Written};
use crate::{names, surface};
use crate::{Edit, FindingKind, Fix, Surface};

pub(crate) static RULE: Rule = Rule {
    kind: FindingKind::UnknownOption,
    id: "unknown-option",
    summary: msg::rule_unknown_option,
};

/// Judges a name the surface does not know: retired or offered elsewhere
/// ([`not_on_surface`]), the option under its name on another surface, a likely typo, or
/// a name nothing knows.
pub(crate) fn judge(obj: &mut ConfigObject, lang: Lang, w: Written<'_>) {
    let name = w.name;
    let place = w.place();
    if let Some((o, r)) = names::retired(w.surface, w.class, name) {
        not_on_surface::retired(obj, lang, &w, o, r);
        return;
    }
    let bare = name.rsplit('.').next().unwrap_or(name);
    // Environment variables are named apart from options; an option's name is no env var.
    let same = names::by_name(bare)
        .filter(|o| w.class.is_none_or(|c| o.config == c))
        .filter(|_| w.surface != Surface::Env);
    if let Some(o) = same {
        match name_on(o, w.surface) {
            Some(here) => {
                let text = messages::unknown_name(lang, place, name);
                let d = obj.finding(&RULE, o.path, w.at, text);
                d.hint = Some(messages::written_here(lang, o.name, &here));
                let renamed = surface_name(o, w.surface)
                    .filter(|_| fits(&w, o, lang))
                    .and_then(|to| rename(&w, to, lang));
                if let Some(f) = obj.last_finding() {
                    f.fix = renamed;
                }
            }
            None => not_on_surface::elsewhere(obj, lang, &w, o),
        }
        return;
    }
    let typo = names::typo_on(w.surface, w.class, name);
    if typo.is_none() && w.surface == Surface::Env {
        return;
    }
    // Keep the option path shape of other findings: the class's place, then the name.
    let option = match w
        .class
        .and_then(names::python_class)
        .and_then(names::class_path)
    {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    };
    let text = messages::unknown_name(lang, place, name);
    let d = obj.finding(&RULE, &option, w.at, text);
    d.hint = typo.map(|(s, _)| messages::did_you_mean(lang, s));
    // Renamed only to the one nearest name, and only if the value fits it.
    let fix = typo
        .filter(|(_, unique)| *unique)
        .and_then(|(to, _)| resolve(w.surface, w.class, to).map(|o| (to, o)))
        .filter(|(_, o)| fits(&w, o, lang))
        .and_then(|(to, _)| rename(&w, to, lang));
    if let Some(f) = obj.last_finding() {
        f.fix = fix;
    }
}

/// Whether the value written fits `o` on the surface as well as the name would: the
/// accessor is the one `o` is read with, and a literal value is one `o` takes there.
fn fits(w: &Written<'_>, o: &OptionMeta, lang: Lang) -> bool {
    let value_fits = |f: &dyn Fn(&Value) -> bool| w.value.is_none_or(f);
    match w.surface {
        Surface::Session => {
            let Some((_, want)) = o.session else {
                return false;
            };
            w.accessor == Some(want.as_str())
                && value_fits(&|v| surface::session(o, want, v, lang).is_ok())
        }
        Surface::Estimator => {
            value_fits(&|v| surface::estimator(o, o.estimator.unwrap_or(o.name), v, lang).is_ok())
        }
        Surface::Tf2 => value_fits(&|v| surface::tf2(o, o.tf2.unwrap_or(o.name), v, lang).is_ok()),
        Surface::Env => value_fits(&|v| surface::env(o, o.env.unwrap_or(o.name), v, lang).is_ok()),
    }
}

/// The spec option `name` means on the surface, when written there correctly.
fn resolve(surface: Surface, class: Option<&str>, name: &str) -> Option<&'static OptionMeta> {
    match surface {
        Surface::Estimator => names::estimator(class.unwrap_or(""), name),
        Surface::Session => names::session(name),
        Surface::Tf2 => names::tf2(name),
        Surface::Env => names::env(name),
    }
}

/// The fix: a rename of the written name to `to`, when only the last segment differs.
fn rename(w: &Written<'_>, to: &str, lang: Lang) -> Option<Fix> {
    let span = w.span.clone()?;
    let (written_head, _) = w.name.rsplit_once('.').unwrap_or(("", w.name));
    let (to_head, to_last) = to.rsplit_once('.').unwrap_or(("", to));
    (written_head == to_head).then(|| Fix {
        description: messages::fix_rename(lang, w.name, to),
        edits: vec![Edit {
            start: span.start,
            end: span.end,
            replacement: to_last.to_string(),
        }],
    })
}
