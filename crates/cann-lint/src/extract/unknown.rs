//! A name that is not an option on the surface it was written on: the option under another
//! name here, an option this surface does not offer, a likely typo, or a name the adapter
//! does not know at all.

use cann_config::meta::{Lang, OptionMeta};
use cann_config::yaml::Pos;

use super::ConfigObject;
use crate::messages::{self, Place};
use crate::names;
use crate::{FindingKind, Surface};

/// What was written and where, on which surface.
pub(super) struct Written<'a> {
    pub surface: Surface,
    /// As written: a kwarg, a `parameter_map` key, or a dotted path below `global_options()`.
    pub name: &'a str,
    /// The estimator class, whose options alone a kwarg may name.
    pub class: Option<&'a str>,
    pub at: Pos,
}

fn name_on(o: &OptionMeta, s: Surface) -> Option<String> {
    match s {
        Surface::Estimator => o.estimator.map(str::to_string),
        Surface::Session => o
            .session
            .map(|(n, a)| format!("parameter_map[\"{n}\"].{}", a.as_str())),
        Surface::Tf2 => o.tf2.map(str::to_string),
        Surface::Env => o.env.map(str::to_string),
    }
}

fn where_else(o: &OptionMeta, lang: Lang) -> Option<String> {
    let mut ways = Vec::new();
    if let Some(e) = o.estimator {
        ways.push(format!("{}({e}=...)", o.config));
    }
    if let Some((n, a)) = o.session {
        ways.push(format!("custom_op.parameter_map[\"{n}\"].{}", a.as_str()));
    }
    if let Some(p) = o.tf2 {
        ways.push(format!("npu.global_options().{p}"));
    }
    (!ways.is_empty()).then(|| messages::set_through(lang, &ways))
}

fn place(w: &Written<'_>) -> Place<'static> {
    match w.surface {
        Surface::Estimator => Place::Kwarg(
            w.class
                .and_then(names::python_class)
                .map_or("NPURunConfig", |c| c.name),
        ),
        Surface::Session => Place::Key,
        Surface::Tf2 => Place::Tf2,
        Surface::Env => Place::Env,
    }
}

/// Reports a name the surface does not know. Every such name is an error: a keyword makes
/// the call raise TypeError, a TF2 attribute makes the assignment raise ValueError, and a
/// `parameter_map` key is silently ignored by the adapter, so what the user meant is lost.
/// Environment variables are the exception: a script sets many that are not the
/// adapter's, so only a likely misspelling of one the spec knows is reported.
pub(super) fn report(obj: &mut ConfigObject, lang: Lang, w: Written<'_>) {
    let name = w.name;
    let place = place(&w);
    let bare = name.rsplit('.').next().unwrap_or(name);
    // Environment variables are named apart from options; an option's name is no env var.
    let same = names::by_name(bare)
        .filter(|o| w.class.is_none_or(|c| o.config == c))
        .filter(|_| w.surface != Surface::Env);
    if let Some(o) = same {
        if let Some(here) = name_on(o, w.surface) {
            let msg = messages::unknown_name(lang, place, name);
            let d = obj.finding(FindingKind::UnknownOption, o.path, w.at, msg);
            d.hint = Some(messages::written_here(lang, o.name, &here));
        } else {
            let msg = messages::not_on_surface(lang, place, bare);
            let d = obj.finding(FindingKind::NotOnSurface, o.path, w.at, msg);
            d.hint = where_else(o, lang);
        }
        return;
    }
    let known: Vec<&'static str> = match w.surface {
        Surface::Estimator => names::estimator_names(w.class.unwrap_or("")).collect(),
        Surface::Session => names::session_names().collect(),
        Surface::Tf2 => names::tf2_names().collect(),
        Surface::Env => names::env_names().collect(),
    };
    let typo = names::typo_of(name, known);
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
    let msg = messages::unknown_name(lang, place, name);
    let d = obj.finding(FindingKind::UnknownOption, &option, w.at, msg);
    d.hint = typo.map(|s| messages::did_you_mean(lang, s));
}
