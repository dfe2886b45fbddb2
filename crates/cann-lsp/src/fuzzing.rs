//! The document-change path without threads or a client, for the fuzz target and its
//! corpus replay: random incremental edits, then diagnostics, hover and completion at
//! every edit's place.

use std::sync::Arc;

use lsp_types::{
    CompletionParams, HoverParams, Position, Range, TextDocumentContentChangeEvent,
    TextDocumentIdentifier, TextDocumentPositionParams, Url,
};

use crate::api::{BackgroundRequest, Context};
use crate::document::{Document, Kind};
use crate::session::Snapshot;

/// Reads `data` as: a kind byte, then edits of (line, character, line, character, length,
/// text), each applied and followed by a diagnose, a hover and a completion. Diagnostics are
/// made as the server makes them, from what the last version's lint kept, and must equal a
/// fresh lint's.
pub fn document_changes(data: &[u8]) {
    let Some((&k, mut rest)) = data.split_first() else {
        return;
    };
    let (kind, name) = match k % 3 {
        0 => (Kind::Python, "file:///fuzz/train.py"),
        1 => (Kind::Config { json: false }, "file:///fuzz/config.yaml"),
        _ => (Kind::Config { json: true }, "file:///fuzz/config.json"),
    };
    let Ok(uri) = Url::parse(name) else { return };
    let mut doc = Document::new(String::new(), 0, kind);
    let settings = Arc::new(crate::settings::Effective::default());
    let mut version = 0;
    let mut memo = cann_lint::Incremental::default();
    let ctx = Context::default();
    while rest.len() >= 5 {
        let (head, tail) = rest.split_at(5);
        let len = usize::from(head[4] % 64).min(tail.len());
        let (text, next) = tail.split_at(len);
        rest = next;
        let p = |l: u8, c: u8| Position::new(u32::from(l % 16), u32::from(c % 40));
        let range = Range::new(p(head[0], head[1]), p(head[2], head[3]));
        version += 1;
        doc.apply(
            vec![TextDocumentContentChangeEvent {
                range: Some(range),
                range_length: None,
                text: String::from_utf8_lossy(text).into_owned(),
            }],
            version,
        );
        let snap = Snapshot {
            uri: uri.clone(),
            path: None,
            doc: doc.clone(),
            settings: settings.clone(),
            excluded: false,
        };
        let kept = crate::diagnose::diagnose(&snap, Some(&mut memo)).0;
        assert_eq!(
            kept,
            crate::diagnose::diagnose(&snap, None).0,
            "{:?}",
            snap.doc.text
        );
        let at =
            TextDocumentPositionParams::new(TextDocumentIdentifier::new(uri.clone()), range.end);
        let _ = crate::api::requests::HoverHandler::run(
            &snap,
            HoverParams {
                text_document_position_params: at.clone(),
                work_done_progress_params: Default::default(),
            },
            &ctx,
        );
        let _ = crate::api::requests::CompletionHandler::run(
            &snap,
            CompletionParams {
                text_document_position: at,
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
                context: None,
            },
            &ctx,
        );
    }
}
