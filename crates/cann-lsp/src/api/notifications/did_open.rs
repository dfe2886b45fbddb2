use lsp_types::notification::DidOpenTextDocument;
use lsp_types::DidOpenTextDocumentParams;

use crate::api::SyncNotification;
use crate::document::{Document, Kind};
use crate::state::Server;

pub struct DidOpen;

impl SyncNotification for DidOpen {
    type Notification = DidOpenTextDocument;

    fn run(server: &mut Server, p: DidOpenTextDocumentParams) {
        let d = p.text_document;
        let kind = Kind::of(&d.language_id, d.uri.path());
        if let Ok(mut v) = server.versions.lock() {
            v.insert(d.uri.clone(), d.version);
        }
        server
            .session
            .open(d.uri.clone(), Document::new(d.text, d.version, kind));
        server.relint(&d.uri);
    }
}
