//! Files and directories to scripts, linted in parallel.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::{lint_source, Finding, LintError, LintOptions};

/// Training scripts are kilobytes; the largest `.py` of the ModelZoo corpus (a table of word
/// vectors) is 2.2 MB. A larger one is generated data, not worth the memory.
pub const MAX_SCRIPT_BYTES: u64 = 4 * 1024 * 1024;

/// Below this many files a progress bar would only flicker.
const PROGRESS_MIN_FILES: usize = 500;

/// A script with findings, with its text for showing the lines they point at.
#[derive(Debug, Clone)]
pub struct FileReport {
    pub path: PathBuf,
    pub source: String,
    pub findings: Vec<Finding>,
    pub syntax_errors: bool,
}

/// A file that could not be linted, and why.
#[derive(Debug, Clone)]
pub struct Unreadable {
    pub path: PathBuf,
    /// Line and column in the file, when the reason has a place.
    pub pos: Option<(u32, u32)>,
    /// What went wrong, naming the file.
    pub reason: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pos {
            Some((l, c)) => write!(f, "{}:{l}:{c}: {}", self.path.display(), self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

/// The result of linting a set of paths.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Scripts with at least one finding, by path.
    pub files: Vec<FileReport>,
    /// Scripts looked at.
    pub scanned: usize,
    /// Scripts that set options and were parsed.
    pub parsed: usize,
    pub unreadable: Vec<Unreadable>,
}

impl Outcome {
    pub fn findings(&self) -> impl Iterator<Item = (&FileReport, &Finding)> {
        self.files
            .iter()
            .flat_map(|f| f.findings.iter().map(move |x| (f, x)))
    }
}

fn is_python(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "py")
}

/// Scripts below `paths`: a file named directly is always taken; directories are walked
/// with ripgrep's walker, which skips hidden files and what `.gitignore` and `.ignore` say.
fn discover(
    paths: &[PathBuf],
    unreadable: &mut Vec<Unreadable>,
) -> Result<Vec<PathBuf>, LintError> {
    let mut files = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|source| LintError::Path {
            path: p.clone(),
            source,
        })?;
        if !meta.is_dir() {
            files.push(p.clone());
            continue;
        }
        for entry in ignore::WalkBuilder::new(p).build() {
            match entry {
                Ok(e) => {
                    if e.file_type().is_some_and(|t| t.is_file()) && is_python(e.path()) {
                        files.push(e.into_path());
                    }
                }
                Err(e) => unreadable.push(Unreadable {
                    path: p.clone(),
                    pos: None,
                    reason: format!("{}: {e}", p.display()),
                }),
            }
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

enum One {
    Clean { parsed: bool },
    Found(FileReport),
    Failed(Unreadable),
}

fn lint_file(path: &Path, opts: &LintOptions) -> Result<One, LintError> {
    let failed = |reason: String| {
        Ok(One::Failed(Unreadable {
            path: path.to_path_buf(),
            pos: None,
            reason,
        }))
    };
    // Non-blocking open, regular files only, at most MAX_SCRIPT_BYTES actually read.
    let bytes = match cann_input::read_bytes(path, cann_input::Limits::new(MAX_SCRIPT_BYTES)) {
        Ok(b) => b,
        Err(e) => return failed(e.message(opts.lang)),
    };
    // Python 2-era scripts may be Latin-1; undecodable bytes become U+FFFD, and the
    // option names and values, which are ASCII, still read.
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    // The text kept for showing lines counts lines as the findings do.
    let text = crate::normalize_newlines(&text).into_owned();
    let r = match lint_source(&text, opts) {
        Ok(r) => r,
        Err(LintError::Budget {
            line,
            column,
            message,
            hint,
        }) => {
            return Ok(One::Failed(Unreadable {
                path: path.to_path_buf(),
                pos: Some((line, column)),
                reason: format!("{message}; {hint}"),
            }))
        }
        Err(e) => return Err(e),
    };
    if r.findings.is_empty() {
        return Ok(One::Clean { parsed: r.parsed });
    }
    Ok(One::Found(FileReport {
        path: path.to_path_buf(),
        source: text,
        findings: r.findings,
        syntax_errors: r.syntax_errors,
    }))
}

/// Lints every script below `paths`. A path that does not exist is an error; a script that
/// cannot be read is listed in [`Outcome::unreadable`] and the rest are still linted.
/// `progress` asks for a progress bar, drawn only when stderr is a terminal.
pub fn lint_paths(
    paths: &[PathBuf],
    opts: &LintOptions,
    progress: bool,
) -> Result<Outcome, LintError> {
    let mut out = Outcome::default();
    let files = discover(paths, &mut out.unreadable)?;
    out.scanned = files.len();
    let bar = (progress && files.len() >= PROGRESS_MIN_FILES && std::io::stderr().is_terminal())
        .then(|| {
            let bar = ProgressBar::new(files.len() as u64);
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} linting {pos}/{len} scripts {wide_bar} {eta}",
            ) {
                bar.set_style(style);
            }
            bar
        });
    let results: Vec<Result<One, LintError>> = files
        .par_iter()
        .map(|p| {
            let r = lint_file(p, opts);
            if let Some(b) = &bar {
                b.inc(1);
            }
            r
        })
        .collect();
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    for r in results {
        match r? {
            One::Clean { parsed } => out.parsed += usize::from(parsed),
            One::Found(f) => {
                out.parsed += 1;
                out.files.push(f);
            }
            One::Failed(u) => out.unreadable.push(u),
        }
    }
    Ok(out)
}
