use lsp_types::request::HoverRequest;
use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, Url};

use crate::api::{BackgroundRequest, Context};
use crate::config_cursor;
use crate::document::Kind;
use crate::hover_text::{self, At};
use crate::session::Snapshot;

pub struct HoverHandler;

impl BackgroundRequest for HoverHandler {
    type Request = HoverRequest;

    fn document(p: &HoverParams) -> &Url {
        &p.text_document_position_params.text_document.uri
    }

    fn run(snap: &Snapshot, p: HoverParams, _: &Context) -> Option<Hover> {
        let (text, ix) = (&*snap.doc.text, &snap.doc.index);
        if text.len() > crate::diagnose::cap(snap.doc.kind) {
            return None;
        }
        let offset = ix.offset(text, p.text_document_position_params.position);
        let s = &snap.settings;
        let at = At {
            release: s.release.unwrap_or(cann_config::Release::LATEST),
            product: s.product,
            lang: s.lang,
        };
        let (markdown, span) = match snap.doc.kind {
            Kind::Python => {
                let hit = cann_lint::cursor::hit_at(text, offset)?;
                let md = match hit.target {
                    cann_lint::cursor::Target::Option(o) => hover_text::option(o, at),
                    cann_lint::cursor::Target::Value(o, v) => hover_text::value(o, v, at),
                };
                (md, hit.span)
            }
            Kind::Config { .. } => {
                let (t, span) = config_cursor::hit_at(text, offset)?;
                let md = match t {
                    config_cursor::Target::Option(o) => hover_text::option(o, at),
                    config_cursor::Target::Value(o, v) => hover_text::value(o, v, at),
                };
                (md, span)
            }
            Kind::Pyproject | Kind::Other => return None,
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(ix.range(text, span)),
        })
    }
}
