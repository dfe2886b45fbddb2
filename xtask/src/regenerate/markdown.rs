//! `docs/reference.md`: the option reference as one Markdown file for the repository.

use std::fmt::Write;

use cann_spec::{OptionSpec, OptionType, Spec};

use super::by_release;
use super::facts::{Facts, ReleaseChanges};
use crate::ensure::{MARKER, REGENERATE};
use cann_config::diff::{kind_title, support_text};
use cann_config::meta::Lang;

pub const PATH: &str = "docs/reference.md";

/// A table cell: pipes and line breaks would end the cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn generate(spec: &Spec) -> String {
    let f = Facts::new(spec);
    let mut md = String::new();
    let _ = writeln!(
        md,
        "<!-- {MARKER} from spec/; do not edit. Run `{REGENERATE}` after changing the spec. -->\n"
    );
    md.push_str("# CANN TF Adapter option reference\n\n");
    md.push_str(
        "Every option of the spec with its type, default, values, graph-engine key, the way to set it \
         on each API surface, the rules that involve it and where it is supported. The docs site \
         (`docs/index.html`) has the same content in English and Chinese, with search; editors can \
         complete config files from `schema/cann-config.schema.json`.\n\n",
    );
    md.push_str("## Contents\n\n");
    for c in &spec.configs {
        let _ = writeln!(md, "- [{}](#{})", c.name, c.name.to_lowercase());
        for o in spec.options_of(&c.name) {
            let _ = writeln!(md, "  - [`{}`](#{})", o.name, o.name.to_lowercase());
        }
    }
    md.push_str("- [Products](#products)\n- [Releases](#releases)\n- [Files](#files)\n\n");

    for c in &spec.configs {
        let _ = writeln!(md, "## {}\n\n{}\n\n{}\n", c.name, c.doc.en, c.doc.zh);
        if let Some(k) = &c.root_key {
            let _ = writeln!(md, "Top-level key in a config file: `{k}`.\n");
        } else if let Some(holder) = f.option_holding(&c.name) {
            let _ = writeln!(
                md,
                "Set through [`{}`](#{}) (`{}`).\n",
                holder.name,
                holder.name.to_lowercase(),
                holder.path
            );
        }
        md.push_str("| option | type | default | graph-engine key |\n|---|---|---|---|\n");
        for o in spec.options_of(&c.name) {
            let _ = writeln!(
                md,
                "| [`{}`](#{}) | {} | {} | {} |",
                o.name,
                o.name.to_lowercase(),
                o.ty.describe(),
                newest_default(o).map_or("unset".into(), |d| cell(&format!("`{d}`"))),
                newest_ge_key(o).map_or("".into(), |k| format!("`{k}`")),
            );
        }
        md.push('\n');
        for o in spec.options_of(&c.name) {
            option(&f, o, &mut md);
        }
    }

    products(&f, &mut md);
    releases(&f, &mut md);
    files(spec, &mut md);
    md
}

/// The default of the newest release; older ones are in the option's "By release" line.
fn newest_default(o: &OptionSpec) -> Option<String> {
    match by_release::newest(o) {
        Some(n) => n.default.map(|d| d.to_string()),
        None => o.default.as_ref().map(|d| d.to_string()),
    }
}

fn newest_ge_key(o: &OptionSpec) -> Option<String> {
    match by_release::newest(o) {
        Some(n) => n.ge_key.map(str::to_string),
        None => o.ge_key.clone(),
    }
}

fn option(f: &Facts<'_>, o: &OptionSpec, md: &mut String) {
    let _ = writeln!(md, "### `{}`\n", o.name);
    let _ = writeln!(md, "`{}` in {}\n", o.path, o.config);
    let _ = writeln!(md, "{}\n\n{}\n", o.doc.en, o.doc.zh);
    if let Some(i) = &o.introduced {
        let when = cann_config::history::introduced_text(
            &i.after,
            &i.first_recorded,
            cann_config::meta::Lang::En,
        );
        let _ = writeln!(
            md,
            "> **First release not known**: {when} (sources: {}).\n",
            i.source.join("; ")
        );
    }
    if let Some(d) = &o.deprecated {
        let line = d.sentence(&o.name, Lang::En);
        let _ = writeln!(md, "> {line}. {}\n", d.note.en);
    }
    for r in &o.removed {
        let rep = r.replacement.as_deref();
        let line = r.gone.retirement(&r.what(&o.name), rep, Lang::En);
        let _ = writeln!(md, "> {line}. {}\n", r.note.en);
    }
    let ty = match &o.ty {
        OptionType::Config(c) => format!("config ([{c}](#{}))", c.to_lowercase()),
        t => t.name().to_string(),
    };
    let _ = writeln!(md, "- Type: {ty}");
    if !matches!(o.ty, OptionType::Config(_)) {
        let _ = writeln!(
            md,
            "- Default: {}",
            newest_default(o).map_or("unset".into(), |d| format!("`{d}`"))
        );
    }
    let range = match by_release::newest(o) {
        Some(n) => n.range,
        None => o.range,
    };
    if let Some(r) = &range {
        let [lo, hi, unit] = by_release::range_ends(r.min, r.max, o);
        if r.min_exclusive {
            // The bound itself is left out (a float's `above`).
            let upto = r.max.map_or(String::new(), |_| format!(", at most {hi}"));
            let _ = writeln!(md, "- Range: above {lo}{upto}{unit}");
        } else {
            let _ = writeln!(md, "- Range: {lo} to {hi}{unit}");
        }
        for (v, t) in &o.special {
            let _ = writeln!(md, "- Also `{v}`: {}", t.en);
        }
    } else if let Some(u) = &o.unit {
        let _ = writeln!(md, "- Unit: {u}");
    }
    if let Some(k) = newest_ge_key(o) {
        let _ = writeln!(md, "- Graph-engine key: `{k}`");
    }
    if let Some(h) = by_release::sentence(o) {
        let _ = writeln!(md, "- {h}");
    }
    if o.available.is_empty_with(|id| f.spec.release_index(id)) {
        let _ = writeln!(
            md,
            "- Available: in none of the releases this reference covers"
        );
    } else if !o.available.is_all() {
        let _ = writeln!(md, "- Available: releases `{}`", o.available);
    }
    md.push('\n');
    if !o.values.is_empty() {
        md.push_str("| value | name | meaning |\n|---|---|---|\n");
        for v in &o.values {
            let mut meaning = v.doc.en.clone();
            if !v.aliases.is_empty() {
                let a: Vec<String> = v.aliases.iter().map(|a| format!("`{a}`")).collect();
                meaning.push_str(&format!(" Legacy spelling: {}.", a.join(", ")));
            }
            if !v.available.is_all() {
                meaning.push_str(&format!(" Releases `{}`.", v.available));
            }
            if let Some(ps) = &v.products {
                let ps: Vec<String> = ps
                    .iter()
                    .map(|s| format!("{} `{}`", s.product, s.releases))
                    .collect();
                meaning.push_str(&format!(" Products: {}.", ps.join(", ")));
            }
            let _ = writeln!(
                md,
                "| `{}` | {} | {} |",
                cell(&v.value.to_string()),
                v.name,
                cell(&meaning)
            );
        }
        md.push('\n');
    }
    let snippets = f.snippets(o);
    if !snippets.is_empty() {
        md.push_str("How to set it:\n\n");
        for s in &snippets {
            let _ = writeln!(
                md,
                "{}:\n\n```{}\n{}```\n",
                (s.title)(cann_i18n::Lang::En),
                s.lang,
                s.code
            );
        }
    }
    let rules = f.rules_for(o);
    if !rules.is_empty() {
        md.push_str("Rules:\n\n");
        for r in rules {
            let when: Vec<String> = r.when.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(
                md,
                "- `{}` ({}), when `{}`: {}",
                r.id,
                r.severity.as_str(),
                when.join("` and `"),
                r.message.en
            );
        }
        md.push('\n');
    }
    support_table(f, md, |p, ri| f.supported(o, p, ri));
    if !o.source.is_empty() {
        let s: Vec<String> = o.source.iter().map(|s| format!("`{s}`")).collect();
        let _ = writeln!(md, "Sources: {}\n", s.join(", "));
    }
}

fn support_table(f: &Facts<'_>, md: &mut String, ok: impl Fn(&str, usize) -> bool) {
    md.push_str("| product |");
    for r in &f.spec.releases {
        let _ = write!(md, " {} |", r.id);
    }
    md.push_str("\n|---|");
    for _ in &f.spec.releases {
        md.push_str(":-:|");
    }
    md.push('\n');
    for p in &f.spec.products {
        let _ = write!(md, "| {} |", p.name.en);
        for ri in 0..f.spec.releases.len() {
            md.push_str(if ok(&p.id, ri) { " ✓ |" } else { " – |" });
        }
        md.push('\n');
    }
    md.push('\n');
}

fn products(f: &Facts<'_>, md: &mut String) {
    md.push_str("## Products\n\n| id | name | 名称 | note |\n|---|---|---|---|\n");
    for p in &f.spec.products {
        let _ = writeln!(
            md,
            "| `{}` | {} | {} | {} |",
            p.id,
            p.name.en,
            p.name.zh,
            p.note.as_ref().map_or("", |n| n.en.as_str())
        );
    }
    md.push_str("\nReleases that know each product:\n\n");
    support_table(f, md, |p, ri| f.release_knows(ri, p));
}

fn releases(f: &Facts<'_>, md: &mut String) {
    md.push_str("## Releases\n\n");
    for (ri, r) in f.spec.releases.iter().enumerate() {
        let _ = writeln!(md, "### {}\n", r.id);
        if let Some(n) = &r.note {
            let _ = writeln!(md, "{}\n", n.en);
        }
        match f.changes(ri) {
            None => md.push_str("The first release in the spec.\n\n"),
            Some(ch) => changes(&ch, &f.spec.releases[ri - 1].id, md),
        }
    }
}

/// The diff's changes, as `cannctl diff PREV R` lists them: one line per change under its
/// kind.
fn changes(ch: &ReleaseChanges, prev: &str, md: &mut String) {
    let _ = writeln!(md, "Changes since {prev}:\n");
    if ch.en.changes.is_empty() {
        md.push_str("- none\n\n");
        return;
    }
    let mut kind = "";
    for c in &ch.en.changes {
        if c.kind != kind {
            kind = c.kind;
            let _ = writeln!(md, "- {}:", kind_title(kind, Lang::En));
        }
        let detail = c.detail.as_deref().map(|d| format!(" ({})", cell(d)));
        let ba = match (&c.before, &c.after) {
            _ if c.change != "changed" && !c.kind.ends_with("support") => String::new(),
            (b, a) => {
                let side = |s: &Option<String>| {
                    s.as_deref().map_or("unset".to_string(), |s| {
                        format!("`{}`", support_text(s, Lang::En))
                    })
                };
                format!(": {} → {}", side(b), side(a))
            }
        };
        let _ = writeln!(
            md,
            "  - {} `{}`{}{ba}",
            c.change,
            c.subject,
            detail.unwrap_or_default()
        );
    }
    md.push('\n');
}

fn files(spec: &Spec, md: &mut String) {
    md.push_str("## Files\n\n");
    for file in &spec.files {
        let _ = writeln!(
            md,
            "### `{}`\n\n{}\n\n{}\n\nLocation: {}\n\nWhen invalid: {}\n",
            file.name, file.doc.en, file.doc.zh, file.location.en, file.invalid.en
        );
        for sec in &file.sections {
            let _ = writeln!(
                md,
                "Section `[{}]`:\n\n| key | range | default | env | meaning |\n|---|---|---|---|---|",
                sec.name
            );
            for k in &sec.keys {
                let range = k.range.as_ref().map_or(String::new(), |r| {
                    let special: String =
                        k.special.iter().map(|(v, _)| format!("{v} or ")).collect();
                    format!(
                        "{special}{} to {}",
                        r.min.map_or("-∞".into(), |v| v.to_string()),
                        r.max.map_or("∞".into(), |v| v.to_string())
                    )
                });
                let unit = k
                    .unit
                    .as_deref()
                    .map(|u| format!(" {u}"))
                    .unwrap_or_default();
                let mut meaning = k.doc.en.clone();
                for (v, t) in &k.special {
                    meaning.push_str(&format!(" `{v}`: {}", t.en));
                }
                let _ = writeln!(
                    md,
                    "| `{}` | {range}{unit} | {} | {} | {} |",
                    k.name,
                    k.default.map_or(String::new(), |d| d.to_string()),
                    k.env.as_deref().map_or(String::new(), |e| format!("`{e}`")),
                    cell(&meaning)
                );
            }
            md.push('\n');
        }
    }
}
