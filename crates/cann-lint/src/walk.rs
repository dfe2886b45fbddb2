//! Files and directories to scripts, linted in parallel.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use cann_config::meta::Lang;
use cann_i18n::catalog::lint as msg;

use crate::{Finding, LintError, LintOptions};

/// Training scripts are kilobytes; the largest `.py` of the ModelZoo corpus (a table of word
/// vectors) is 2.2 MB. A larger one is generated data, not worth the memory.
pub const MAX_SCRIPT_BYTES: u64 = 4 * 1024 * 1024;

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

impl Outcome {
    fn add(&mut self, one: One) {
        match one {
            One::Clean { parsed } => self.parsed += usize::from(parsed),
            One::Found(f) => {
                self.parsed += 1;
                self.files.push(f);
            }
            One::Failed(u) => self.unreadable.push(u),
        }
    }
}

fn is_python(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "py")
}

/// Scripts below `paths`: a file named directly is always taken; directories are walked
/// with ripgrep's parallel walker, which skips hidden files and what `.gitignore` and
/// `.ignore` say. The result is sorted, so the order never depends on the threads.
fn discover(
    paths: &[PathBuf],
    unreadable: &mut Vec<Unreadable>,
    lang: Lang,
    keep: &(dyn Fn(&Path) -> bool + Sync),
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
        let found = Mutex::new((Vec::new(), Vec::new()));
        ignore::WalkBuilder::new(p).build_parallel().run(|| {
            let found = &found;
            Box::new(move |entry| {
                let Ok(mut lists) = found.lock() else {
                    return ignore::WalkState::Quit;
                };
                match entry {
                    Ok(e) => {
                        if e.file_type().is_some_and(|t| t.is_file())
                            && is_python(e.path())
                            && keep(e.path())
                        {
                            lists.0.push(e.into_path());
                        }
                    }
                    Err(e) => lists.1.push(walk_error(p, &e, lang)),
                }
                ignore::WalkState::Continue
            })
        });
        let (mut scripts, mut errors) = found
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        files.append(&mut scripts);
        errors.sort();
        unreadable.extend(errors.into_iter().map(|reason| Unreadable {
            path: p.clone(),
            pos: None,
            reason,
        }));
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// A walker's error in `lang`: the entry it names and, for an I/O error, its kind.
fn walk_error(root: &Path, e: &ignore::Error, lang: Lang) -> String {
    fn path_of(e: &ignore::Error) -> Option<&Path> {
        match e {
            ignore::Error::WithPath { path, .. } => Some(path),
            ignore::Error::WithLineNumber { err, .. } | ignore::Error::WithDepth { err, .. } => {
                path_of(err)
            }
            ignore::Error::Loop { child, .. } => Some(child),
            _ => None,
        }
    }
    let at = path_of(e).unwrap_or(root).display();
    match (e, e.io_error()) {
        (_, Some(io)) => format!("{at}: {}", cann_input::io_reason(io, lang)),
        (ignore::Error::Loop { ancestor, .. }, None) => {
            format!(
                "{at}: {}",
                msg::walk_loop(lang, &ancestor.display().to_string())
            )
        }
        // A malformed ignore file: the walker's own words name the glob.
        _ => format!("{at}: {}", msg::walk_other(lang, &e.to_string())),
    }
}

enum One {
    Clean { parsed: bool },
    Found(FileReport),
    Failed(Unreadable),
}

fn lint_file(path: &Path, opts: &LintOptions) -> Result<One, LintError> {
    // Non-blocking open, regular files only, at most MAX_SCRIPT_BYTES actually read.
    match cann_input::read_bytes(path, cann_input::Limits::new(MAX_SCRIPT_BYTES)) {
        Ok(bytes) => lint_bytes(path, bytes, opts, None),
        Err(e) => Ok(One::Failed(Unreadable {
            path: path.to_path_buf(),
            pos: None,
            reason: e.message(opts.lang),
        })),
    }
}

/// One script's bytes, as read; `path` is the name findings are reported under. `memo`:
/// what the last lint of the same document kept.
fn lint_bytes(
    path: &Path,
    bytes: Vec<u8>,
    opts: &LintOptions,
    memo: Option<&mut crate::Incremental>,
) -> Result<One, LintError> {
    // Most scripts of a tree name no option surface: they stop here, on the raw bytes,
    // before any decoding or copying.
    if !crate::may_set_options(&bytes) {
        return Ok(One::Clean { parsed: false });
    }
    // Python 2-era scripts may be Latin-1; undecodable bytes become U+FFFD, and the
    // option names and values, which are ASCII, still read.
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    // The text kept for showing lines counts lines as the findings do; it is copied only
    // when it has lone carriage returns to turn into line feeds.
    let normalized = match crate::normalize_newlines(&text) {
        std::borrow::Cow::Owned(t) => Some(t),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let text = normalized.unwrap_or(text);
    let r = match crate::lint_normalized(&text, opts, memo) {
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

/// How far a walk has got, told as it goes (from several threads at once): the number of
/// scripts found, then a step per script linted. Drawing it is the front end's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Found(usize),
    Linted,
}

/// Lints every script below `paths`. A path that does not exist is an error; a script that
/// cannot be read is listed in [`Outcome::unreadable`] and the rest are still linted.
pub fn lint_paths(paths: &[PathBuf], opts: &LintOptions) -> Result<Outcome, LintError> {
    lint_paths_where(paths, opts, &|_| {}, &|_| true)
}

/// As [`lint_paths`], walking only the scripts `keep` takes (a project's `exclude`); files
/// named in `paths` are taken as they are. `progress` is told each [`Step`].
pub fn lint_paths_where(
    paths: &[PathBuf],
    opts: &LintOptions,
    progress: &(dyn Fn(Step) + Sync),
    keep: &(dyn Fn(&Path) -> bool + Sync),
) -> Result<Outcome, LintError> {
    let mut out = Outcome::default();
    let files = discover(paths, &mut out.unreadable, opts.lang, keep)?;
    out.scanned = files.len();
    progress(Step::Found(files.len()));
    let results: Vec<Result<One, LintError>> = files
        .par_iter()
        .map(|p| {
            let r = lint_file(p, opts);
            progress(Step::Linted);
            r
        })
        .collect();
    for r in results {
        out.add(r?);
    }
    Ok(out)
}

/// Lints one script given as its bytes (read from standard input, say, under
/// [`MAX_SCRIPT_BYTES`]), with findings under `name`.
pub fn lint_script(name: &Path, bytes: Vec<u8>, opts: &LintOptions) -> Result<Outcome, LintError> {
    let mut out = Outcome {
        scanned: 1,
        ..Outcome::default()
    };
    out.add(lint_bytes(name, bytes, opts, None)?);
    Ok(out)
}

/// [`lint_script`] of one more version of a document linted before with the same `memo`
/// (an editor's buffer): the same outcome, at the cost of what changed (see
/// [`crate::Incremental`]).
pub fn lint_script_incremental(
    name: &Path,
    bytes: Vec<u8>,
    opts: &LintOptions,
    memo: &mut crate::Incremental,
) -> Result<Outcome, LintError> {
    let mut out = Outcome {
        scanned: 1,
        ..Outcome::default()
    };
    out.add(lint_bytes(name, bytes, opts, Some(memo))?);
    Ok(out)
}
