//! `cannctl check FILE...`

use std::io::Write;
use std::path::Path;

use cann_config::meta::Severity;
use cann_i18n::Lang;
use serde::Serialize;

use cann_i18n::catalog::cli as msg;

use crate::cli::{CheckArgs, OutputFormat};
use crate::{render, CliError, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};

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

pub fn run(
    a: &CheckArgs,
    colors: render::Colors,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, CliError> {
    let (project, lang) = super::project::resolve(&a.files, a.stdin_filename.as_deref(), a.lang)?;
    let device = a
        .soc_ini
        .as_deref()
        .map(|p| super::soc_cores(p, lang))
        .transpose()?;
    // Files `exclude` leaves out are not checked (a pre-commit hook passes them all).
    let files = super::project::kept(&a.files, &project);
    let ctx = Ctx {
        device,
        project: &project,
        lang,
        colors,
    };
    if let [file] = files.as_slice() {
        let (code, json) = one(file, a, &ctx, out)?;
        if let Some(j) = json {
            write_json(out, &j)?;
        }
        return Ok(code);
    }
    // Several files (a pre-commit hook passes every staged one): a file that cannot be read
    // is said and the others are still checked.
    let (mut worst, mut reports) = (EXIT_OK, Vec::new());
    for file in &files {
        match one(file, a, &ctx, out) {
            Ok((code, json)) => {
                worst = worst.max(code);
                reports.extend(json);
            }
            Err(e) => {
                writeln!(err, "{}", render::input_error(&e, colors.stderr, lang))?;
                worst = EXIT_INPUT;
            }
        }
    }
    if a.format == OutputFormat::Json {
        write_json(out, &reports)?;
    }
    Ok(worst)
}

fn write_json(out: &mut dyn Write, v: &impl Serialize) -> Result<(), CliError> {
    serde_json::to_writer_pretty(&mut *out, v).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

/// What every file of one run is checked with.
struct Ctx<'a> {
    device: Option<cann_config::CoreCounts>,
    project: &'a cann_check::settings::Settings,
    colors: render::Colors,
    lang: Lang,
}

/// Checks one file: its exit code, and its report when the format is JSON (written by the
/// caller, so several files make one array).
fn one(
    file: &Path,
    a: &CheckArgs,
    ctx: &Ctx<'_>,
    out: &mut dyn Write,
) -> Result<(u8, Option<serde_json::Value>), CliError> {
    let lang = ctx.lang;
    let loaded = super::load_named(file, a.stdin_filename.as_deref(), lang)?;
    let target = super::target_in(&a.target, &loaded.file, ctx.project, lang)?;
    let ds = super::diagnose(&loaded, target, ctx.device, lang);
    let count = |s| ds.iter().filter(|d| d.severity == s).count();
    let code = if count(Severity::Error) > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    };
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
            let v = serde_json::to_value(&r).map_err(std::io::Error::from)?;
            Ok((code, Some(v)))
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            let text = human(
                &loaded.name,
                &loaded.text,
                &ds,
                Some(target.product),
                target.release,
                a.max_findings,
                ctx.colors.stdout,
                lang,
            )?;
            out.write_all(text.as_bytes())?;
            Ok((code, None))
        }
    }
}

/// The findings as the command prints them (at most `max`, 0 for all), then the summary
/// line. Without a product, the findings are those that hold on every product of the release.
#[allow(clippy::too_many_arguments)]
pub fn human(
    name: &str,
    source: &str,
    ds: &[cann_config::Diagnostic],
    product: Option<cann_config::Product>,
    release: cann_config::Release,
    max: usize,
    color: bool,
    lang: Lang,
) -> std::io::Result<String> {
    let mut s = Vec::new();
    let src = render::Source::new(name, source);
    render::findings(&mut s, ds, &src, max, color, lang)?;
    let counts = render::summary(ds, lang);
    let line = match product {
        Some(p) => msg::check_summary(lang, name, &counts, p.meta().name, release.id()),
        None => msg::check_summary_every_product(lang, name, &counts, release.id()),
    };
    writeln!(s, "{line}")?;
    Ok(String::from_utf8_lossy(&s).into_owned())
}
