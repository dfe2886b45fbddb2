//! `cannctl options [--product P] [--release R]`

use std::io::Write;

use cann_config::meta::{supports, Lang, OptionMeta};
use cann_config::{Product, Release, OPTIONS};
use cann_i18n::catalog::cli as msg;
use serde_json::json;

use crate::cli::{OptionsArgs, OutputFormat};
use crate::render::table;
use crate::{CliError, EXIT_OK};

/// Whether `o` is listed for the filters: present in `release`, and usable on `product`
/// in `release` (in some release, when none is given). Without filters, every option is,
/// including those no modelled release has.
fn listed(o: &OptionMeta, product: Option<Product>, release: Option<Release>) -> bool {
    if product.is_none() && release.is_none() {
        return true;
    }
    let releases: Vec<Release> = match release {
        Some(r) => vec![r],
        None => Release::ALL.to_vec(),
    };
    releases
        .iter()
        .any(|r| o.available.contains(*r) && product.is_none_or(|p| supports(o.products, p, *r)))
}

/// The options `query` names: the one `explain` would show, else every option one of whose
/// names (path, ge key, Estimator keyword, session name, TF2 path, variable) contains it,
/// ignoring case; `explain`'s error when none does.
fn named(query: &str, lang: Lang) -> Result<Vec<&'static OptionMeta>, CliError> {
    let refused = match super::explain::find(query, lang) {
        Ok(o) => return Ok(vec![o]),
        Err(e) => e,
    };
    let q = query.trim().to_lowercase();
    let found: Vec<&'static OptionMeta> = OPTIONS
        .iter()
        .filter(|o| {
            !q.is_empty()
                && [
                    Some(o.path),
                    o.ge_key,
                    o.estimator,
                    o.session.map(|(n, _)| n),
                    o.tf2,
                    o.env,
                ]
                .into_iter()
                .flatten()
                .any(|n| n.to_lowercase().contains(&q))
        })
        .collect();
    if found.is_empty() {
        Err(refused)
    } else {
        Ok(found)
    }
}

pub fn run(a: &OptionsArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let lang: Lang = a.lang.into();
    let product = a
        .product
        .as_deref()
        .map(|p| super::parse_product(p, lang))
        .transpose()?;
    let release = a
        .release
        .as_deref()
        .map(|r| super::parse_release(r, lang))
        .transpose()?;
    let named = match a.name.as_deref() {
        Some(q) => Some(named(q, lang)?),
        None => None,
    };
    let shown: Vec<&OptionMeta> = OPTIONS
        .iter()
        .filter(|o| {
            named
                .as_ref()
                .is_none_or(|n| n.iter().any(|m| std::ptr::eq(*m, *o)))
        })
        .filter(|o| listed(o, product, release))
        .collect();
    match a.format {
        OutputFormat::Json => {
            let all: Vec<_> = shown
                .iter()
                .map(|o| {
                    json!({
                        "path": o.path,
                        "name": o.name,
                        "config": o.config,
                        "type": o.ty.name(),
                        "default": o.default.map(|d| d.to_string()),
                        "ge_key": o.ge_key,
                        "estimator": o.estimator,
                        "session": o.session.map(|(n, a)| json!({"name": n, "accessor": a.as_str()})),
                        "tf2": o.tf2,
                        "env": o.env,
                        "deprecated": o.deprecated.is_some(),
                        "removed": o.removal().map(|r| json!({"gone": cann_config::history::removal_summary(r, lang), "replacement": r.replacement})),
                        "doc_en": o.doc.en,
                        "doc_zh": o.doc.zh,
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &all).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            let header = [
                msg::column_option(lang),
                msg::column_type(lang),
                msg::column_default(lang),
                msg::column_summary(lang),
            ];
            // Fitted to a terminal, long paths take lines of their own width; piped, each
            // option is one line.
            let fitted = table::stdout_width().map(|w| usize::from(w / 3).max(24));
            let rows: Vec<Vec<String>> = shown
                .iter()
                .map(|o| {
                    vec![
                        match fitted {
                            Some(w) => table::break_at_dots(o.path, w),
                            None => o.path.to_string(),
                        },
                        o.ty.name().to_string(),
                        o.default.map_or_else(|| "-".into(), |d| d.to_string()),
                        table::first_sentence(o.doc.get(lang)).to_string(),
                    ]
                })
                .collect();
            out.write_all(table::for_stdout(&header, &rows).as_bytes())?;
        }
    }
    Ok(EXIT_OK)
}
