//! `cannctl diff FROM TO [--product ID]`

use std::io::Write;

use cann_config::Product;

use crate::cli::{DiffArgs, OutputFormat};
use crate::{CliError, EXIT_OK};

pub fn run(a: &DiffArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let lang = cann_config::meta::Lang::En;
    let from = super::parse_release(&a.from, lang)?;
    let to = super::parse_release(&a.to, lang)?;
    let product = a
        .product
        .as_deref()
        .map(|p| {
            p.parse::<Product>()
                .map_err(|e| CliError::Usage(e.to_string(), None))
        })
        .transpose()?;
    let d = cann_config::diff::diff(from, to, product);
    match a.format {
        OutputFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &d).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            let scope = product.map(|p| format!(" for {p}")).unwrap_or_default();
            writeln!(
                out,
                "changes from {from} to {to}{scope}: {}",
                d.changes.len()
            )?;
            let mut last_kind = "";
            for c in &d.changes {
                if c.kind != last_kind {
                    writeln!(out, "\n{}:", c.kind)?;
                    last_kind = c.kind;
                }
                let sign = match c.change {
                    "added" => "+",
                    "removed" => "-",
                    _ => "~",
                };
                let detail = c
                    .detail
                    .as_deref()
                    .map(|d| format!(" [{d}]"))
                    .unwrap_or_default();
                let ba = match (&c.before, &c.after) {
                    (Some(b), Some(a)) if c.change == "changed" || c.kind == "support" => {
                        format!(": {b} -> {a}")
                    }
                    _ => String::new(),
                };
                writeln!(out, "  {sign} {}{detail}{ba}", c.subject)?;
            }
        }
    }
    Ok(EXIT_OK)
}
