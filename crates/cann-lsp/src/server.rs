//! The main loop: initialize, then each message to its handler (see [`crate::api`]), until
//! shutdown and exit, or until the client goes away.

use lsp_server::{Connection, Message};
use lsp_types::InitializeParams;

use crate::state::Server;

/// Why the server stopped other than by shutdown and exit.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("{0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl ServerError {
    /// What went wrong, in `lang`: the client gone, an I/O error by its kind, or the
    /// protocol library's own words for a client that broke the protocol.
    pub fn message(&self, lang: cann_config::meta::Lang) -> String {
        use cann_i18n::catalog::server as msg;
        match self {
            ServerError::Protocol(e) if e.channel_is_disconnected() => msg::client_gone(lang),
            ServerError::Protocol(e) => msg::stopped(lang, &e.to_string()),
            ServerError::Io(e) => msg::stopped(lang, &cann_input::io_reason(e, lang)),
        }
    }
}

/// Runs the server on standard input and output.
pub fn run_stdio() -> Result<(), ServerError> {
    let (sender, receiver, threads) = crate::transport::stdio();
    run(Connection { sender, receiver })?;
    threads.join()?;
    Ok(())
}

/// Runs the server on `conn` until shutdown and exit, or until the client hangs up.
pub fn run(conn: Connection) -> Result<(), ServerError> {
    let (id, params) = conn.initialize_start()?;
    // Parameters that do not read as InitializeParams are taken as empty: the server still
    // starts, with defaults.
    let init: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let result = serde_json::json!({
        "capabilities": crate::api::capabilities(),
        "serverInfo": { "name": "cannctl", "version": env!("CARGO_PKG_VERSION") },
    });
    conn.initialize_finish(id, result)?;
    let mut server = Server::new(conn.sender.clone(), &init);
    // lsp-server's handshake took the client's `initialized` notification already.
    crate::api::initialized(&mut server);
    for msg in &conn.receiver {
        match msg {
            Message::Request(req) => {
                match conn.handle_shutdown(&req) {
                    Ok(true) => return Ok(()),
                    Ok(false) => crate::api::request(&mut server, req),
                    // Shut down, and the client left without `exit`: done all the same.
                    Err(e) if e.channel_is_disconnected() => return Ok(()),
                    Err(e) => return Err(e.into()),
                }
            }
            Message::Notification(n) if n.method == "exit" => return Ok(()),
            Message::Notification(n) => crate::api::notification(&mut server, n),
            Message::Response(_) => {}
        }
    }
    Ok(())
}
