//! cannctl config files (YAML or JSON): `cannctl check` on the document's text.

use cann_check::CheckError;
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString};

use super::python::hint;
use super::{description, plain, severity, token_range, SOURCE};
use crate::session::Snapshot;

/// Whether a YAML or JSON text is a cannctl config rather than some other file of the
/// project (a CI workflow, a manifest): it has a top-level `npu_run_config` or `product`
/// key, the keys every config starts from.
pub fn is_config(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_end();
        let key = |k: &str| {
            l.strip_prefix(k)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        };
        key("npu_run_config") || key("product") || {
            let t = l.trim_start();
            (t.starts_with("\"npu_run_config\"") || t.starts_with("\"product\""))
                && l.len() - t.len() <= 4
        }
    })
}

/// The name findings are reported under: the file's path, as `check` would say it.
fn name(snap: &Snapshot) -> String {
    snap.path
        .as_deref()
        .map_or_else(|| "-".into(), cann_input::display_name)
}

pub fn diagnose(snap: &Snapshot, json: bool) -> Vec<Diagnostic> {
    let s = &snap.settings;
    let lang = s.lang;
    let text = snap.doc.text.to_string();
    let stop = |e: CheckError| {
        let (line, col) = match &e {
            CheckError::Parse { pos: Some(p), .. } => (Some(p.line), Some(p.col)),
            _ => (None, None),
        };
        let mut d = plain(
            token_range(snap, line, col),
            DiagnosticSeverity::ERROR,
            None,
            e.message(lang),
        );
        if let Some(h) = e.hint(lang) {
            let mut cd = cann_config::Diagnostic::new(cann_config::meta::Severity::Error, "", "");
            cd.hint = Some(h);
            d.related_information = hint(snap, d.range, &cd);
        }
        vec![d]
    };
    let loaded = match cann_check::load_text(&name(snap), text, json, lang) {
        Ok(l) => l,
        Err(e) => return stop(e),
    };
    let project = cann_check::settings::Settings {
        product: s.product,
        release: s.release,
        ..Default::default()
    };
    let target = match cann_check::target_in(None, None, &loaded.file, &project, lang) {
        Ok(t) => t,
        Err(e) => return stop(e),
    };
    let docs = s.docs_url.as_deref();
    cann_check::diagnose(&loaded, target, None, lang)
        .iter()
        .map(|d| {
            let range = token_range(snap, d.line, d.column);
            Diagnostic {
                range,
                severity: Some(severity(d.severity)),
                code: Some(NumberOrString::String(
                    d.rule.map_or_else(|| d.option.clone(), str::to_string),
                )),
                code_description: description(d, docs),
                source: Some(SOURCE.into()),
                message: d.message.clone(),
                related_information: hint(snap, range, d),
                ..Diagnostic::default()
            }
        })
        .collect()
}
