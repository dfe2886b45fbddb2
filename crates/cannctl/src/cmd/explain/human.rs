//! `explain` for people: the chosen release's facts first, then what changed by release,
//! where to set the option, the support table, its rules and sources.

use std::fmt::Write as _;

use cann_config::facts::{self, Style};
use cann_config::history::introduced_summary;
use cann_config::in_release::{OptionIn, ValueIn};
use cann_config::meta::{Lang, OptionMeta, Severity};
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
    if let Some(line) = facts::standing(at, lang) {
        let _ = writeln!(s, "{line}");
    }
    for line in facts::fields(at, Style::Terminal, lang) {
        let _ = writeln!(s, "{line}");
    }
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
            meta.value.to_string(),
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
    if meta.removed.is_some() || (!v.available && at.read) {
        return facts::value_standing(meta, at.release, lang);
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
    if let Some(d) = facts::deprecation(o, Style::Terminal, lang) {
        let _ = writeln!(s, "{d}");
    }
    for r in o.removed {
        let _ = writeln!(
            s,
            "{}\n  {}",
            facts::removal(o, r, Style::Terminal, lang),
            r.note.get(lang)
        );
        if r.ignores_empty() {
            // What lint says of `x = ""`: no error, no effect.
            let _ = writeln!(
                s,
                "  {}",
                msg::field(
                    lang,
                    &msg::empty_ignored(lang),
                    &r.empty_ignored.unwrap_or_default().join("; ")
                )
            );
        }
    }
}

/// One line per release whose facts differ from the release before.
fn history(s: &mut String, o: &'static OptionMeta, lang: Lang) {
    let lines = facts::history(o, Style::Terminal, lang);
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n{}", msg::heading(lang, &msg::label_history(lang)));
    for l in lines {
        let _ = writeln!(s, "  {l}");
    }
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
