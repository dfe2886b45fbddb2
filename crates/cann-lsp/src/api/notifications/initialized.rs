use lsp_types::notification::Initialized as Method;
use lsp_types::request::RegisterCapability;
use lsp_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, InitializedParams,
    Registration, RegistrationParams,
};

use crate::api::SyncNotification;
use crate::state::Server;

pub struct Initialized;

impl SyncNotification for Initialized {
    type Notification = Method;

    /// Asks the client to tell the server when a pyproject.toml changes on disk.
    fn run(server: &mut Server, _: InitializedParams) {
        if !server.watch_files {
            return;
        }
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![FileSystemWatcher {
                glob_pattern: GlobPattern::String(format!(
                    "**/{}",
                    cann_check::settings::PYPROJECT
                )),
                kind: None,
            }],
        };
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "cannctl-pyproject".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        server.request_client(
            <RegisterCapability as lsp_types::request::Request>::METHOD,
            params,
        );
    }
}
