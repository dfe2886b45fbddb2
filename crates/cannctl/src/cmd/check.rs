//! `cannctl check FILE`

use std::io::Write;

use cann_config::meta::Severity;
use serde::Serialize;

use cann_i18n::catalog::cli as msg;

use crate::cli::{CheckArgs, OutputFormat};
use crate::{render, CliError, EXIT_FINDINGS, EXIT_OK};

#[derive(Serialize)]
struct JsonReport<'a> {
    file: &'a str,
    product: &'static str,
    release: &'static str,
    diagnostics: &'a [cann_config::Diagnostic],
    errors: usize,
    warnings: usize,
    notes: usize,
}

pub fn run(a: &CheckArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let lang = a.lang.into();
    let loaded = super::load(&a.file, lang)?;
    let target = super::target(&a.target, &loaded.file, lang)?;
    let device = a
        .soc_ini
        .as_deref()
        .map(|p| super::soc_cores(p, lang))
        .transpose()?;
    let ds = super::diagnose(&loaded, target, device, lang);
    let count = |s| ds.iter().filter(|d| d.severity == s).count();
    match a.format {
        OutputFormat::Json => {
            let r = JsonReport {
                file: &loaded.name,
                product: target.product.id(),
                release: target.release.id(),
                diagnostics: &ds,
                errors: count(Severity::Error),
                warnings: count(Severity::Warning),
                notes: count(Severity::Note),
            };
            serde_json::to_writer_pretty(&mut *out, &r).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            let color = render::use_color_stdout();
            let src = render::Source::new(&loaded.name, &loaded.text);
            render::findings(out, &ds, &src, a.max_findings, color, lang)?;
            let counts = render::summary(&ds, lang);
            let line = msg::check_summary(
                lang,
                &loaded.name,
                &counts,
                target.product.meta().name,
                target.release.id(),
            );
            writeln!(out, "{line}")?;
        }
    }
    Ok(if count(Severity::Error) > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    })
}
