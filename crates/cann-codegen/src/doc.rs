//! Spec text into `#[doc]` attributes.

use cann_spec::{OptionSpec, OptionType, Spec};
use proc_macro2::TokenStream;
use quote::quote;

/// One `#[doc]` attribute per line, so rustdoc renders paragraphs as written.
pub(crate) fn lines(text: &str) -> TokenStream {
    let ls = text.lines().map(|l| format!(" {l}"));
    quote!(#(#[doc = #ls])*)
}

/// The rustdoc of an option: its description, values, default, keys and product table.
pub(crate) fn option(spec: &Spec, o: &OptionSpec) -> String {
    let mut d = format!("{}\n\n{}\n", o.doc.en, o.doc.zh);
    d.push_str(&format!("\n- Type: `{}`", o.ty.name()));
    if let OptionType::Config(c) = &o.ty {
        d.push_str(&format!(" ([`{}`])", cann_spec::names::type_name(c)));
    }
    d.push('\n');
    match &o.default {
        Some(v) => d.push_str(&format!("- Default: `{v}`\n")),
        None => d.push_str("- Default: unset\n"),
    }
    if let Some(r) = &o.range {
        let lo = r.min.map_or("-inf".into(), |m| m.to_string());
        let hi = r.max.map_or("inf".into(), |m| m.to_string());
        d.push_str(&format!(
            "- Range: [{lo}, {hi}]{}\n",
            o.unit
                .as_deref()
                .map(|u| format!(" {u}"))
                .unwrap_or_default()
        ));
    }
    if let Some(k) = &o.ge_key {
        d.push_str(&format!("- Graph-engine key: `{k}`\n"));
    }
    if let Some(e) = &o.surfaces.estimator {
        d.push_str(&format!("- Estimator: `{}({e}=...)`\n", o.config));
    }
    if let Some((n, a)) = &o.surfaces.session {
        let acc = a.as_str();
        d.push_str(&format!(
            "- TF1 session: `custom_op.parameter_map[\"{n}\"].{acc}`\n"
        ));
    }
    if let Some(t) = &o.surfaces.tf2 {
        d.push_str(&format!("- TF2: `npu.global_options().{t}`\n"));
    }
    if let Some(e) = &o.surfaces.env {
        d.push_str(&format!("- Environment variable: `{e}`\n"));
    }
    if let Some(dep) = &o.deprecated {
        let line = dep.sentence(&o.name, cann_spec::Lang::En);
        d.push_str(&format!("- {line}.\n"));
    }
    for r in &o.removed {
        let rep = r.replacement.as_deref();
        let line = r
            .gone
            .retirement(&r.what(&o.name), rep, cann_spec::Lang::En);
        d.push_str(&format!("- {line}.\n"));
    }
    if !o.values.is_empty() {
        d.push_str("\n| value | meaning |\n|---|---|\n");
        for v in &o.values {
            let aliases: Vec<String> = v.aliases.iter().map(|a| a.to_string()).collect();
            let alias = if aliases.is_empty() {
                String::new()
            } else {
                format!(" (also {})", aliases.join(", "))
            };
            d.push_str(&format!("| `{}`{alias} | {} |\n", v.value, v.doc.en));
        }
    }
    d.push_str(&product_table(spec, o));
    if !o.source.is_empty() {
        d.push_str("\nSources: ");
        d.push_str(
            &o.source
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        d.push('\n');
    }
    d
}

/// A product × release table of where the option can be used.
pub(crate) fn product_table(spec: &Spec, o: &OptionSpec) -> String {
    let support = o.effective_products(spec);
    let idx = |id: &str| spec.release_index(id);
    let mut t = String::from("\n| product |");
    for r in &spec.releases {
        t.push_str(&format!(" {} |", r.id));
    }
    t.push_str("\n|---|");
    for _ in &spec.releases {
        t.push_str("---|");
    }
    t.push('\n');
    for p in &spec.products {
        t.push_str(&format!("| {} |", p.name.en));
        for (ri, r) in spec.releases.iter().enumerate() {
            let avail = o.available.contains_index(ri, idx);
            let known = r.products.contains(&p.id);
            let ok = avail
                && known
                && (support.is_empty()
                    || support
                        .iter()
                        .any(|s| s.product == p.id && s.releases.contains_index(ri, idx)));
            t.push_str(if ok { " yes |" } else { " - |" });
        }
        t.push('\n');
    }
    t
}
