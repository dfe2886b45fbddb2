use lsp_server::RequestId;
use lsp_types::notification::Cancel as Method;
use lsp_types::{CancelParams, NumberOrString};

use crate::api::SyncNotification;
use crate::state::Server;

pub struct Cancel;

/// Cancellations remembered at most; past it the oldest are forgotten (a request answered
/// before its cancellation arrived leaves its id here).
const MAX_REMEMBERED: usize = 1024;

impl SyncNotification for Cancel {
    type Notification = Method;

    fn run(server: &mut Server, p: CancelParams) {
        let id = match p.id {
            NumberOrString::Number(n) => RequestId::from(n),
            NumberOrString::String(s) => RequestId::from(s),
        };
        if let Ok(mut c) = server.cancelled.lock() {
            if c.len() >= MAX_REMEMBERED {
                c.clear();
            }
            c.insert(id);
        }
    }
}
