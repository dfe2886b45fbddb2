//! `cannctl explain OPTION [--release R]`: one option's facts as they stand in a release,
//! how they changed across releases, and where to set it.

mod find;
mod human;
mod json;

use std::io::Write;

use cann_config::in_release::OptionIn;
use cann_config::meta::{supports, Lang, OptionMeta, RuleMeta};
use cann_config::{Release, PRODUCTS, RULES};

use crate::cli::{ExplainArgs, OutputFormat};
use crate::{CliError, EXIT_OK};

pub use find::find;

/// What both renderings show: the option in the chosen release and the rules that read it.
struct View {
    at: OptionIn,
    /// `--release` was given (else the newest release is shown, and the text says so).
    chosen: bool,
    rules: Vec<&'static RuleMeta>,
    lang: Lang,
}

impl View {
    fn option(&self) -> &'static OptionMeta {
        self.at.option
    }
}

pub fn run(a: &ExplainArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let lang: Lang = a.lang.into();
    let o = find(&a.option, lang)?;
    let release = a
        .release
        .as_deref()
        .map(|r| super::parse_release(r, lang))
        .transpose()?;
    let view = View {
        at: o.in_release(release.unwrap_or(Release::LATEST)),
        chosen: release.is_some(),
        rules: RULES
            .iter()
            .filter(|r| r.options.contains(&o.path))
            .collect(),
        lang,
    };
    match a.format {
        OutputFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &json::render(&view))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            out.write_all(human::render(&view).as_bytes())?
        }
    }
    Ok(EXIT_OK)
}

/// Whether `o` can be used on each product, per release.
fn support_rows(o: &OptionMeta) -> Vec<(&'static str, Vec<bool>)> {
    PRODUCTS
        .iter()
        .map(|p| {
            let row = Release::ALL
                .iter()
                .map(|r| o.available.contains(*r) && supports(o.products, p.product, *r))
                .collect();
            (p.id, row)
        })
        .collect()
}
