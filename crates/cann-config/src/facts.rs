//! An option's facts at a release, in words: the one place `cannctl explain` (terminal
//! text) and the language server's hover (Markdown) word them, so that a fact reads the
//! same in both. Each front end chooses which facts it shows and lays them out; how each
//! fact is said, from the catalog's entries, is here, once, in two [`Style`]s.

use cann_i18n::catalog::explain as msg;

use crate::history::{introduced_summary, removal_summary, spelling};
use crate::in_release::OptionIn;
use crate::meta::{describe_int_values, Lang, Lit, OptionMeta, RemovalMeta, ValueMeta};
use crate::Release;

/// How names and literals stand out from the words around them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Plain text for a terminal: literals as they are written.
    Terminal,
    /// Markdown for an editor: literals in code spans.
    Markdown,
}

impl Style {
    /// A literal, a key or a name as code.
    pub fn code(self, s: &str) -> String {
        match self {
            Style::Terminal => s.to_string(),
            Style::Markdown => format!("`{s}`"),
        }
    }

    /// What an option is replaced by: ` -> x`, or ` → `x``.
    fn replaced_by(self, with: &str) -> String {
        match self {
            Style::Terminal => format!(" -> {with}"),
            Style::Markdown => format!(" → `{with}`"),
        }
    }
}

/// A default or value as users write it, with the value's name: `0 (dynamic)`; unset
/// when there is none.
pub fn lit(o: &OptionMeta, l: Option<Lit>, style: Style, lang: Lang) -> String {
    match l {
        None => msg::label_unset(lang),
        Some(l) => match o.value(l) {
            Some(v) => format!("{} ({})", style.code(&l.to_string()), v.name),
            None => style.code(&l.to_string()),
        },
    }
}

/// The option's range in the release, with its unit and, for a bound no upstream source
/// states, that it is this project's advice.
pub fn range(at: &OptionIn, lang: Lang) -> String {
    let unit = at.option.unit.map(|u| format!(" {u}")).unwrap_or_default();
    let advice = at
        .range
        .and_then(|r| r.advice_note(lang))
        .map(|n| format!(" {n}"))
        .unwrap_or_default();
    format!(
        "{}{unit}{advice}",
        describe_int_values(at.range, at.option.special)
    )
}

/// Where the option stands in the release when that is news: retired, not read yet (or
/// any more), or perhaps not there yet.
pub fn standing(at: &OptionIn, lang: Lang) -> Option<String> {
    let (o, r) = (at.option, at.release.id());
    if let Some(gone) = o.removed_in(at.release) {
        Some(msg::removed_in(lang, r, &removal_summary(gone, lang)))
    } else if !at.read {
        Some(msg::not_read_in(lang, r, &o.available.describe(lang)))
    } else {
        o.uncertain_in(at.release)
            .map(|i| msg::may_not_exist_in(lang, r, &introduced_summary(i, lang)))
    }
}

/// The option's type, default and range in the release, and the defaults and ranges some
/// products have of their own: one `label: value` line each.
pub fn fields(at: &OptionIn, style: Style, lang: Lang) -> Vec<String> {
    let o = at.option;
    let field = |label: String, value: &str| msg::field(lang, &label, value);
    let mut out = vec![
        field(msg::label_type(lang), &style.code(&o.ty.describe())),
        field(msg::label_default(lang), &lit(o, at.default, style, lang)),
    ];
    if at.range.is_some() {
        out.push(field(msg::label_range(lang), &range(at, lang)));
    }
    let unit = o.unit.map(|u| format!(" {u}")).unwrap_or_default();
    for f in o.by_product {
        let on = f
            .products
            .iter()
            .map(|p| p.id())
            .collect::<Vec<_>>()
            .join(", ");
        if let Some(r) = f.range {
            let label = format!("{} ({on})", msg::label_range(lang));
            out.push(field(label, &format!("{r}{unit}")));
        }
        if let Some(d) = f.default {
            let label = format!("{} ({on})", msg::label_default(lang));
            out.push(field(label, &lit(o, Some(d), style, lang)));
        }
    }
    out
}

/// `deprecated since: R -> replacement`, when the option is deprecated.
pub fn deprecation(o: &OptionMeta, style: Style, lang: Lang) -> Option<String> {
    let d = o.deprecated?;
    let to = d
        .replacement
        .map(|r| style.replaced_by(r))
        .unwrap_or_default();
    Some(msg::field(
        lang,
        &msg::label_deprecated_since(lang),
        &format!("{}{to}", d.since),
    ))
}

/// `removed: when`, or `removed spelling x: when` for a spelling retired while the option
/// lives on.
pub fn removal(o: &OptionMeta, r: &RemovalMeta, style: Style, lang: Lang) -> String {
    let what = if r.is_whole() {
        msg::label_removed(lang)
    } else {
        format!(
            "{} {}",
            msg::label_removed_spelling(lang),
            style.code(&spelling(o, r))
        )
    };
    msg::field(lang, &what, &removal_summary(r, lang))
}

/// Why a value is not one to write in the release: retired, or not read in it.
pub fn value_standing(v: &ValueMeta, release: Release, lang: Lang) -> Option<String> {
    if let Some(r) = v.removed {
        return Some(msg::field(
            lang,
            &msg::label_removed(lang),
            &removal_summary(&r, lang),
        ));
    }
    (!v.available.contains(release))
        .then(|| msg::value_not_in(lang, release.id(), &v.available.describe(lang)))
}

/// One line per release whose facts differ from the release before: `from R: what`.
pub fn history(o: &'static OptionMeta, style: Style, lang: Lang) -> Vec<String> {
    o.history()
        .windows(2)
        .filter_map(|w| {
            let parts = changes(&w[0], &w[1], style, lang);
            (!parts.is_empty())
                .then(|| msg::change_from(lang, w[1].release.id(), &parts.join("; ")))
        })
        .collect()
}

fn changes(a: &OptionIn, b: &OptionIn, style: Style, lang: Lang) -> Vec<String> {
    let o = a.option;
    match (a.read, b.read) {
        (false, true) => return vec![msg::change_read(lang)],
        (true, false) => return vec![msg::change_not_read(lang)],
        (false, false) => return Vec::new(),
        (true, true) => {}
    }
    let mut out = Vec::new();
    if a.default != b.default {
        out.push(msg::change_default(
            lang,
            &lit(o, a.default, style, lang),
            &lit(o, b.default, style, lang),
        ));
    }
    if a.range != b.range {
        out.push(msg::change_range(lang, &range(a, lang), &range(b, lang)));
    }
    if a.ge_key != b.ge_key {
        let key = |k: Option<&str>| k.map_or_else(|| msg::none(lang), |k| style.code(k));
        out.push(msg::change_ge_key(lang, &key(a.ge_key), &key(b.ge_key)));
    }
    let lits = |x: &OptionIn| -> Vec<Lit> { x.available_values().map(|v| v.value.value).collect() };
    let (before, after) = (lits(a), lits(b));
    let list = |from: &[Lit], not_in: &[Lit]| -> Vec<String> {
        from.iter()
            .filter(|l| !not_in.contains(l))
            .map(|l| style.code(&l.to_string()))
            .collect()
    };
    let (added, gone) = (list(&after, &before), list(&before, &after));
    if !added.is_empty() {
        out.push(msg::change_values_added(lang, &added.join(", ")));
    }
    if !gone.is_empty() {
        out.push(msg::change_values_gone(lang, &gone.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OPTIONS;

    /// The two styles say the same words: Markdown only sets literals in code spans and
    /// the replacement arrow apart.
    #[test]
    fn markdown_is_the_terminal_text_with_code_spans() {
        let plain = |s: &str| s.replace('`', "").replace(" → ", " -> ");
        for lang in [Lang::En, Lang::Zh] {
            for o in OPTIONS.iter() {
                let at = o.in_release(Release::LATEST);
                let pairs = [
                    (
                        fields(&at, Style::Terminal, lang),
                        fields(&at, Style::Markdown, lang),
                    ),
                    (
                        history(o, Style::Terminal, lang),
                        history(o, Style::Markdown, lang),
                    ),
                    (
                        deprecation(o, Style::Terminal, lang).into_iter().collect(),
                        deprecation(o, Style::Markdown, lang).into_iter().collect(),
                    ),
                ];
                for (t, m) in pairs {
                    let m: Vec<String> = m.iter().map(|l| plain(l)).collect();
                    assert_eq!(t, m, "{}", o.path);
                }
            }
        }
    }
}
