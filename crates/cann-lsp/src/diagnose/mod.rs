//! A document's findings as LSP diagnostics: the same findings `cannctl lint --format json`
//! and `cannctl check --format json` report for the same text, placed in UTF-16.

mod config;
mod python;

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticSeverity, NumberOrString, Position, Range, Url,
};

use crate::document::Kind;
use crate::session::Snapshot;

pub use config::is_config;
pub use python::{report as python_report, LINTS};

/// The source every diagnostic carries.
pub const SOURCE: &str = "cannctl";

/// Documents whose text holds a NUL byte are binary: they get one diagnostic and no work.
fn binary(text: &str) -> bool {
    memchr_nul(text.as_bytes())
}

fn memchr_nul(b: &[u8]) -> bool {
    b.contains(&0)
}

/// The cap a document of `kind` is checked under: what the command reads at most.
pub fn cap(kind: Kind) -> usize {
    match kind {
        Kind::Config { .. } => cann_check::CONFIG_LIMITS.max_bytes as usize,
        _ => cann_lint::MAX_SCRIPT_BYTES as usize,
    }
}

/// One diagnostic at the top of the document saying why it is not checked, or `None` when
/// it may be checked.
fn refused(snap: &Snapshot) -> Option<Diagnostic> {
    let lang = snap.settings.lang;
    let msg = cann_i18n::catalog::server::too_large;
    let size = snap.doc.dropped.unwrap_or(snap.doc.text.len());
    let message = if size > cap(snap.doc.kind) {
        msg(lang, size, cap(snap.doc.kind))
    } else if binary(&snap.doc.text) {
        cann_i18n::catalog::server::binary(lang)
    } else {
        return None;
    };
    Some(plain(
        Range::default(),
        DiagnosticSeverity::WARNING,
        None,
        message,
    ))
}

/// A diagnostic of the server itself (settings, a document refused).
fn plain(
    range: Range,
    severity: DiagnosticSeverity,
    code: Option<String>,
    message: String,
) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(severity),
        code: code.map(NumberOrString::String),
        source: Some(SOURCE.into()),
        message,
        ..Diagnostic::default()
    }
}

fn severity(s: cann_config::meta::Severity) -> DiagnosticSeverity {
    use cann_config::meta::Severity;
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::INFORMATION,
    }
}

/// The docs page of a finding's option, when a docs URL is configured.
fn description(d: &cann_config::Diagnostic, docs_url: Option<&str>) -> Option<CodeDescription> {
    let page = cann_lint::sarif::docs_page(d, docs_url?)?;
    Some(CodeDescription {
        href: Url::parse(&page).ok()?,
    })
}

/// The settings' problems, said on the first line of every document they apply to.
fn settings_problems(snap: &Snapshot) -> Vec<Diagnostic> {
    let lang = snap.settings.lang;
    snap.settings
        .problems
        .iter()
        .map(|e| {
            let mut m = cann_i18n::catalog::server::settings_error(lang, &e.place(), &e.message);
            if let Some(h) = &e.hint {
                m.push_str(&format!(" ({h})"));
            }
            plain(Range::default(), DiagnosticSeverity::WARNING, None, m)
        })
        .collect()
}

/// Every diagnostic of the document in `snap`, and for a script the lint's report they
/// come from; `memo` is what the lint of the document's last version kept (see
/// [`cann_lint::Incremental`]).
pub fn diagnose(
    snap: &Snapshot,
    memo: Option<&mut cann_lint::Incremental>,
) -> (Vec<Diagnostic>, Option<cann_lint::FileReport>) {
    if snap.excluded {
        return (Vec::new(), None);
    }
    let checked = matches!(snap.doc.kind, Kind::Python)
        || (matches!(snap.doc.kind, Kind::Config { .. }) && is_config(&snap.doc.text));
    if !checked {
        return (Vec::new(), None);
    }
    let mut out = settings_problems(snap);
    if let Some(d) = refused(snap) {
        out.push(d);
        return (out, None);
    }
    let mut report = None;
    match snap.doc.kind {
        Kind::Python => {
            let (ds, r) = python::diagnose(snap, memo);
            out.extend(ds);
            report = r;
        }
        Kind::Config { json } => out.extend(config::diagnose(snap, json)),
        Kind::Pyproject | Kind::Other => {}
    }
    (out, report)
}

/// A range from the core's 1-based line and character column to the end of the token
/// there (a name, a string with its quotes, a number).
fn token_range(snap: &Snapshot, line: Option<u32>, col: Option<u32>) -> Range {
    let (text, ix) = (&*snap.doc.text, &snap.doc.index);
    let Some(line) = line else {
        return Range::new(Position::new(0, 0), Position::new(0, 0));
    };
    let start = ix.offset_of_line_col(text, line, col.unwrap_or(1));
    let rest = text.get(start..).unwrap_or("");
    let len = token_len(rest);
    ix.range(text, start..start + len)
}

fn token_len(rest: &str) -> usize {
    let mut chars = rest.char_indices();
    match chars.next() {
        Some((_, q @ ('"' | '\''))) => chars
            .find(|(_, c)| *c == q || *c == '\n')
            .map_or(rest.len(), |(i, c)| if c == q { i + 1 } else { i }),
        Some(_) => rest
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .map_or(rest.len(), |(i, _)| i),
        None => 0,
    }
}
