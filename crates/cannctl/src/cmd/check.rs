//! `cannctl check FILE`

use std::io::Write;

use cann_config::meta::Severity;
use serde::Serialize;

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
    let loaded = super::load(&a.file, a.lang.into())?;
    let target = super::target(&a.target, &loaded.file)?;
    let device = a.soc_ini.as_deref().map(super::soc_cores).transpose()?;
    let ds = super::diagnose(&loaded, target, device, a.lang.into());
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
        OutputFormat::Human | OutputFormat::Sarif => {
            let color = render::use_color_stdout();
            for d in &ds {
                writeln!(
                    out,
                    "{}",
                    render::diagnostic(d, &loaded.name, &loaded.text, color)
                )?;
            }
            writeln!(
                out,
                "{}: {} for {} on CANN {}",
                loaded.name,
                render::summary(&ds),
                target.product,
                target.release
            )?;
        }
    }
    Ok(if count(Severity::Error) > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    })
}
