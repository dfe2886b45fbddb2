//! `cannctl emit FILE --to ...`: only a config without errors is emitted.

use std::io::Write;

use cann_config::emit::emit_in;
use cann_config::meta::Severity;
use cann_i18n::catalog::cli as msg;

use crate::cli::EmitArgs;
use crate::{render, CliError, EXIT_FINDINGS, EXIT_OK};

pub fn run(
    a: &EmitArgs,
    colors: render::Colors,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, CliError> {
    let lang = a.lang.into();
    let loaded = super::load(&a.file, lang)?;
    let target = super::target(&a.target, &loaded.file, lang)?;
    let ds = super::diagnose(&loaded, target, None, lang);
    let color = colors.stderr;
    let src = render::Source::new(&loaded.name, &loaded.text);
    // Warnings and notes go to stderr so the output stays pasteable.
    for d in ds.iter().filter(|d| d.severity >= Severity::Warning) {
        writeln!(err, "{}\n", render::diagnostic(d, &src, color, lang))?;
    }
    if ds.iter().any(|d| d.severity == Severity::Error) {
        let counts = render::summary(&ds, lang);
        writeln!(err, "{}", msg::not_emitted(lang, &loaded.name, &counts))?;
        return Ok(EXIT_FINDINGS);
    }
    match emit_in(&loaded.file.config, a.to, target.release, lang) {
        Ok(text) => {
            out.write_all(text.as_bytes())?;
            Ok(EXIT_OK)
        }
        Err(errors) => {
            let ds: Vec<_> = errors
                .iter()
                .map(|e| {
                    let mut d = e.diagnostic(lang);
                    loaded.file.locate(&mut d);
                    d
                })
                .collect();
            for d in &ds {
                writeln!(err, "{}\n", render::diagnostic(d, &src, color, lang))?;
            }
            let counts = render::summary(&ds, lang);
            writeln!(err, "{}", msg::not_emitted(lang, &loaded.name, &counts))?;
            Ok(EXIT_FINDINGS)
        }
    }
}
