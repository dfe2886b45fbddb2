//! Hover text: an option's (or a value's) facts at the configured release, as Markdown,
//! from the spec's tables and worded by the catalog `cannctl explain` uses.

use std::fmt::Write as _;

use cann_config::history::removal_summary;
use cann_config::in_release::OptionIn;
use cann_config::meta::{describe_int_values, Lang, Lit, OptionMeta, ValueMeta};
use cann_config::{Product, Release};
use cann_i18n::catalog::explain as msg;

/// What the hover is about, and where.
#[derive(Debug, Clone, Copy)]
pub struct At {
    pub release: Release,
    pub product: Option<Product>,
    pub lang: Lang,
}

fn lit(o: &OptionMeta, l: Option<Lit>, lang: Lang) -> String {
    match l {
        None => msg::label_unset(lang),
        Some(l) => match o.value(l) {
            Some(v) => format!("`{l}` ({})", v.name),
            None => format!("`{l}`"),
        },
    }
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
    if let Some(gone) = o.removed_in(at.release) {
        let _ = writeln!(
            s,
            "{}\n",
            msg::removed_in(lang, r, &removal_summary(gone, lang))
        );
    } else if !here.read {
        let _ = writeln!(
            s,
            "{}\n",
            msg::not_read_in(lang, r, &o.available.describe(lang))
        );
    }
    let field = |label: String, value: &str| format!("- {}\n", msg::field(lang, &label, value));
    s.push_str(&field(msg::label_type(lang), &format!("`{}`", o.ty.name())));
    s.push_str(&field(
        msg::label_default(lang),
        &lit(o, here.default, lang),
    ));
    if here.range.is_some() {
        let unit = o.unit.map(|u| format!(" {u}")).unwrap_or_default();
        let range = format!("{}{unit}", describe_int_values(here.range, o.special));
        s.push_str(&field(msg::label_range(lang), &range));
    }
    if let Some(k) = here.ge_key {
        s.push_str(&field(msg::surface_ge(lang), &format!("`{k}`")));
    }
    products(&mut s, &here, at);
    if let Some(d) = o.deprecated.filter(|d| d.since <= at.release) {
        let to = d
            .replacement
            .map(|r| format!(" → `{r}`"))
            .unwrap_or_default();
        s.push_str(&field(
            msg::label_deprecated_since(lang),
            &format!("{}{to}", d.since),
        ));
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
        let _ = writeln!(s, "- `{}`: {}", v.value.lit, v.value.doc.get(lang));
    }
}

fn history(s: &mut String, o: &'static OptionMeta, lang: Lang) {
    let h = o.history();
    let mut lines = Vec::new();
    for w in h.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        let what = match (a.read, b.read) {
            (false, true) => msg::change_read(lang),
            (true, false) => msg::change_not_read(lang),
            (true, true) if a.default != b.default => {
                msg::change_default(lang, &lit(o, a.default, lang), &lit(o, b.default, lang))
            }
            _ => continue,
        };
        lines.push(msg::change_from(lang, b.release.id(), &what));
    }
    for r in o.removed {
        lines.push(msg::field(
            lang,
            &msg::label_removed(lang),
            &removal_summary(r, lang),
        ));
    }
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
        v.lit,
        v.name,
        o.name,
        v.doc.get(lang)
    );
    if let Some(r) = v.removed {
        let _ = writeln!(
            s,
            "\n{}",
            msg::field(lang, &msg::label_removed(lang), &removal_summary(&r, lang))
        );
    } else if !v.available.contains(at.release) {
        let _ = writeln!(
            s,
            "\n{}",
            msg::value_not_in(lang, at.release.id(), &v.available.describe(lang))
        );
    }
    if let Some(w) = v.warning {
        let _ = writeln!(s, "\n{}", w.get(lang));
    }
    s
}
