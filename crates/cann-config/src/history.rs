//! Retired and deprecated options in words. Validation, lint, `explain` and `diff` say the
//! same thing from the same spec facts (`OptionMeta::removed`, `deprecated`); the texts
//! themselves live in the catalog (`cann_i18n::catalog::config`).

use cann_i18n::catalog::config as msg;

use crate::meta::{
    Gone, IntroducedMeta, Lang, OptionMeta, RemovalMeta, Severity, Text, ValueMapMeta, ValueMeta,
};
use crate::Diagnostic;
use crate::Release;

/// "`x` was removed: 7.0.0 is the last release that supports it", "... no release since X
/// supports it", or "`x` has no effect: no release of the adapter reads it".
pub fn removed_message(what: &str, r: &RemovalMeta, lang: Lang) -> String {
    r.gone.sentence(what, lang)
}

/// The value mappings as `old -> new`, comma-separated.
pub fn mapping_text(values: &[ValueMapMeta]) -> String {
    values
        .iter()
        .map(|m| format!("{} -> {}", m.from, m.to))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What to do instead: the replacement (with the value mapping) and the spec's note.
pub fn replacement_hint(
    replacement: Option<&str>,
    values: &[ValueMapMeta],
    note: Text,
    lang: Lang,
) -> String {
    match replacement {
        Some(r) if values.is_empty() => msg::use_instead(lang, r, note),
        Some(r) => msg::use_mapped_instead(lang, r, &mapping_text(values), note),
        None => note.get(lang).to_string(),
    }
}

/// When the adapter stopped reading what `r` retired, in a few words.
fn gone_when(r: &RemovalMeta, lang: Lang) -> String {
    match r.gone {
        Gone::After(l) => msg::gone_after(lang, l.id()),
        Gone::Before(b) => msg::gone_before(lang, b.id()),
        Gone::Never => msg::gone_never(lang),
    }
}

/// A retired environment variable: a warning that nothing reads it any more, since the
/// name may be the script's own (validation and lint say the same).
pub fn env_no_longer_read(o: &OptionMeta, r: &RemovalMeta, lang: Lang) -> Diagnostic {
    let name = o.env.unwrap_or(o.name);
    let mut d = Diagnostic::new(
        Severity::Warning,
        o.path,
        msg::env_no_longer_read(lang, name, &gone_when(r, lang)),
    );
    d.hint = Some(replacement_hint(r.replacement, r.values, r.note, lang));
    d
}

/// Whether `o` is an environment variable rather than an option of a Python class.
pub fn is_env(o: &OptionMeta) -> bool {
    crate::CONFIGS
        .iter()
        .any(|c| c.name == o.config && c.kind == crate::meta::ConfigKind::Environment)
}

/// An error for a retired option set in a release that no longer supports it; for a
/// retired environment variable, the warning of [`env_no_longer_read`].
pub fn removed_option(o: &OptionMeta, r: &RemovalMeta, lang: Lang) -> Diagnostic {
    if is_env(o) {
        return env_no_longer_read(o, r, lang);
    }
    let mut d = Diagnostic::new(
        Severity::Error,
        o.path,
        removed_message(&format!("`{}`", o.name), r, lang),
    );
    d.expected = removal_expected(r, lang);
    d.hint = Some(replacement_hint(r.replacement, r.values, r.note, lang));
    d
}

/// The removal under which `value` of `o` does no harm in `release`: the option is gone
/// there, the value is empty, and the spec's removal says upstream still accepts an empty
/// value and ignores it (`empty_ignored`). Validation and lint both ask this.
pub fn empty_ignored_in(
    o: &OptionMeta,
    release: Release,
    value: &str,
) -> Option<&'static RemovalMeta> {
    o.removed_in(release)
        .filter(|r| value.is_empty() && r.ignores_empty())
}

/// A warning for a retired option set to the empty value upstream ignores (see
/// [`empty_ignored_in`]): the setting has no effect, which is not the removal's error.
pub fn empty_ignored(o: &OptionMeta, r: &RemovalMeta, lang: Lang) -> Diagnostic {
    let gone = removed_message(&format!("`{}`", o.name), r, lang);
    let mut d = Diagnostic::new(
        Severity::Warning,
        o.path,
        msg::empty_setting_ignored(lang, &gone),
    )
    .with_value("\"\"");
    d.hint = Some(replacement_hint(r.replacement, r.values, r.note, lang));
    d
}

/// The releases that still take what `r` retired, as a finding's "expected".
pub fn removal_expected(r: &RemovalMeta, lang: Lang) -> Option<String> {
    match r.gone {
        Gone::After(last) => Some(msg::up_to_release(lang, last.id())),
        Gone::Before(b) => Some(msg::before_release(lang, b.id())),
        Gone::Never => None,
    }
}

/// An error for a retired value of an option, with the value to use instead.
pub fn removed_value(o: &OptionMeta, v: &ValueMeta, r: &RemovalMeta, lang: Lang) -> Diagnostic {
    let what = msg::value_of(lang, &v.value.to_string(), o.name);
    let mut d = Diagnostic::new(Severity::Error, o.path, removed_message(&what, r, lang))
        .with_value(v.value);
    d.hint = Some(match r.map(&v.value) {
        Some(to) => msg::use_value_instead(lang, &to.to_string(), r.note),
        None => r.note.get(lang).to_string(),
    });
    d
}

/// "last supported in 7.0.0; use `x` (a -> b)": a removal in one line.
pub fn removal_summary(r: &RemovalMeta, lang: Lang) -> String {
    let when = gone_when(r, lang);
    let map = if r.values.is_empty() {
        String::new()
    } else {
        format!(" ({})", mapping_text(r.values))
    };
    match (r.replacement, r.values.first()) {
        (Some(rep), _) => msg::gone_use(lang, &when, &format!("{rep}{map}")),
        // A removed value names the value to use instead.
        (None, Some(m)) => msg::gone_use(lang, &when, &m.to.to_string()),
        (None, None) => when,
    }
}

/// How users wrote a retired spelling: `NPURunConfig(x=...)`, `parameter_map["x"]`, ...
pub fn spelling(o: &OptionMeta, r: &RemovalMeta) -> String {
    let mut parts = Vec::new();
    if let Some(e) = r.surfaces.estimator {
        parts.push(format!("{}({e}=...)", o.config));
    }
    if let Some((n, a)) = r.surfaces.session {
        parts.push(format!("parameter_map[\"{n}\"].{}", a.as_str()));
    }
    if let Some(p) = r.surfaces.tf2 {
        parts.push(format!("npu.global_options().{p}"));
    }
    if let Some(e) = r.surfaces.env {
        parts.push(format!("${e}"));
    }
    parts.join(", ")
}

/// "added after 7.0.0, first recorded in 9.0.0; the release in between is not known".
pub fn introduced_summary(i: &IntroducedMeta, lang: Lang) -> String {
    introduced_text(i.after, i.first_recorded.id(), lang)
}

/// As [`introduced_summary`], from the ids (the docs generator reads the spec itself).
pub fn introduced_text(after: &str, first_recorded: &str, lang: Lang) -> String {
    msg::introduced_unknown(lang, after, first_recorded)
}

/// A note for an option set for a release that may predate it: not an error, since the
/// spec cannot say it is missing there, and not silence, since it cannot say it is present.
pub fn may_not_exist(o: &OptionMeta, release: Release, lang: Lang) -> Option<Diagnostic> {
    let i = o.uncertain_in(release)?;
    let mut d = Diagnostic::new(
        Severity::Note,
        o.path,
        msg::may_not_exist(lang, o.name, release.id(), &introduced_summary(i, lang)),
    );
    d.hint = Some(msg::may_not_exist_hint(lang, i.first_recorded.id()));
    Some(d)
}
