use lsp_types::notification::DidChangeTextDocument;
use lsp_types::DidChangeTextDocumentParams;

use crate::api::SyncNotification;
use crate::state::Server;

pub struct DidChange;

impl SyncNotification for DidChange {
    type Notification = DidChangeTextDocument;

    fn run(server: &mut Server, p: DidChangeTextDocumentParams) {
        let uri = p.text_document.uri;
        let version = p.text_document.version;
        let Some(doc) = server.session.document_mut(&uri) else {
            return;
        };
        doc.apply(p.content_changes, version);
        if let Ok(mut v) = server.versions.lock() {
            v.insert(uri.clone(), version);
        }
        server.relint(&uri);
    }
}
