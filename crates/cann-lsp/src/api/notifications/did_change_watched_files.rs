use lsp_types::notification::DidChangeWatchedFiles as Method;
use lsp_types::DidChangeWatchedFilesParams;

use crate::api::SyncNotification;
use crate::state::Server;

pub struct DidChangeWatchedFiles;

impl SyncNotification for DidChangeWatchedFiles {
    type Notification = Method;

    /// A pyproject.toml created, changed or deleted on disk: settings are read again.
    fn run(server: &mut Server, p: DidChangeWatchedFilesParams) {
        let ours = p
            .changes
            .iter()
            .any(|c| c.uri.path().ends_with(cann_check::settings::PYPROJECT));
        if ours {
            server.session.settings_changed();
            server.relint_all();
        }
    }
}
