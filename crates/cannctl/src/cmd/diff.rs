//! `cannctl diff FROM TO [--product ID]`

use std::io::Write;

use cann_config::diff::{kind_title, support_text};
use cann_config::meta::Lang;
use cann_config::Product;
use cann_i18n::catalog::cli as msg;

use crate::cli::{DiffArgs, OutputFormat};
use crate::{CliError, EXIT_OK};

pub fn run(a: &DiffArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let lang = a.lang.into();
    let from = super::parse_release(&a.from, lang)?;
    let to = super::parse_release(&a.to, lang)?;
    let product = a
        .product
        .as_deref()
        .map(|p| super::parse_product(p, lang))
        .transpose()?;
    let d = cann_config::diff::diff_in(from, to, product, lang);
    match a.format {
        OutputFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &d).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            human(&d, product, lang, out)?;
        }
    }
    Ok(EXIT_OK)
}

/// A product id as the user reads it: its name in `lang`.
fn product_name(id: &str, lang: Lang) -> String {
    id.parse::<Product>()
        .map_or_else(|_| id.to_string(), |p| p.meta().name.get(lang).to_string())
}

/// What the spec says to use instead of the deprecated option at `path`.
fn replacement(path: &str) -> Option<&'static str> {
    cann_config::OPTIONS
        .iter()
        .find(|o| o.path == path)
        .and_then(|o| o.deprecated.as_ref())
        .and_then(|d| d.replacement)
}

fn human(
    d: &cann_config::diff::ReleaseDiff,
    product: Option<Product>,
    lang: Lang,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let n = d.changes.len();
    let head = match product {
        Some(p) => msg::diff_header_product(lang, d.from, d.to, p.meta().name, n),
        None => msg::diff_header(lang, d.from, d.to, n),
    };
    writeln!(out, "{head}")?;
    let mut last_kind = "";
    for c in &d.changes {
        if c.kind != last_kind {
            writeln!(out, "\n{}", msg::diff_kind(lang, &kind_title(c.kind, lang)))?;
            last_kind = c.kind;
        }
        let sign = match c.change {
            // Between the two releases, or not: the detail says which interval.
            _ if c.kind == "introduced" => "?",
            "added" => "+",
            "removed" => "-",
            _ => "~",
        };
        let detail = match c.kind {
            "support" => c.detail.as_deref().map(|x| product_name(x, lang)),
            // cann-config words the replacement for JSON; the spec names it.
            "deprecation" => replacement(&c.subject).map(|r| msg::diff_use_instead(lang, r)),
            _ => c.detail.clone(),
        };
        let detail = detail.map(|x| format!(" [{x}]")).unwrap_or_default();
        let ba = match (&c.before, &c.after) {
            (Some(b), Some(a)) if matches!(c.kind, "support" | "value-support") => {
                format!(": {} -> {}", support_text(b, lang), support_text(a, lang))
            }
            (Some(b), Some(a)) if c.change == "changed" => format!(": {b} -> {a}"),
            _ => String::new(),
        };
        writeln!(out, "  {sign} {}{detail}{ba}", c.subject)?;
    }
    Ok(())
}
