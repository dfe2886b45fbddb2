//! `cannctl lint PATH...`: the option settings of Python training scripts, checked against
//! the spec. Finding and checking is `cann_lint`'s; this file renders and picks the exit code.

use cann_check::settings::Settings;
use cann_config::meta::{Lang, Severity};
use cann_config::{Product, Release};
use cann_lint::{LintOptions, Outcome, Step};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

use cann_i18n::catalog::cli as msg;
use cann_i18n::catalog::lint as lint_msg;

use crate::cli::{LintArgs, OutputFormat};
use crate::render::progress::Progress;
use crate::{render, CliError, EXIT_FINDINGS, EXIT_OK};

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

pub fn run(args: &LintArgs, colors: render::Colors, out: &mut dyn Write) -> Result<u8, CliError> {
    let (project, lang) =
        super::project::resolve(&args.paths, args.stdin_filename.as_deref(), args.lang)?;
    // The linter's own errors (a path that is not there, a file --fix cannot write) are
    // worded here, in the language asked for.
    lint(args, &project, lang, colors.stdout, out).map_err(|e| {
        match e.downcast::<cann_lint::LintError>() {
            Ok(le) => CliError::Other(le.message(lang).into()),
            Err(e) => CliError::Other(e),
        }
    })
}

fn lint(
    args: &LintArgs,
    project: &Settings,
    lang: Lang,
    color: bool,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    // Flags beat `[tool.cannctl]`, which beats the defaults.
    let product = match args.product.as_deref() {
        Some(p) => Some(p.parse::<Product>()?),
        None => project.product,
    };
    let release = match &args.release {
        Some(r) => r.parse::<Release>()?,
        None => project.release.unwrap_or(Release::LATEST),
    };
    let docs_url = args.docs_url.as_deref().or(project.docs_url.as_deref());
    let opts = LintOptions {
        product,
        release,
        lang,
    };
    let stdin = args.paths.iter().any(|p| cann_input::is_stdin(p));
    if stdin && args.paths.len() > 1 {
        return Err(cann_i18n::catalog::lint::stdin_alone(opts.lang).into());
    }
    // Standard input is read once, under the cap a script file is read under, and kept:
    // its fixes cannot be applied to it again.
    let (mut outcome, original) = if stdin {
        let name = PathBuf::from(cann_input::display_name(
            args.stdin_filename.as_deref().unwrap_or(Path::new("-")),
        ));
        let limits = cann_input::Limits::new(cann_lint::MAX_SCRIPT_BYTES).keep_bom();
        let bytes = cann_input::read_bytes(Path::new(cann_input::STDIN), limits)
            .map_err(|e| e.message(opts.lang))?;
        let o = cann_lint::lint_script(&name, bytes.clone(), &opts)?;
        (o, Some((name, bytes)))
    } else {
        let o = lint_kept(&args.paths, project, &opts, !args.no_progress)?;
        (o, None)
    };
    let kept = original.as_ref().map(|(_, b)| b.as_slice());
    if args.diff {
        return diff(&outcome, kept, out);
    }
    if let (true, Some((name, bytes))) = (args.fix, &original) {
        return fix_stdin(&outcome, name, bytes, &opts, out);
    }
    if args.fix {
        let (files, fixes) = fix(&outcome)?;
        if fixes > 0 {
            // What is left is what the report shows.
            outcome = lint_kept(&args.paths, project, &opts, false)?;
        }
        eprintln!(
            "{}",
            cann_i18n::catalog::lint::fixed(opts.lang, fixes, files)
        );
    }
    let (errors, warnings, notes) = (
        count(&outcome, Severity::Error),
        count(&outcome, Severity::Warning),
        count(&outcome, Severity::Note),
    );
    match args.format {
        OutputFormat::Human => human(&outcome, &opts, args.max_findings, color, out)?,
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
            let base = std::env::current_dir()?;
            let o = cann_lint::sarif::SarifOptions {
                lang: opts.lang,
                base: &base,
                docs_url,
            };
            serde_json::to_writer_pretty(&mut *out, &cann_lint::sarif::to_sarif(&outcome, &o))?;
            writeln!(out)?;
        }
        OutputFormat::Github => {
            let base = std::env::current_dir()?;
            write!(out, "{}", cann_lint::ci::github(&outcome, &base))?;
        }
        OutputFormat::Gitlab => {
            let base = std::env::current_dir()?;
            serde_json::to_writer_pretty(&mut *out, &cann_lint::ci::gitlab(&outcome, &base))?;
            writeln!(out)?;
        }
    }
    if !outcome.unreadable.is_empty() {
        // Findings are already written; the files that could not be read make it exit 2.
        let list: Vec<String> = outcome.unreadable.iter().map(|u| u.to_string()).collect();
        let list = list.join("; ");
        return Err(cann_i18n::catalog::lint::not_linted(
            opts.lang,
            outcome.unreadable.len(),
            &list,
        )
        .into());
    }
    Ok(if errors > 0 { EXIT_FINDINGS } else { EXIT_OK })
}

/// Every script below `paths` that `exclude` of `[tool.cannctl]` does not leave out.
fn lint_kept(
    paths: &[PathBuf],
    project: &Settings,
    opts: &LintOptions,
    progress: bool,
) -> Result<Outcome, cann_lint::LintError> {
    use cann_runtime::cache::Progress as _;
    let kept = super::project::kept(paths, project);
    let exclude = &project.exclude;
    // Drawn once the walk has found enough scripts to be worth watching; cleared when
    // dropped, after the walk.
    let bar: std::sync::OnceLock<Progress> = std::sync::OnceLock::new();
    let step = |s: Step| match s {
        Step::Found(n) if progress && n >= PROGRESS_MIN_FILES => {
            let b = bar.get_or_init(|| Progress::bar(&lint_msg::progress_template(opts.lang), ""));
            b.set_total(u64::try_from(n).unwrap_or(u64::MAX));
        }
        Step::Found(_) => {}
        Step::Linted => {
            if let Some(b) = bar.get() {
                b.inc(1);
            }
        }
    };
    cann_lint::lint_paths_where(&kept, opts, &step, &|p: &Path| !exclude.excludes(p))
}

/// Below this many scripts a progress bar would only flicker.
const PROGRESS_MIN_FILES: usize = 500;

/// Writes every script's safe fixes; returns (files changed, findings fixed).
fn fix(o: &Outcome) -> Result<(usize, usize), BoxError> {
    let (mut files, mut fixes) = (0, 0);
    for f in &o.files {
        if let Some(fixed) = cann_lint::fix::fixed(f)? {
            cann_lint::fix::write(&fixed.path, &fixed.after)?;
            files += 1;
            fixes += fixed.applied;
        }
    }
    Ok((files, fixes))
}

/// The fixes of one script, applied to `kept` (the bytes of standard input) when given,
/// else to the file as it is on disk.
fn fixed_of(
    f: &cann_lint::FileReport,
    kept: Option<&[u8]>,
) -> Result<Option<cann_lint::fix::Fixed>, BoxError> {
    Ok(match kept {
        Some(bytes) => cann_lint::fix::fixed_from(f, bytes.to_vec()),
        None => cann_lint::fix::fixed(f)?,
    })
}

/// `--fix` on standard input: the script, fixed, to standard output (as formatters do),
/// unchanged when there is nothing to fix; exit 1 when errors are left.
fn fix_stdin(
    o: &Outcome,
    name: &Path,
    bytes: &[u8],
    opts: &LintOptions,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let fixed = match o.files.first() {
        Some(f) => fixed_of(f, Some(bytes))?,
        None => None,
    };
    let (after, applied) = match &fixed {
        Some(f) => (f.after.as_bytes(), f.applied),
        None => (bytes, 0),
    };
    out.write_all(after)?;
    eprintln!(
        "{}",
        cann_i18n::catalog::lint::fixed(opts.lang, applied, usize::from(applied > 0))
    );
    let left = cann_lint::lint_script(name, after.to_vec(), opts)?;
    let errors = count(&left, Severity::Error);
    Ok(if errors > 0 { EXIT_FINDINGS } else { EXIT_OK })
}

/// Prints the safe fixes as a unified diff; exit 1 when there is any.
fn diff(o: &Outcome, kept: Option<&[u8]>, out: &mut dyn Write) -> Result<u8, BoxError> {
    let mut any = false;
    for f in &o.files {
        if let Some(fixed) = fixed_of(f, kept)? {
            write!(out, "{}", cann_lint::fix::diff(&fixed))?;
            any = true;
        }
    }
    Ok(if any { EXIT_FINDINGS } else { EXIT_OK })
}

fn human(
    o: &Outcome,
    opts: &LintOptions,
    max_findings: usize,
    // Only when stdout is a terminal (and NO_COLOR is unset), as for `check`.
    color: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut all = Vec::new();
    for f in &o.files {
        let name = f.path.display().to_string();
        let src = render::Source::new(&name, &f.source);
        let ds: Vec<_> = f.findings.iter().map(|x| x.diagnostic.clone()).collect();
        render::findings(out, &ds, &src, max_findings, color, opts.lang)?;
        all.extend(ds);
    }
    let counts = render::summary(&all, opts.lang);
    let (lang, release) = (opts.lang, opts.release.id());
    let (scanned, with_findings) = (o.scanned, o.files.len());
    let line = match opts.product {
        Some(p) => {
            let name = p.meta().name;
            msg::lint_summary(lang, scanned, with_findings, &counts, name, release)
        }
        None => msg::lint_summary_every_product(lang, scanned, with_findings, &counts, release),
    };
    writeln!(out, "{line}")
}
