//! A name that is not an option on the surface it was written on: the option under another
//! name here, an option this surface does not offer, a likely typo, or (most often) an
//! option the spec does not model, which is left alone.

use cann_config::meta::{Lang, OptionMeta};
use cann_config::yaml::Pos;

use super::{t, ConfigObject};
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
    (!ways.is_empty()).then(|| {
        t(
            lang,
            format!("it is set through {}", ways.join(" or ")),
            format!("可通过 {} 设置", ways.join(" 或 ")),
        )
    })
}

pub(super) fn report(obj: &mut ConfigObject, lang: Lang, w: Written<'_>) {
    let (what_en, what_zh, where_en, where_zh) = match (w.surface, w.class) {
        (Surface::Estimator, c) => {
            let c = c.unwrap_or("NPURunConfig");
            (
                format!("{c} argument"),
                format!("{c} 参数"),
                format!("as an argument of {c}"),
                format!("作为 {c} 的参数设置"),
            )
        }
        (Surface::Session, _) => (
            "parameter_map key".into(),
            "parameter_map 键".into(),
            "through a session's parameter_map".into(),
            "通过 session 的 parameter_map 设置".into(),
        ),
        (Surface::Tf2, _) => (
            "npu.global_options() option".into(),
            "npu.global_options() 选项".into(),
            "through npu.global_options()".into(),
            "通过 npu.global_options() 设置".into(),
        ),
        (Surface::Env, _) => (
            "environment variable".into(),
            "环境变量".into(),
            "as an environment variable".into(),
            "作为环境变量设置".into(),
        ),
    };
    let name = w.name;
    let bare = name.rsplit('.').next().unwrap_or(name);
    // Environment variables are named apart from options; an option's name is no env var.
    let same = names::by_name(bare)
        .filter(|o| w.class.is_none_or(|c| o.config == c))
        .filter(|_| w.surface != Surface::Env);
    if let Some(o) = same {
        if let Some(here) = name_on(o, w.surface) {
            let msg = t(
                lang,
                format!("unknown {what_en} `{name}`"),
                format!("未知的 {what_zh} `{name}`"),
            );
            let d = obj.finding(FindingKind::UnknownOption, o.path, w.at, msg);
            d.hint = Some(t(
                lang,
                format!("option `{}` is written `{here}` here", o.name),
                format!("选项 `{}` 在此处写作 `{here}`", o.name),
            ));
        } else {
            let msg = t(
                lang,
                format!("`{bare}` cannot be set {where_en}"),
                format!("`{bare}` 不能{where_zh}"),
            );
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
    let Some(s) = names::typo_of(name, known) else {
        return;
    };
    // A wrong keyword argument fails loudly in Python; a wrong key or attribute is ignored.
    let silent = w.surface != Surface::Estimator;
    let msg = t(
        lang,
        format!(
            "unknown {what_en} `{name}`{}",
            if silent { "; it has no effect" } else { "" }
        ),
        format!(
            "未知的 {what_zh} `{name}`{}",
            if silent {
                "，该设置不会生效"
            } else {
                ""
            }
        ),
    );
    // Keep the option path shape of other findings: the class's place, then the name.
    let option = match w
        .class
        .and_then(names::python_class)
        .and_then(names::class_path)
    {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    };
    let d = obj.finding(FindingKind::UnknownOption, &option, w.at, msg);
    d.hint = Some(t(
        lang,
        format!("did you mean `{s}`?"),
        format!("是否应为 `{s}`？"),
    ));
}
