use lsp_types::notification::{DidCloseTextDocument, PublishDiagnostics};
use lsp_types::{DidCloseTextDocumentParams, PublishDiagnosticsParams};

use crate::api::SyncNotification;
use crate::state::Server;

pub struct DidClose;

impl SyncNotification for DidClose {
    type Notification = DidCloseTextDocument;

    fn run(server: &mut Server, p: DidCloseTextDocumentParams) {
        let uri = p.text_document.uri;
        server.session.close(&uri);
        if let Ok(mut v) = server.versions.lock() {
            v.remove(&uri);
        }
        // A closed document's diagnostics are the client's to forget.
        server.notify(
            <PublishDiagnostics as lsp_types::notification::Notification>::METHOD,
            PublishDiagnosticsParams::new(uri, Vec::new(), None),
        );
    }
}
