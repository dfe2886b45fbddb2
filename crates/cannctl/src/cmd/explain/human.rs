//! `explain` for people: the chosen release's facts first, then what changed by release,
//! where to set the option, the support table, its rules and sources.

use std::fmt::Write as _;

use cann_config::history::{introduced_summary, removal_summary, spelling};
use cann_config::in_release::{OptionIn, ValueIn};
use cann_config::meta::{describe_int_values, Lang, Lit, OptionMeta, Severity};
use cann_config::Release;
use cann_i18n::catalog::explain as msg;

use super::{support_rows, View};

pub(super) fn render(view: &View) -> String {
    let (o, at, lang) = (view.option(), &view.at, view.lang);
    let r = at.release.id();
    let mut s = String::new();
    let _ = writeln!(s, "{} ({})\n  {}\n", o.name, o.config, o.path);
    let _ = writeln!(s, "{}\n", o.doc.get(lang));
    let _ = writeln!(
        s,
        "{}",
        if view.chosen {
            msg::release_chosen(lang, r)
        } else {
            msg::release_newest(lang, r)
        }
    );
    if let Some(gone) = o.removed_in(at.release) {
        let _ = writeln!(
            s,
            "{}",
            msg::removed_in(lang, r, &removal_summary(gone, lang))
        );
    } else if !at.read {
        let _ = writeln!(
            s,
            "{}",
            msg::not_read_in(lang, r, &o.available.describe(lang))
        );
    } else if let Some(i) = o.uncertain_in(at.release) {
        let _ = writeln!(
            s,
            "{}",
            msg::may_not_exist_in(lang, r, &introduced_summary(i, lang))
        );
    }
    facts(&mut s, at, lang);
    values(&mut s, at, lang);
    retirement(&mut s, o, lang);
    history(&mut s, o, lang);
    surfaces(&mut s, at, lang);
    support(&mut s, o, lang);
    if !view.rules.is_empty() {
        let _ = writeln!(s, "\n{}", msg::heading(lang, &msg::label_rules(lang)));
        for rule in &view.rules {
            let when = rule
                .conditions
                .iter()
                .map(|c| format!("`{c}`"))
                .reduce(|a, b| msg::both(lang, &a, &b))
                .unwrap_or_default();
            let head = msg::rule_line(lang, rule.id, &severity(rule.severity, lang), &when);
            let _ = writeln!(s, "  {head}\n    {}", rule.message.get(lang));
            if !rule.available.contains(at.release) {
                let _ = writeln!(s, "    [{}]", msg::rule_not_stated(lang, r));
            }
        }
    }
    if !o.source.is_empty() {
        let _ = writeln!(s, "\n{}", msg::heading(lang, &msg::label_sources(lang)));
        for src in o.source {
            let _ = writeln!(s, "  {src}");
        }
    }
    s
}

/// A default or value as users write it, with the value's name: `0 (dynamic)`.
fn lit(o: &OptionMeta, l: Option<Lit>, lang: Lang) -> String {
    match l {
        None => msg::label_unset(lang),
        Some(l) => match o.value(l) {
            Some(v) => format!("{l} ({})", v.name),
            None => l.to_string(),
        },
    }
}

fn range(at: &OptionIn, lang: Lang) -> String {
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

fn facts(s: &mut String, at: &OptionIn, lang: Lang) {
    let o = at.option;
    let field = |label: String, value: &str| msg::field(lang, &label, value);
    let _ = writeln!(s, "{}", field(msg::label_type(lang), &o.ty.describe()));
    let _ = writeln!(
        s,
        "{}",
        field(msg::label_default(lang), &lit(o, at.default, lang))
    );
    if at.range.is_some() {
        let _ = writeln!(s, "{}", field(msg::label_range(lang), &range(at, lang)));
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
            let _ = writeln!(s, "{}", field(label, &format!("{r}{unit}")));
        }
        if let Some(d) = f.default {
            let label = format!("{} ({on})", msg::label_default(lang));
            let _ = writeln!(s, "{}", field(label, &lit(o, Some(d), lang)));
        }
    }
}

fn values(s: &mut String, at: &OptionIn, lang: Lang) {
    if at.values.is_empty() {
        return;
    }
    let _ = writeln!(s, "{}", msg::heading(lang, &msg::label_values(lang)));
    for v in &at.values {
        let meta = v.value;
        let mut also = String::new();
        if !meta.aliases.is_empty() {
            let aliases: Vec<String> = meta.aliases.iter().map(|a| a.to_string()).collect();
            let _ = write!(also, " {}", msg::also(lang, &aliases.join(", ")));
        }
        if let Some(mark) = availability(at, v, lang) {
            let _ = write!(also, " [{mark}]");
        }
        let _ = writeln!(
            s,
            "  {:<16} {}{also}\n  {:<16} {}",
            meta.lit.to_string(),
            meta.name,
            "",
            meta.doc.get(lang)
        );
        if v.available && meta.products.is_some() && v.products != at.products {
            let text = if v.products.is_empty() {
                msg::value_no_product(lang, at.release.id())
            } else {
                let ids: Vec<&str> = v.products.iter().map(|p| p.id()).collect();
                msg::value_products(lang, at.release.id(), &lang.join(ids))
            };
            let _ = writeln!(s, "  {:<16} {text}", "");
        }
    }
}

/// Why a value is marked: retired, not in the chosen release, or in fewer releases than its
/// option.
fn availability(at: &OptionIn, v: &ValueIn, lang: Lang) -> Option<String> {
    let meta = v.value;
    if let Some(r) = meta.removed {
        return Some(msg::field(
            lang,
            &msg::label_removed(lang),
            &removal_summary(&r, lang),
        ));
    }
    if !v.available && at.read {
        return Some(msg::value_not_in(
            lang,
            at.release.id(),
            &meta.available.describe(lang),
        ));
    }
    // Only a narrower span than the option's is news.
    let narrower = at
        .option
        .available
        .releases()
        .any(|r| !meta.available.contains(r));
    narrower.then(|| meta.available.describe(lang))
}

fn retirement(s: &mut String, o: &OptionMeta, lang: Lang) {
    if let Some(i) = o.introduced {
        let _ = writeln!(
            s,
            "{}\n  {}",
            msg::field(
                lang,
                &msg::label_introduced(lang),
                &introduced_summary(&i, lang)
            ),
            msg::field(lang, &msg::label_sources(lang), &i.source.join("; "))
        );
    }
    if let Some(d) = o.deprecated {
        let to = d
            .replacement
            .map(|r| format!(" -> {r}"))
            .unwrap_or_default();
        let since = format!("{}{to}", d.since);
        let _ = writeln!(
            s,
            "{}",
            msg::field(lang, &msg::label_deprecated_since(lang), &since)
        );
    }
    for r in o.removed {
        let what = if r.is_whole() {
            msg::label_removed(lang)
        } else {
            format!("{} {}", msg::label_removed_spelling(lang), spelling(o, r))
        };
        let _ = writeln!(
            s,
            "{}\n  {}",
            msg::field(lang, &what, &removal_summary(r, lang)),
            r.note.get(lang)
        );
        if r.ignores_empty() {
            // What lint says of `x = ""`: no error, no effect.
            let _ = writeln!(
                s,
                "  {}",
                msg::field(lang, &msg::empty_ignored(lang), &r.empty_ignored.join("; "))
            );
        }
    }
}

/// One line per release whose facts differ from the release before.
fn history(s: &mut String, o: &'static OptionMeta, lang: Lang) {
    let h = o.history();
    let lines: Vec<String> = h
        .windows(2)
        .filter_map(|w| {
            let parts = changes(&w[0], &w[1], lang);
            (!parts.is_empty())
                .then(|| msg::change_from(lang, w[1].release.id(), &parts.join("; ")))
        })
        .collect();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n{}", msg::heading(lang, &msg::label_history(lang)));
    for l in lines {
        let _ = writeln!(s, "  {l}");
    }
}

fn changes(a: &OptionIn, b: &OptionIn, lang: Lang) -> Vec<String> {
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
            &lit(o, a.default, lang),
            &lit(o, b.default, lang),
        ));
    }
    if a.range != b.range {
        out.push(msg::change_range(lang, &range(a, lang), &range(b, lang)));
    }
    if a.ge_key != b.ge_key {
        let key = |k: Option<&str>| k.map_or_else(|| msg::none(lang), str::to_string);
        out.push(msg::change_ge_key(lang, &key(a.ge_key), &key(b.ge_key)));
    }
    let lits = |x: &OptionIn| -> Vec<Lit> { x.available_values().map(|v| v.value.lit).collect() };
    let (before, after) = (lits(a), lits(b));
    let added: Vec<String> = after
        .iter()
        .filter(|l| !before.contains(l))
        .map(|l| l.to_string())
        .collect();
    let gone: Vec<String> = before
        .iter()
        .filter(|l| !after.contains(l))
        .map(|l| l.to_string())
        .collect();
    if !added.is_empty() {
        out.push(msg::change_values_added(lang, &added.join(", ")));
    }
    if !gone.is_empty() {
        out.push(msg::change_values_gone(lang, &gone.join(", ")));
    }
    out
}

fn surfaces(s: &mut String, at: &OptionIn, lang: Lang) {
    let o = at.option;
    let _ = writeln!(s, "\n{}", msg::heading(lang, &msg::label_how_to_set(lang)));
    let mut line = |label: String, how: String| {
        let pad = 14usize.saturating_sub(width(&label));
        let _ = writeln!(s, "  {label}{:pad$} {how}", "");
    };
    if let Some(k) = at.ge_key {
        line(msg::surface_ge(lang), k.to_string());
    }
    if let Some(e) = o.estimator {
        line(
            msg::surface_estimator(lang),
            format!("{}({e}=...)", o.config),
        );
    }
    if let Some((n, a)) = o.session {
        line(
            msg::surface_session(lang),
            format!("custom_op.parameter_map[\"{n}\"].{} = ...", a.as_str()),
        );
    }
    if let Some(p) = o.tf2 {
        line(
            msg::surface_tf2(lang),
            format!("npu.global_options().{p} = ..."),
        );
    }
    if let Some(e) = o.env {
        line(msg::surface_env(lang), format!("export {e}=..."));
    }
}

fn support(s: &mut String, o: &OptionMeta, lang: Lang) {
    let heading = msg::heading(lang, &msg::label_support_by_release(lang));
    let _ = write!(s, "\n{heading}\n  {:<20}", "");
    for r in Release::ALL {
        let _ = write!(s, " {:>8}", r.id());
    }
    s.push('\n');
    let yes = msg::supported(lang);
    for (p, row) in support_rows(o) {
        let _ = write!(s, "  {p:<20}");
        for ok in row {
            let cell = if ok { yes.as_str() } else { "-" };
            let pad = 8usize.saturating_sub(width(cell));
            let _ = write!(s, " {:pad$}{cell}", "");
        }
        s.push('\n');
    }
}

/// Columns a text takes in a terminal: Chinese characters take two, so columns line up.
fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

fn severity(s: Severity, lang: Lang) -> String {
    use cann_i18n::catalog::cli;
    match s {
        Severity::Error => cli::label_error(lang),
        Severity::Warning => cli::label_warning(lang),
        Severity::Note => cli::label_note(lang),
    }
}
