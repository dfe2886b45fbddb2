use lsp_types::notification::DidChangeConfiguration as Method;
use lsp_types::DidChangeConfigurationParams;

use crate::api::SyncNotification;
use crate::settings::ClientSettings;
use crate::state::Server;

pub struct DidChangeConfiguration;

impl SyncNotification for DidChangeConfiguration {
    type Notification = Method;

    fn run(server: &mut Server, p: DidChangeConfigurationParams) {
        server
            .session
            .set_client(ClientSettings::from_json(&p.settings));
        server.relint_all();
    }
}
