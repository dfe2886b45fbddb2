//! A name that is not an option on the surface it was written on: the option under another
//! name here, an option this surface does not offer, a likely typo, or a name the adapter
//! does not know at all.

use cann_config::meta::{Lang, OptionMeta, RemovalMeta};
use cann_config::yaml::{Node as Value, Pos};

use super::ConfigObject;
use crate::messages::{self, Place};
use crate::{names, surface};
use crate::{Edit, FindingKind, Fix, Surface};

/// What was written and where, on which surface.
pub(super) struct Written<'a> {
    pub surface: Surface,
    /// As written: a kwarg, a `parameter_map` key, or a dotted path below `global_options()`.
    pub name: &'a str,
    /// The estimator class, whose options alone a kwarg may name.
    pub class: Option<&'a str>,
    pub at: Pos,
    /// The bytes of the name's last segment, which a rename replaces.
    pub span: Option<std::ops::Range<usize>>,
    /// The `parameter_map` accessor written (`"s"`, `"list"`...).
    pub accessor: Option<&'a str>,
    /// The value, when it is a literal.
    pub value: Option<&'a Value>,
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

/// A rename of the written name to `to`, when only the last segment differs.
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
    if let Some((o, r)) = names::retired(w.surface, w.class, name) {
        retired(obj, lang, &w, o, r);
        return;
    }
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
            let renamed = surface_name(o, w.surface)
                .filter(|_| fits(&w, o, lang))
                .and_then(|to| rename(&w, to, lang));
            if let Some(f) = obj.last_finding() {
                f.fix = renamed;
            }
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
    let typo = names::typos(name, known);
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

/// How `o` is named on the surface.
fn surface_name(o: &OptionMeta, s: Surface) -> Option<&'static str> {
    match s {
        Surface::Estimator => o.estimator,
        Surface::Session => o.session.map(|(n, _)| n),
        Surface::Tf2 => o.tf2,
        Surface::Env => o.env,
    }
}

/// A spelling the spec says the adapter stopped taking here: why it went and what replaces
/// it, from the spec's retirement (never the option's other surfaces, which may be gone too).
fn retired(
    obj: &mut ConfigObject,
    lang: Lang,
    w: &Written<'_>,
    o: &'static OptionMeta,
    r: &'static RemovalMeta,
) {
    if w.surface == Surface::Env {
        // A variable nothing reads any more may still be the script's own: a warning, the
        // same words as `check`.
        let found = cann_config::history::env_no_longer_read(o, r, lang);
        let d = obj.finding(FindingKind::NotOnSurface, o.path, w.at, found.message);
        d.severity = found.severity;
        d.hint = found.hint;
        return;
    }
    let msg = messages::retired_name(lang, place(w), w.name, r);
    let replacement = r
        .replacement
        .and_then(|p| cann_config::OPTIONS.iter().find(|x| x.path == p))
        .and_then(|x| name_on(x, w.surface));
    let d = obj.finding(FindingKind::NotOnSurface, o.path, w.at, msg);
    d.expected = cann_config::history::removal_expected(r, lang);
    d.hint = Some(messages::retired_hint(lang, r, replacement.as_deref()));
}
