//! `cannctl products [--release ID]`

use std::io::Write;

use cann_config::meta::Lang;
use cann_config::PRODUCTS;
use serde_json::json;

use cann_i18n::catalog::cli as msg;

use crate::cli::{OutputFormat, ProductsArgs};
use crate::render::table;
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
            let header = [
                msg::column_product(lang),
                msg::column_name(lang),
                msg::column_aliases(lang),
                msg::column_releases(lang),
            ];
            let rows: Vec<Vec<String>> = listed
                .iter()
                .map(|p| {
                    let name = match p.note {
                        Some(n) => msg::product_with_note(lang, p.name, n),
                        None => p.name.get(lang).to_string(),
                    };
                    let releases = cann_config::Release::ALL
                        .iter()
                        .filter(|r| r.meta().products.contains(&p.product))
                        .map(|r| r.id());
                    vec![
                        p.id.to_string(),
                        name,
                        lang.join(p.aliases),
                        lang.join(releases),
                    ]
                })
                .collect();
            out.write_all(table::for_stdout(&header, &rows).as_bytes())?;
        }
    }
    Ok(EXIT_OK)
}
