use std::collections::HashMap;
use std::sync::Arc;

use lsp_types::request::CodeActionRequest;
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    NumberOrString, Range, TextEdit, Url, WorkspaceEdit,
};

use crate::api::{BackgroundRequest, Context};
use crate::document::Kind;
use crate::session::Snapshot;

pub struct CodeActionHandler;

impl BackgroundRequest for CodeActionHandler {
    type Request = CodeActionRequest;

    fn document(p: &CodeActionParams) -> &Url {
        &p.text_document.uri
    }

    /// Each safe fix `cannctl lint --fix` would make, as a quick fix on its finding, and one
    /// source action that makes them all, as `--fix` does.
    fn run(snap: &Snapshot, p: CodeActionParams, ctx: &Context) -> Option<CodeActionResponse> {
        if snap.doc.kind != Kind::Python
            || snap.excluded
            || snap.doc.text.len() > crate::diagnose::cap(snap.doc.kind)
        {
            return None;
        }
        let wants = |k: &CodeActionKind| {
            p.context
                .only
                .as_ref()
                .is_none_or(|only| only.iter().any(|o| k.as_str().starts_with(o.as_str())))
        };
        // The findings the lint thread published (or is about to) for this version; the
        // script is linted here only when that lint is late by more than a whole lint.
        let newest = || crate::workers::current(&ctx.versions, &snap.uri, snap.doc.version);
        let report = match ctx.lints.wait_for(snap, newest, crate::linted::WAIT) {
            Ok(kept) => kept?,
            Err(()) if !newest() => return None,
            Err(()) => Arc::new(crate::diagnose::python_report(snap, None).ok()??),
        };
        let (text, ix) = (&*snap.doc.text, &snap.doc.index);
        let edit = |edits: Vec<TextEdit>| WorkspaceEdit {
            changes: Some(HashMap::from([(snap.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        };
        let mut out = Vec::new();
        if wants(&CodeActionKind::QUICKFIX) {
            for f in &report.findings {
                let Some(fix) = &f.fix else { continue };
                let edits: Vec<TextEdit> = fix
                    .edits
                    .iter()
                    .map(|e| TextEdit::new(ix.range(text, e.start..e.end), e.replacement.clone()))
                    .collect();
                let Some(first) = edits.first() else { continue };
                let line = f.line().saturating_sub(1);
                if !overlaps(p.range, first.range)
                    && !(p.range.start.line..=p.range.end.line).contains(&line)
                {
                    continue;
                }
                // The finding's diagnostic as the client has it, so the fix shows on it.
                let diagnostics: Vec<_> = p
                    .context
                    .diagnostics
                    .iter()
                    .filter(|d| {
                        d.code == Some(NumberOrString::String(f.rule_id().to_string()))
                            && d.range.start.line == line
                    })
                    .cloned()
                    .collect();
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.description.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
                    edit: Some(edit(edits)),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                }));
            }
        }
        if wants(&CodeActionKind::SOURCE_FIX_ALL) {
            if let Some(fixed) = cann_lint::fix::fixed_from(&report, text.as_bytes().to_vec()) {
                let whole = ix.range(text, 0..text.len());
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: cann_i18n::catalog::server::fix_all(snap.settings.lang),
                    kind: Some(CodeActionKind::SOURCE_FIX_ALL),
                    edit: Some(edit(vec![TextEdit::new(whole, fixed.after)])),
                    ..CodeAction::default()
                }));
            }
        }
        Some(out)
    }
}

fn overlaps(a: Range, b: Range) -> bool {
    let key = |p: lsp_types::Position| (p.line, p.character);
    key(a.start) <= key(b.end) && key(b.start) <= key(a.end)
}
