//! Checks the CANN TF Adapter options that Python training scripts set, against the spec.
//!
//! Scripts are parsed with tree-sitter's Python grammar, which recovers from syntax errors,
//! so Python 2-era scripts and broken files still yield findings for the parts that parse.
//! Option settings are found on the three API surfaces (TF1 Estimator classes, TF1 session
//! `parameter_map`, TF2 `npu.global_options()`) and in the environment variables a script
//! sets for itself (`os.environ[...]`), turned into trees shaped like a user config
//! file and read and validated by `cann_config`, so a script gets exactly the findings a
//! config file with the same settings would, at the script's own lines and columns.
//!
//! - [`lint_source`]: one script's text.
//! - [`lint_paths`]: files and directories (honouring `.gitignore`), in parallel.
//! - [`live`]: config objects a running program built (a `ConfigProto`, `NPURunConfig`
//!   keyword arguments), checked as the same settings in a script are.
//! - [`sarif::to_sarif`]: SARIF 2.1.0 for code-scanning systems.
//! - [`cursor`] and [`complete`]: what a place in a script names, and what may be typed
//!   there, for the language server.

mod branch;
mod budget;
pub mod ci;
pub mod complete;
pub mod cursor;
mod docs;
mod extract;
mod finding_json;
pub mod fix;
mod imports;
mod incremental;
mod messages;
mod names;
mod object;
mod recover;
mod rules;
pub mod sarif;
mod select;
mod surface;
mod syntax;
mod walk;

use std::cell::RefCell;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use cann_config::meta::{Lang, Severity};
use cann_config::{Diagnostic, Product, Release};
use serde::Serialize;

pub use extract::live;
pub use incremental::{Incremental, Stats as IncrementalStats};
pub use walk::{
    lint_paths, lint_paths_where, lint_script, lint_script_incremental, FileReport, Outcome, Step,
    Unreadable, MAX_SCRIPT_BYTES,
};

/// The API a finding was made on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    /// `NPURunConfig(...)` and the classes passed to it.
    Estimator,
    /// `custom_op.parameter_map[...]` of a TF1 session.
    Session,
    /// `npu.global_options()` in TF2.
    Tf2,
    /// `os.environ[...]` set in the script; it applies to every config object of the script.
    Env,
}

/// What kind of finding: the script's use of an API, or the spec's verdict on a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// A name that is a likely misspelling of an option.
    UnknownOption,
    /// `parameter_map[...]` set through an accessor the option is not read with.
    Accessor,
    /// An option set on an API surface that does not offer it.
    NotOnSurface,
    /// A value of a type the API refuses (it raises when the script runs).
    Type,
    /// A finding of `cann_config`'s reader or validator (value, product, release, rule).
    Spec,
    /// How a session is set up around `parameter_map`: its `NpuOptimizer` entry and
    /// TensorFlow's own rewrite options.
    Session,
}

/// One finding in a script. The diagnostic always has a line and column. Serialized with
/// its [`Finding::rule_id`] as `rule`, whatever its kind (see `finding_json.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub surface: Surface,
    pub kind: FindingKind,
    pub diagnostic: Diagnostic,
    /// A safe fix, when there is one (`cannctl lint --fix` applies it).
    pub fix: Option<Fix>,
}

/// Edits that fix one finding without changing anything else the script does: only the
/// tokens that must change are touched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// What the fix does, in the finding's language.
    pub description: String,
    pub edits: Vec<Edit>,
}

/// Replace the bytes `start..end` of the script with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

impl Finding {
    pub fn line(&self) -> u32 {
        self.diagnostic.line.unwrap_or(1)
    }

    pub fn column(&self) -> u32 {
        self.diagnostic.column.unwrap_or(1)
    }

    pub fn severity(&self) -> Severity {
        self.diagnostic.severity
    }

    /// A stable id for grouping: the spec rule, the option path, or the kind of misuse
    /// (each rule's module gives it).
    pub fn rule_id(&self) -> &str {
        rules::id(self)
    }
}

/// What scripts are checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LintOptions {
    /// `None`: report only what is wrong on every product of the release.
    pub product: Option<Product>,
    pub release: Release,
    pub lang: Lang,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            product: None,
            release: Release::LATEST,
            lang: Lang::En,
        }
    }
}

/// Syntax-tree nodes of one script at most, about 200 MB of tree. The largest script of the
/// ModelZoo corpus has under 50,000 tokens, so about 100,000 nodes. Checked before parsing
/// (as half as many tokens, see `budget.rs`) and while walking.
pub const NODE_BUDGET: usize = 2_000_000;

#[derive(Debug, thiserror::Error)]
pub enum LintError {
    #[error("the Python grammar could not be loaded: {0}")]
    Grammar(String),
    /// The script's syntax tree is larger than [`NODE_BUDGET`].
    #[error("{line}:{column}: {message}")]
    Budget {
        line: u32,
        column: u32,
        message: String,
        hint: String,
    },
    /// A file to fix could not be read again.
    #[error(transparent)]
    Input(#[from] cann_input::InputError),
    #[error("{path}: {source}")]
    Path {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl LintError {
    /// What went wrong, in `lang`: an I/O error by its kind, with the path.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            LintError::Grammar(detail) => cann_i18n::catalog::lint::grammar(lang, detail),
            LintError::Budget {
                line,
                column,
                message,
                ..
            } => format!("{line}:{column}: {message}"),
            LintError::Input(e) => e.message(lang),
            LintError::Path { path, source } => {
                format!(
                    "{}: {}",
                    path.display(),
                    cann_input::io_reason(source, lang)
                )
            }
        }
    }
}

/// The findings in one script, and whether tree-sitter had to recover from syntax errors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceReport {
    pub findings: Vec<Finding>,
    pub syntax_errors: bool,
    /// `false` when the text names no option surface and was not parsed at all.
    pub parsed: bool,
}

/// Names without which a script sets no option; `None` if the matcher cannot be built, in
/// which case every script is parsed.
static TRIGGERS: LazyLock<Option<AhoCorasick>> =
    LazyLock::new(|| AhoCorasick::new(names::triggers()).ok());

thread_local! {
    // A parser per thread: tree_sitter::Parser is not Sync, and building one per file
    // would redo the language setup thousands of times on a large tree.
    static PARSER: RefCell<Option<tree_sitter::Parser>> = const { RefCell::new(None) };
}

/// tree-sitter's row and byte column of each offset in `offsets`, which must be ascending.
fn points(text: &str, offsets: &[usize]) -> Vec<tree_sitter::Point> {
    let (mut row, mut line_start, mut at) = (0, 0, 0);
    let bytes = text.as_bytes();
    offsets
        .iter()
        .map(|&o| {
            while at < o.min(bytes.len()) {
                if bytes[at] == b'\n' {
                    row += 1;
                    line_start = at + 1;
                }
                at += 1;
            }
            tree_sitter::Point::new(row, o.saturating_sub(line_start))
        })
        .collect()
}

/// Parses `text`, or only `ranges` of it (positions stay those of the whole text).
fn parse(
    text: &str,
    ranges: Option<&[std::ops::Range<usize>]>,
) -> Result<Option<tree_sitter::Tree>, LintError> {
    parse_with(text, ranges, None)
}

/// [`parse`] again after `old` was edited to `text`: what did not change is reused.
fn parse_again(
    text: &str,
    ranges: Option<&[std::ops::Range<usize>]>,
    old: &tree_sitter::Tree,
) -> Result<Option<tree_sitter::Tree>, LintError> {
    parse_with(text, ranges, Some(old))
}

fn parse_with(
    text: &str,
    ranges: Option<&[std::ops::Range<usize>]>,
    old: Option<&tree_sitter::Tree>,
) -> Result<Option<tree_sitter::Tree>, LintError> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut p = tree_sitter::Parser::new();
            p.set_language(&tree_sitter_python::LANGUAGE.into())
                .map_err(|e| LintError::Grammar(e.to_string()))?;
            *slot = Some(p);
        }
        let Some(p) = slot.as_mut() else {
            return Ok(None);
        };
        let included: Vec<tree_sitter::Range> = match ranges {
            Some(rs) => {
                let ends: Vec<usize> = rs.iter().flat_map(|r| [r.start, r.end]).collect();
                let pts = points(text, &ends);
                rs.iter()
                    .zip(pts.chunks_exact(2))
                    .map(|(r, pt)| tree_sitter::Range {
                        start_byte: r.start,
                        end_byte: r.end,
                        start_point: pt[0],
                        end_point: pt[1],
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        // Ranges that tree-sitter refuses mean the whole text is parsed instead.
        if p.set_included_ranges(&included).is_err() {
            let _ = p.set_included_ranges(&[]);
        }
        let tree = p.parse(text, old);
        // The parser is reused for the next file on this thread: back to whole documents.
        let _ = p.set_included_ranges(&[]);
        Ok(tree)
    })
}

fn budget_error(line: u32, column: u32, lang: Lang) -> LintError {
    LintError::Budget {
        line,
        column,
        message: messages::node_budget(lang, NODE_BUDGET),
        hint: messages::node_budget_hint(lang),
    }
}

/// The findings of the settings in a parsed script; `memo` may answer for objects it
/// checked before.
fn findings_in(
    root: tree_sitter::Node<'_>,
    text: &str,
    opts: &LintOptions,
    mut memo: Option<&mut Incremental>,
) -> Result<Vec<Finding>, LintError> {
    let src = syntax::Source::new(text);
    let objects = extract::objects(root, &src, opts.lang, NODE_BUDGET)
        .map_err(|e| budget_error(e.at.line, e.at.col, opts.lang))?;
    Ok(objects
        .into_iter()
        .flat_map(|o| match memo.as_deref_mut() {
            Some(m) => m.check(o, opts),
            None => rules::spec::check(o, opts),
        })
        .collect())
}

/// Lints one script's text. Findings are in source order.
pub fn lint_source(text: &str, opts: &LintOptions) -> Result<SourceReport, LintError> {
    lint_text(text, opts, true)
}

/// `text` with every lone carriage return (old Mac line endings, which Python reads as line
/// breaks) turned into a line feed, so that lines count as Python counts them. Offsets do
/// not move: one byte becomes one byte.
pub fn normalize_newlines(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let lone = |i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    if !memchr::memchr_iter(b'\r', b).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let out: String = text
        .char_indices()
        .map(|(i, c)| if c == '\r' && lone(i) { '\n' } else { c })
        .collect();
    std::borrow::Cow::Owned(out)
}

/// Whether `bytes` name an option surface at all; a script that does not sets no option and
/// needs no parse. On raw bytes, since the names are ASCII and most files of a tree stop here.
pub(crate) fn may_set_options(bytes: &[u8]) -> bool {
    TRIGGERS
        .as_ref()
        .is_none_or(|ac| select::sets_options(ac, bytes))
}

/// [`lint_source`] of a text whose line endings [`normalize_newlines`] already saw to and
/// whose bytes [`may_set_options`] already passed.
pub(crate) fn lint_normalized(
    text: &str,
    opts: &LintOptions,
    memo: Option<&mut Incremental>,
) -> Result<SourceReport, LintError> {
    lint_prepared(text, opts, true, true, memo)
}

fn lint_text(text: &str, opts: &LintOptions, select: bool) -> Result<SourceReport, LintError> {
    lint_prepared(&normalize_newlines(text), opts, select, false, None)
}

/// `screened`: the text is known to pass [`may_set_options`], which need not scan it again.
/// `memo`: what the last lint of the same document kept (see [`Incremental`]).
fn lint_prepared(
    text: &str,
    opts: &LintOptions,
    select: bool,
    screened: bool,
    mut memo: Option<&mut Incremental>,
) -> Result<SourceReport, LintError> {
    let ranges = match TRIGGERS.as_ref() {
        Some(ac) if !screened && !select::sets_options(ac, text.as_bytes()) => {
            return Ok(SourceReport::default())
        }
        Some(ac) if select => select::ranges(text, ac),
        _ => None,
    };
    // No statement sets anything (an empty list of ranges would mean the whole text).
    if ranges.as_ref().is_some_and(Vec::is_empty) {
        return Ok(SourceReport::default());
    }
    if let Some(at) = budget::tokens_over(text, ranges.as_deref(), NODE_BUDGET / 2) {
        let p = points(text, &[at]).first().copied().unwrap_or_default();
        let line_start = at.saturating_sub(p.column);
        let col = text
            .get(line_start..at)
            .map_or(p.column, |s| s.chars().count());
        return Err(budget_error(
            u32::try_from(p.row + 1).unwrap_or(u32::MAX),
            u32::try_from(col + 1).unwrap_or(u32::MAX),
            opts.lang,
        ));
    }
    if let Some(m) = memo.as_deref_mut() {
        m.begin(opts);
    }
    let tree = match memo.as_deref_mut() {
        Some(m) => m.parse(text, ranges.as_deref())?,
        None => parse(text, ranges.as_deref())?,
    };
    let Some(tree) = tree else {
        return Ok(SourceReport::default());
    };
    let root = tree.root_node();
    let mut findings = findings_in(root, text, opts, memo.as_deref_mut())?;
    // Half-typed code: the parts after a broken line, parsed without it (see `recover`).
    // What the first tree found on the blanked lines themselves stays.
    if let Some(r) = recover::reparse(text, ranges.as_deref(), &tree)? {
        findings.retain(|f| r.blanks_line(text, f.line()));
        findings.extend(findings_in(
            r.tree.root_node(),
            &r.text,
            opts,
            memo.as_deref_mut(),
        )?);
    }
    if let Some(m) = memo {
        m.end();
    }
    // One finding per problem and place, across objects too: a class finding or an
    // environment variable's finding is said once.
    let keep: Vec<bool> = {
        let mut seen = std::collections::HashSet::new();
        findings
            .iter()
            .map(|f| {
                let d = &f.diagnostic;
                seen.insert((d.line, d.column, d.option.as_str(), d.message.as_str()))
            })
            .collect()
    };
    let mut keep = keep.into_iter();
    findings.retain(|_| keep.next().unwrap_or(true));
    findings.sort_by(|a, b| {
        (a.line(), a.column(), a.kind, &a.diagnostic.option).cmp(&(
            b.line(),
            b.column(),
            b.kind,
            &b.diagnostic.option,
        ))
    });
    Ok(SourceReport {
        findings,
        syntax_errors: root.has_error(),
        parsed: true,
    })
}

#[cfg(test)]
#[path = "lib_tests.rs"]
mod tests;
