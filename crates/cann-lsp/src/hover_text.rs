//! Hover text: an option's (or a value's) facts at the configured release, as Markdown,
//! worded by the renderer `cannctl explain` uses ([`cann_config::facts`]); this file only
//! chooses the facts a hover shows and lays them out.

use std::fmt::Write as _;

use cann_config::facts::{self, Style};
use cann_config::in_release::OptionIn;
use cann_config::meta::{Lang, OptionMeta, ValueMeta};
use cann_config::{Product, Release};
use cann_i18n::catalog::explain as msg;

/// What the hover is about, and where.
#[derive(Debug, Clone, Copy)]
pub struct At {
    pub release: Release,
    pub product: Option<Product>,
    pub lang: Lang,
}

/// The option's description, type, default, values or range, graph-engine key, products
/// and history, at `at.release`.
pub fn option(o: &'static OptionMeta, at: At) -> String {
    let lang = at.lang;
    let here = o.in_release(at.release);
    let r = at.release.id();
    let mut s = String::new();
    let _ = writeln!(s, "**{}** ({})  \n`{}`\n", o.name, o.config, o.path);
    let _ = writeln!(s, "{}\n", o.doc.get(lang));
    let _ = writeln!(s, "{}\n", msg::release_chosen(lang, r));
    if let Some(line) = facts::standing(&here, lang) {
        let _ = writeln!(s, "{line}\n");
    }
    for line in facts::fields(&here, Style::Markdown, lang) {
        let _ = writeln!(s, "- {line}");
    }
    if let Some(k) = here.ge_key {
        let _ = writeln!(
            s,
            "- {}",
            msg::field(lang, &msg::surface_ge(lang), &format!("`{k}`"))
        );
    }
    products(&mut s, &here, at);
    if o.deprecated.is_some_and(|d| d.since <= at.release) {
        if let Some(d) = facts::deprecation(o, Style::Markdown, lang) {
            let _ = writeln!(s, "- {d}");
        }
    }
    values(&mut s, &here, lang);
    history(&mut s, o, lang);
    s
}

fn products(s: &mut String, here: &OptionIn, at: At) {
    let lang = at.lang;
    let names: Vec<String> = here
        .products
        .iter()
        .map(|p| {
            let n = p.meta().name.get(lang).to_string();
            if Some(*p) == at.product {
                format!("**{n}**")
            } else {
                n
            }
        })
        .collect();
    let text = if names.is_empty() {
        msg::value_no_product(lang, here.release.id())
    } else {
        msg::value_products(lang, here.release.id(), &names.join(", "))
    };
    let _ = writeln!(s, "- {text}");
}

fn values(s: &mut String, here: &OptionIn, lang: Lang) {
    let available: Vec<_> = here.available_values().collect();
    if available.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n{}", msg::heading(lang, &msg::label_values(lang)));
    for v in available {
        let _ = writeln!(s, "- `{}`: {}", v.value.value, v.value.doc.get(lang));
    }
}

fn history(s: &mut String, o: &'static OptionMeta, lang: Lang) {
    let mut lines = facts::history(o, Style::Markdown, lang);
    lines.extend(
        o.removed
            .iter()
            .map(|r| facts::removal(o, r, Style::Markdown, lang)),
    );
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n{}", msg::heading(lang, &msg::label_history(lang)));
    for l in lines {
        let _ = writeln!(s, "- {l}");
    }
}

/// A value's description, with its option's name and whether the release takes it.
pub fn value(o: &'static OptionMeta, v: &'static ValueMeta, at: At) -> String {
    let lang = at.lang;
    let mut s = format!(
        "`{}` ({}) — **{}**\n\n{}\n",
        v.value,
        v.name,
        o.name,
        v.doc.get(lang)
    );
    if let Some(line) = facts::value_standing(v, at.release, lang) {
        let _ = writeln!(s, "\n{line}");
    }
    if let Some(w) = v.warning {
        let _ = writeln!(s, "\n{}", w.get(lang));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hover says each fact `cannctl explain` states about the release, in the same
    /// words (the shared renderer's, in Markdown): where the two had drifted apart (the
    /// type of a Python-object option, the advice note of a range, per-product defaults,
    /// range and key changes in the history, "may not exist yet"), the hover now has it.
    #[test]
    fn a_hover_says_what_explain_says_for_every_option() {
        for lang in [Lang::En, Lang::Zh] {
            for release in [Release::LATEST, Release::ALL[0]] {
                for o in cann_config::OPTIONS.iter() {
                    let at = At {
                        release,
                        product: None,
                        lang,
                    };
                    let h = option(o, at);
                    let here = o.in_release(release);
                    let mut want = facts::fields(&here, Style::Markdown, lang);
                    want.extend(facts::history(o, Style::Markdown, lang));
                    want.extend(facts::standing(&here, lang));
                    for line in want {
                        assert!(h.contains(&line), "{}: {line}\n{h}", o.path);
                    }
                }
            }
        }
    }
}
