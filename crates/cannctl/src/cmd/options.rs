//! `cannctl options`

use std::io::Write;

use cann_config::meta::Lang;
use cann_config::OPTIONS;
use serde_json::json;

use crate::cli::{OptionsArgs, OutputFormat};
use crate::{CliError, EXIT_OK};

pub fn run(a: &OptionsArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    match a.format {
        OutputFormat::Json => {
            let all: Vec<_> = OPTIONS
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
                        "removed": o.removal().map(|r| json!({"gone": cann_config::history::removal_summary(r, cann_config::meta::Lang::En), "replacement": r.replacement})),
                        "doc_en": o.doc.en,
                        "doc_zh": o.doc.zh,
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *out, &all).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            let lang: Lang = a.lang.into();
            let w = OPTIONS.iter().map(|o| o.path.len()).max().unwrap_or(0);
            for o in OPTIONS.iter() {
                let default = o
                    .default
                    .map(|d| d.to_string())
                    .unwrap_or_else(|| "-".into());
                let first = o.doc.get(lang).split(['.', '。']).next().unwrap_or("");
                writeln!(
                    out,
                    "{:<w$}  {:<11} {:<8} {first}",
                    o.path,
                    o.ty.name(),
                    default
                )?;
            }
        }
    }
    Ok(EXIT_OK)
}
