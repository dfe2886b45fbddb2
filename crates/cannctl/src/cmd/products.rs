//! `cannctl products [--release ID]`

use std::io::Write;

use cann_config::meta::Lang;
use cann_config::PRODUCTS;
use serde_json::json;

use crate::cli::{OutputFormat, ProductsArgs};
use crate::{CliError, EXIT_OK};

pub fn run(a: &ProductsArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let lang: Lang = a.lang.into();
    let release = a
        .release
        .as_deref()
        .map(|r| super::parse_release(r, lang))
        .transpose()?;
    let listed: Vec<_> = PRODUCTS
        .iter()
        .filter(|p| release.is_none_or(|r| r.meta().products.contains(&p.product)))
        .collect();
    match a.format {
        OutputFormat::Json => {
            let v: Vec<_> = listed
                .iter()
                .map(|p| {
                    let releases: Vec<&str> = cann_config::Release::ALL
                        .iter()
                        .filter(|r| r.meta().products.contains(&p.product))
                        .map(|r| r.id())
                        .collect();
                    json!({
                        "id": p.id,
                        "name_en": p.name.en,
                        "name_zh": p.name.zh,
                        "aliases": p.aliases,
                        "note": p.note.map(|n| n.get(lang)),
                        "releases": releases,
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &v).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            for p in listed {
                write!(out, "{:<20} {}", p.id, p.name.get(lang))?;
                if let Some(n) = p.note {
                    write!(out, "  ({})", n.get(lang))?;
                }
                writeln!(out)?;
                if !p.aliases.is_empty() {
                    let label = match lang {
                        Lang::En => "also",
                        Lang::Zh => "别名",
                    };
                    writeln!(out, "{:<20} {label}: {}", "", p.aliases.join(", "))?;
                }
            }
        }
    }
    Ok(EXIT_OK)
}
