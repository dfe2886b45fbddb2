//! `cannctl lint PATH...`: the option settings of Python training scripts, checked against
//! the spec. Finding and checking is `cann_lint`'s; this file renders and picks the exit code.

use cann_config::meta::Severity;
use cann_config::{Product, Release};
use cann_lint::{LintOptions, Outcome};
use serde::Serialize;
use std::io::Write;

use crate::cli::{LintArgs, OutputFormat};
use crate::{render, EXIT_FINDINGS, EXIT_OK};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Serialize)]
struct JsonFile<'a> {
    path: String,
    findings: &'a [cann_lint::Finding],
}

#[derive(Serialize)]
struct JsonUnreadable {
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
    reason: String,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    product: Option<&'static str>,
    release: &'static str,
    scanned: usize,
    files: Vec<JsonFile<'a>>,
    unreadable: Vec<JsonUnreadable>,
    errors: usize,
    warnings: usize,
    notes: usize,
}

fn count(o: &Outcome, s: Severity) -> usize {
    o.findings().filter(|(_, f)| f.severity() == s).count()
}

pub fn run(args: &LintArgs, out: &mut dyn Write) -> Result<u8, BoxError> {
    let product = args
        .product
        .as_deref()
        .map(str::parse::<Product>)
        .transpose()?;
    let release = match &args.release {
        Some(r) => r.parse::<Release>()?,
        None => Release::LATEST,
    };
    let opts = LintOptions {
        product,
        release,
        lang: args.lang.into(),
    };
    let outcome = cann_lint::lint_paths(&args.paths, &opts, !args.no_progress)?;
    let (errors, warnings, notes) = (
        count(&outcome, Severity::Error),
        count(&outcome, Severity::Warning),
        count(&outcome, Severity::Note),
    );
    match args.format {
        OutputFormat::Human => human(&outcome, &opts, args.max_findings, out)?,
        OutputFormat::Json => {
            let r = JsonReport {
                product: product.map(|p| p.id()),
                release: release.id(),
                scanned: outcome.scanned,
                files: outcome
                    .files
                    .iter()
                    .map(|f| JsonFile {
                        path: f.path.display().to_string(),
                        findings: &f.findings,
                    })
                    .collect(),
                unreadable: outcome
                    .unreadable
                    .iter()
                    .map(|u| JsonUnreadable {
                        path: u.path.display().to_string(),
                        line: u.pos.map(|p| p.0),
                        column: u.pos.map(|p| p.1),
                        reason: u.reason.clone(),
                    })
                    .collect(),
                errors,
                warnings,
                notes,
            };
            serde_json::to_writer_pretty(&mut *out, &r)?;
            writeln!(out)?;
        }
        OutputFormat::Sarif => {
            serde_json::to_writer_pretty(
                &mut *out,
                &cann_lint::sarif::to_sarif(&outcome, opts.lang),
            )?;
            writeln!(out)?;
        }
    }
    if !outcome.unreadable.is_empty() {
        // Findings are already written; the files that could not be read make it exit 2.
        let list: Vec<String> = outcome.unreadable.iter().map(|u| u.to_string()).collect();
        return Err(format!(
            "{} file(s) could not be linted: {}",
            list.len(),
            list.join("; ")
        )
        .into());
    }
    Ok(if errors > 0 { EXIT_FINDINGS } else { EXIT_OK })
}

fn human(
    o: &Outcome,
    opts: &LintOptions,
    max_findings: usize,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    // Colour only when stdout is a terminal (and NO_COLOR is unset), as for `check`.
    let color = render::use_color_stdout();
    let mut all = Vec::new();
    for f in &o.files {
        let name = f.path.display().to_string();
        let src = render::Source::new(&name, &f.source);
        let ds: Vec<_> = f.findings.iter().map(|x| x.diagnostic.clone()).collect();
        render::findings(out, &ds, &src, max_findings, color, opts.lang)?;
        all.extend(ds);
    }
    let target = match opts.product {
        Some(p) => format!("{p} on CANN {}", opts.release),
        None => format!("every product of CANN {}", opts.release),
    };
    writeln!(
        out,
        "{} script(s) checked, {} with findings: {} for {target}",
        o.scanned,
        o.files.len(),
        render::summary(&all, opts.lang)
    )
}
