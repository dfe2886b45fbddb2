//! Python scripts: `cannctl lint` on the document's text.

use std::path::Path;

use cann_lint::{FileReport, Incremental, LintOptions};
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use super::{description, plain, severity, token_range, SOURCE};
use crate::session::Snapshot;

/// Scripts linted since the process started: a test's way to see that a request reused
/// the lint thread's findings.
pub static LINTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Why a script was not linted: the place, when there is one, and the reason.
pub type NotLinted = (Option<(u32, u32)>, String);

/// The script in `snap` linted as `cannctl lint` lints the same bytes (`None`: no finding);
/// or the reason it could not be linted (over the node budget), with its place. `memo`:
/// what the lint of the document's last version kept, which makes this one cost what
/// changed (the findings are the same either way).
pub fn report(
    snap: &Snapshot,
    memo: Option<&mut Incremental>,
) -> Result<Option<FileReport>, NotLinted> {
    let s = &snap.settings;
    let opts = LintOptions {
        product: s.product,
        release: s.release.unwrap_or(cann_config::Release::LATEST),
        lang: s.lang,
    };
    LINTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = snap.path.as_deref().unwrap_or(Path::new("-"));
    let bytes = snap.doc.text.as_bytes().to_vec();
    let outcome = match memo {
        Some(m) => cann_lint::lint_script_incremental(name, bytes, &opts, m),
        None => cann_lint::lint_script(name, bytes, &opts),
    }
    .map_err(|e| (None, e.message(s.lang)))?;
    if let Some(u) = outcome.unreadable.into_iter().next() {
        return Err((u.pos, u.reason));
    }
    Ok(outcome.files.into_iter().next())
}

/// The script's diagnostics, and the report they come from (kept for code actions).
pub fn diagnose(
    snap: &Snapshot,
    memo: Option<&mut Incremental>,
) -> (Vec<Diagnostic>, Option<FileReport>) {
    let docs = snap.settings.docs_url.as_deref();
    match report(snap, memo) {
        Ok(report) => {
            let fs = report.as_ref().map_or(&[][..], |r| &r.findings[..]);
            let ds = fs
                .iter()
                .map(|f| {
                    let d = &f.diagnostic;
                    let range = token_range(snap, d.line, d.column);
                    Diagnostic {
                        range,
                        severity: Some(severity(d.severity)),
                        code: Some(NumberOrString::String(f.rule_id().to_string())),
                        code_description: description(d, docs),
                        source: Some(SOURCE.into()),
                        message: d.message.clone(),
                        related_information: hint(snap, range, d),
                        ..Diagnostic::default()
                    }
                })
                .collect();
            (ds, report)
        }
        Err((pos, reason)) => {
            let range = token_range(snap, pos.map(|p| p.0), pos.map(|p| p.1));
            let m = cann_i18n::catalog::server::not_checked(snap.settings.lang, &reason);
            (
                vec![plain(range, DiagnosticSeverity::WARNING, None, m)],
                None,
            )
        }
    }
}

/// The finding's hint, as related information at the same place: the message stays the
/// command's, word for word, and editors show the hint under it.
pub fn hint(
    snap: &Snapshot,
    range: lsp_types::Range,
    d: &cann_config::Diagnostic,
) -> Option<Vec<lsp_types::DiagnosticRelatedInformation>> {
    let h = d.hint.as_ref()?;
    Some(vec![lsp_types::DiagnosticRelatedInformation {
        location: lsp_types::Location::new(snap.uri.clone(), range),
        message: h.clone(),
    }])
}
