//! `not-on-surface`: an option set through an API that does not offer it, or a spelling
//! the adapter stopped taking there (the spec's retirement says why and what replaces it).
//!
//! ```python
//! npu.global_options().enable_data_pre_proc = True   # NPURunConfig and parameter_map offer it, TF2 does not
//! ```
//!
//! The hint names every way the option is set; a retired spelling's hint names its
//! replacement on the same surface, never the option's other surfaces, which may be gone
//! too. An environment variable nothing reads any more may still be the script's own: a
//! warning with the same words as `check`.

use cann_config::meta::{Lang, OptionMeta, RemovalMeta};
use cann_i18n::catalog::lint as msg;

use super::{name_on, Rule};
use crate::messages;
use crate::object::{ConfigObject, Written};
use crate::{FindingKind, Surface};

pub(crate) static RULE: Rule = Rule {
    kind: FindingKind::NotOnSurface,
    id: "not-on-surface",
    summary: msg::rule_not_on_surface,
};

/// `o`, under its own name, on a surface that does not offer it.
pub(super) fn elsewhere(obj: &mut ConfigObject, lang: Lang, w: &Written<'_>, o: &OptionMeta) {
    let bare = w.name.rsplit('.').next().unwrap_or(w.name);
    let text = messages::not_on_surface(lang, w.place(), bare);
    let d = obj.finding(&RULE, o.path, w.at, text);
    d.hint = where_else(o, lang);
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

/// A spelling the spec says the adapter stopped taking here.
pub(super) fn retired(
    obj: &mut ConfigObject,
    lang: Lang,
    w: &Written<'_>,
    o: &'static OptionMeta,
    r: &'static RemovalMeta,
) {
    if w.surface == Surface::Env {
        let found = cann_config::history::env_no_longer_read(o, r, lang);
        let d = obj.finding(&RULE, o.path, w.at, found.message);
        d.severity = found.severity;
        d.hint = found.hint;
        return;
    }
    let text = messages::retired_name(lang, w.place(), w.name, r);
    let replacement = r
        .replacement
        .and_then(|p| cann_config::OPTIONS.iter().find(|x| x.path == p))
        .and_then(|x| name_on(x, w.surface));
    let d = obj.finding(&RULE, o.path, w.at, text);
    d.expected = cann_config::history::removal_expected(r, lang);
    d.hint = Some(messages::retired_hint(lang, r, replacement.as_deref()));
}
