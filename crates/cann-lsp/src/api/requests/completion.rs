use cann_config::meta::{Lit, OptionMeta};
use cann_lint::complete::{self, Filter, Site};
use lsp_types::request::Completion;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionItemTag, CompletionParams, CompletionResponse,
    CompletionTextEdit, Documentation, MarkupContent, MarkupKind, Range, TextEdit, Url,
};

use crate::api::{BackgroundRequest, Context};
use crate::config_cursor;
use crate::document::Kind;
use crate::session::Snapshot;

pub struct CompletionHandler;

impl BackgroundRequest for CompletionHandler {
    type Request = Completion;

    fn document(p: &CompletionParams) -> &Url {
        &p.text_document_position.text_document.uri
    }

    fn run(snap: &Snapshot, p: CompletionParams, _: &Context) -> Option<CompletionResponse> {
        let (text, ix) = (&*snap.doc.text, &snap.doc.index);
        if text.len() > crate::diagnose::cap(snap.doc.kind) {
            return None;
        }
        let offset = ix.offset(text, p.text_document_position.position);
        let items = match snap.doc.kind {
            Kind::Python => python(snap, offset)?,
            Kind::Config { json } => config(snap, offset, json)?,
            _ => return None,
        };
        Some(CompletionResponse::Array(items))
    }
}

fn filter(snap: &Snapshot) -> Filter {
    Filter {
        product: snap.settings.product,
        release: snap
            .settings
            .release
            .unwrap_or(cann_config::Release::LATEST),
    }
}

/// One completion item replacing `start..end` of the text with `insert`.
fn item(
    snap: &Snapshot,
    label: &str,
    insert: String,
    span: std::ops::Range<usize>,
    kind: CompletionItemKind,
    option: Option<&'static OptionMeta>,
    f: &Filter,
) -> CompletionItem {
    let (text, ix) = (&*snap.doc.text, &snap.doc.index);
    let range: Range = ix.range(text, span);
    let deprecated = option.is_some_and(|o| f.deprecated(o));
    let lang = snap.settings.lang;
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: option.map(|o| o.path.to_string()),
        documentation: option.map(|o| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: o.doc.get(lang).to_string(),
            })
        }),
        tags: deprecated.then(|| vec![CompletionItemTag::DEPRECATED]),
        filter_text: Some(label.to_string()),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(range, insert))),
        ..CompletionItem::default()
    }
}

fn python(snap: &Snapshot, offset: usize) -> Option<Vec<CompletionItem>> {
    let text = &*snap.doc.text;
    let site = complete::site_at(text, offset)?;
    let f = filter(snap);
    let after = text.get(offset..).unwrap_or("");
    let items = match &site {
        Site::SessionKey { start } => {
            // The quote that opened the key, and what an editor closed already (`"]`).
            let quote = text[..*start].chars().last().unwrap_or('"');
            let closed = format!("{quote}]");
            let end = offset
                + if after.starts_with(&closed) {
                    closed.len()
                } else if after.starts_with(quote) {
                    1
                } else {
                    0
                };
            complete::candidates(&site, &f)
                .into_iter()
                .filter_map(|c| {
                    let o = c.option?;
                    let tail = complete::session_tail(o).unwrap_or_default();
                    let insert = format!("{}{closed}{tail}", c.label);
                    Some(item(
                        snap,
                        &c.label,
                        insert,
                        *start..end,
                        CompletionItemKind::FIELD,
                        Some(o),
                        &f,
                    ))
                })
                .collect()
        }
        // After `parameter_map["key"].`: the accessor and an example value, as after a key.
        Site::Accessor { option, start } => complete::candidates(&site, &f)
            .into_iter()
            .map(|c| {
                let tail = complete::session_tail(option).unwrap_or_default();
                let insert = tail.trim_start_matches('.').to_string();
                let mut it = item(
                    snap,
                    &insert,
                    insert.clone(),
                    *start..offset,
                    CompletionItemKind::PROPERTY,
                    Some(option),
                    &f,
                );
                // What is typed after the dot is the accessor's letter.
                it.filter_text = Some(c.label);
                it
            })
            .collect(),
        Site::Keyword { start, .. } => complete::candidates(&site, &f)
            .into_iter()
            .map(|c| {
                let insert = format!("{}=", c.label);
                item(
                    snap,
                    &c.label,
                    insert,
                    *start..offset,
                    CompletionItemKind::PROPERTY,
                    c.option,
                    &f,
                )
            })
            .collect(),
        Site::Tf2 { start, .. } | Site::Env { start } => {
            let kind = if matches!(site, Site::Env { .. }) {
                CompletionItemKind::CONSTANT
            } else {
                CompletionItemKind::FIELD
            };
            complete::candidates(&site, &f)
                .into_iter()
                .map(|c| {
                    item(
                        snap,
                        &c.label,
                        c.label.clone(),
                        *start..offset,
                        kind,
                        c.option,
                        &f,
                    )
                })
                .collect()
        }
        Site::Value {
            option,
            start,
            quoted,
        } => values(snap, option, *start..offset, *quoted, Syntax::Python, &f),
    };
    Some(items)
}

/// How a value is written in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Python,
    Yaml,
    Json,
}

/// The values of `o` the release takes, written as the document's syntax writes them
/// (bare inside a string the user opened).
fn values(
    snap: &Snapshot,
    o: &'static OptionMeta,
    span: std::ops::Range<usize>,
    quoted: bool,
    syntax: Syntax,
    f: &Filter,
) -> Vec<CompletionItem> {
    let lang = snap.settings.lang;
    let (text, ix) = (&*snap.doc.text, &snap.doc.index);
    o.in_release(f.release)
        .available_values()
        .filter_map(|v| {
            let m = v.value;
            let insert = match (m.value, syntax) {
                (Lit::Str(s), _) if quoted || syntax == Syntax::Yaml => s.to_string(),
                (Lit::Str(s), _) => format!("\"{s}\""),
                // Inside a JSON string only strings can be written.
                (_, Syntax::Json) if quoted => return None,
                (Lit::Int(i), _) => i.to_string(),
                (Lit::Float(x), _) => x.to_string(),
                (Lit::Bool(b), Syntax::Python) => if b { "True" } else { "False" }.to_string(),
                (Lit::Bool(b), _) => b.to_string(),
            };
            Some(CompletionItem {
                label: insert.clone(),
                kind: Some(CompletionItemKind::ENUM_MEMBER),
                detail: Some(m.name.to_string()),
                documentation: Some(Documentation::String(m.doc.get(lang).to_string())),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                    ix.range(text, span.clone()),
                    insert,
                ))),
                ..CompletionItem::default()
            })
        })
        .collect()
}

/// Completion in a config file: keys and values, YAML read by indentation, JSON by the
/// objects the cursor is inside.
fn config(snap: &Snapshot, offset: usize, json: bool) -> Option<Vec<CompletionItem>> {
    let f = filter(snap);
    let text = &*snap.doc.text;
    let (site, quoted) = if json {
        let s = config_cursor::json::site_at(text, offset)?;
        (s.site, s.quoted)
    } else {
        (config_cursor::site_at(text, offset)?, false)
    };
    let syntax = if json { Syntax::Json } else { Syntax::Yaml };
    // In JSON, a key the user opened a quote for ends at the quote the editor closed.
    let after = text.get(offset..).unwrap_or("");
    Some(match site {
        config_cursor::Site::Key { parent, start } => config_cursor::keys_under(&parent)
            .into_iter()
            .filter(|(_, o)| o.is_none_or(|o| f.offers(o)))
            .map(|(k, o)| {
                let (insert, end) = match (json, quoted) {
                    (false, _) => (format!("{k}: "), offset),
                    (true, false) => (format!("\"{k}\": "), offset),
                    (true, true) if after.starts_with('"') => (format!("{k}\": "), offset + 1),
                    (true, true) => (format!("{k}\": "), offset),
                };
                item(
                    snap,
                    &k,
                    insert,
                    start..end,
                    CompletionItemKind::PROPERTY,
                    o,
                    &f,
                )
            })
            .collect(),
        config_cursor::Site::Value { path, start } => match config_cursor::option(&path) {
            Some(o) => values(snap, o, start..offset, quoted, syntax, &f),
            None => {
                let ix = &snap.doc.index;
                config_cursor::values_of(&path)
                    .into_iter()
                    .map(|v| {
                        let insert = if json && !quoted {
                            format!("\"{v}\"")
                        } else {
                            v.clone()
                        };
                        CompletionItem {
                            label: v,
                            kind: Some(CompletionItemKind::VALUE),
                            text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                                ix.range(text, start..offset),
                                insert,
                            ))),
                            ..CompletionItem::default()
                        }
                    })
                    .collect()
            }
        },
    })
}
