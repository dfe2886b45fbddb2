use lsp_types::notification::DidSaveTextDocument;
use lsp_types::DidSaveTextDocumentParams;

use crate::api::SyncNotification;
use crate::state::Server;

pub struct DidSave;

impl SyncNotification for DidSave {
    type Notification = DidSaveTextDocument;

    /// A saved pyproject.toml may change every document's settings; any other document is
    /// linted again (its settings are read from disk, which the save may have changed).
    fn run(server: &mut Server, p: DidSaveTextDocumentParams) {
        let uri = p.text_document.uri;
        if uri.path().ends_with(cann_check::settings::PYPROJECT) {
            server.session.settings_changed();
            server.relint_all();
        } else {
            server.relint(&uri);
        }
    }
}
