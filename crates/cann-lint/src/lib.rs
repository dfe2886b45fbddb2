//! Checks the CANN TF Adapter options that Python training scripts set, against the spec.
//!
//! Scripts are parsed with tree-sitter's Python grammar, which recovers from syntax errors,
//! so Python 2-era scripts and broken files still yield findings for the parts that parse.
//! Option settings are found on the three API surfaces (TF1 Estimator classes, TF1 session
//! `parameter_map`, TF2 `npu.global_options()`), turned into trees shaped like a user config
//! file and read and validated by `cann_config`, so a script gets exactly the findings a
//! config file with the same settings would, at the script's own lines and columns.
//!
//! - [`lint_source`]: one script's text.
//! - [`lint_paths`]: files and directories (honouring `.gitignore`), in parallel.
//! - [`sarif::to_sarif`]: SARIF 2.1.0 for code-scanning systems.

mod check;
mod extract;
mod names;
pub mod sarif;
mod syntax;
mod walk;

use std::cell::RefCell;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use cann_config::meta::{Lang, Severity};
use cann_config::{Diagnostic, Product, Release};
use serde::Serialize;

pub use walk::{lint_paths, FileReport, Outcome, Unreadable};

/// The API a finding was made on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    /// `NPURunConfig(...)` and the classes passed to it.
    Estimator,
    /// `custom_op.parameter_map[...]` of a TF1 session.
    Session,
    /// `npu.global_options()` in TF2.
    Tf2,
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
    /// A finding of `cann_config`'s reader or validator (value, product, release, rule).
    Spec,
}

/// One finding in a script. The diagnostic always has a line and column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub surface: Surface,
    pub kind: FindingKind,
    #[serde(flatten)]
    pub diagnostic: Diagnostic,
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

    /// A stable id for grouping: the spec rule, the option path, or the kind of misuse.
    pub fn rule_id(&self) -> &str {
        match self.kind {
            FindingKind::UnknownOption => "unknown-option",
            FindingKind::Accessor => "session-accessor",
            FindingKind::NotOnSurface => "not-on-surface",
            FindingKind::Spec => match self.diagnostic.rule {
                Some(r) => r,
                None if self.diagnostic.option.is_empty() => "config",
                None => &self.diagnostic.option,
            },
        }
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

#[derive(Debug, thiserror::Error)]
pub enum LintError {
    #[error("the Python grammar could not be loaded: {0}")]
    Grammar(String),
    #[error("{path}: {source}")]
    Path {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
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

fn parse(text: &str) -> Result<Option<tree_sitter::Tree>, LintError> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut p = tree_sitter::Parser::new();
            p.set_language(&tree_sitter_python::LANGUAGE.into())
                .map_err(|e| LintError::Grammar(e.to_string()))?;
            *slot = Some(p);
        }
        Ok(slot.as_mut().and_then(|p| p.parse(text, None)))
    })
}

/// Lints one script's text. Findings are in source order.
pub fn lint_source(text: &str, opts: &LintOptions) -> Result<SourceReport, LintError> {
    if let Some(ac) = TRIGGERS.as_ref() {
        if !ac.is_match(text) {
            return Ok(SourceReport::default());
        }
    }
    let Some(tree) = parse(text)? else {
        return Ok(SourceReport::default());
    };
    let root = tree.root_node();
    let src = syntax::Source { text };
    let mut findings: Vec<Finding> = extract::objects(root, &src, opts.lang)
        .into_iter()
        .flat_map(|o| check::check(o, opts))
        .collect();
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
