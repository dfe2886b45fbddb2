//! The LSP methods the server answers: one file per request and per notification, each a
//! type naming its method; the tables below dispatch to them.
//!
//! Requests run on the request worker on a snapshot of their document; notifications
//! change the session on the main loop.

mod notifications;
pub(crate) mod requests;

use std::panic::{catch_unwind, AssertUnwindSafe};

use lsp_server::{ErrorCode, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    HoverProviderCapability, PositionEncodingKind, SaveOptions, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Url,
};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::session::Snapshot;
use crate::state::Server;
use crate::workers;

/// A request answered from one document's snapshot, off the main loop.
pub trait BackgroundRequest {
    type Request: lsp_types::request::Request;
    fn document(params: &<Self::Request as lsp_types::request::Request>::Params) -> &Url;
    fn run(
        snap: &Snapshot,
        params: <Self::Request as lsp_types::request::Request>::Params,
        ctx: &Context,
    ) -> <Self::Request as lsp_types::request::Request>::Result;
}

/// What a request may read besides its snapshot.
#[derive(Clone, Default)]
pub struct Context {
    /// Each document's newest lint (see [`crate::linted`]).
    pub lints: crate::linted::Lints,
    /// The newest version of each document.
    pub versions: workers::Versions,
}

/// A notification handled on the main loop.
pub trait SyncNotification {
    type Notification: lsp_types::notification::Notification;
    fn run(
        server: &mut Server,
        params: <Self::Notification as lsp_types::notification::Notification>::Params,
    );
}

pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(
                ["\"", "'", ".", "(", ",", "=", " ", ":"]
                    .map(String::from)
                    .to_vec(),
            ),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::SOURCE_FIX_ALL,
            ]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

pub fn request(server: &mut Server, req: Request) {
    use requests::*;
    match req.method.as_str() {
        m if m == method::<HoverHandler>() => background::<HoverHandler>(server, req),
        m if m == method::<CompletionHandler>() => background::<CompletionHandler>(server, req),
        m if m == method::<CodeActionHandler>() => background::<CodeActionHandler>(server, req),
        _ => server.respond(Response::new_err(
            req.id,
            ErrorCode::MethodNotFound as i32,
            format!("unknown method {}", req.method),
        )),
    }
}

pub fn notification(server: &mut Server, n: Notification) {
    use notifications::*;
    let method = n.method.clone();
    match method.as_str() {
        m if m == note::<DidOpen>() => sync::<DidOpen>(server, n),
        m if m == note::<DidChange>() => sync::<DidChange>(server, n),
        m if m == note::<DidClose>() => sync::<DidClose>(server, n),
        m if m == note::<DidSave>() => sync::<DidSave>(server, n),
        m if m == note::<DidChangeConfiguration>() => sync::<DidChangeConfiguration>(server, n),
        m if m == note::<DidChangeWatchedFiles>() => sync::<DidChangeWatchedFiles>(server, n),
        m if m == note::<Cancel>() => sync::<Cancel>(server, n),
        // Other notifications ($/setTrace, ...) need nothing from this server.
        _ => {}
    }
}

/// What follows the handshake: the server's own requests to the client.
pub fn initialized(server: &mut Server) {
    notifications::Initialized::run(server, lsp_types::InitializedParams {});
}

fn method<H: BackgroundRequest>() -> &'static str {
    <H::Request as lsp_types::request::Request>::METHOD
}

fn note<H: SyncNotification>() -> &'static str {
    <H::Notification as lsp_types::notification::Notification>::METHOD
}

fn params<P: DeserializeOwned>(v: serde_json::Value) -> Result<P, String> {
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn sync<H: SyncNotification>(server: &mut Server, n: Notification) {
    // A notification whose parameters do not parse is dropped: there is no one to answer.
    if let Ok(p) = params(n.params) {
        H::run(server, p);
    }
}

fn background<H: BackgroundRequest>(server: &mut Server, req: Request)
where
    <H::Request as lsp_types::request::Request>::Params: Send + 'static,
    <H::Request as lsp_types::request::Request>::Result: Serialize,
{
    let id = req.id.clone();
    let p: <H::Request as lsp_types::request::Request>::Params = match params(req.params) {
        Ok(p) => p,
        Err(e) => {
            return server.respond(Response::new_err(id, ErrorCode::InvalidParams as i32, e));
        }
    };
    let Some(snap) = server.session.snapshot(H::document(&p)) else {
        // Not an open document: nothing to say about it.
        return server.respond(Response::new_ok(id, serde_json::Value::Null));
    };
    let (sender, versions, cancelled) = (
        server.sender.clone(),
        server.versions.clone(),
        server.cancelled.clone(),
    );
    let ctx = Context {
        lints: server.lints.clone(),
        versions: versions.clone(),
    };
    let job = move || {
        let was_cancelled = |id: &RequestId| cancelled.lock().is_ok_and(|mut c| c.remove(id));
        let respond = |r: Response| {
            let _ = sender.send(lsp_server::Message::Response(r));
        };
        let err = |code: ErrorCode, m: &str| Response::new_err(id.clone(), code as i32, m.into());
        if was_cancelled(&id) {
            return respond(err(ErrorCode::RequestCanceled, "cancelled"));
        }
        let result = catch_unwind(AssertUnwindSafe(|| H::run(&snap, p, &ctx)));
        let Ok(result) = result else {
            return respond(err(ErrorCode::InternalError, "internal error"));
        };
        if was_cancelled(&id) {
            return respond(err(ErrorCode::RequestCanceled, "cancelled"));
        }
        if !workers::current(&versions, &snap.uri, snap.doc.version) {
            return respond(err(ErrorCode::ContentModified, "content modified"));
        }
        respond(Response::new_ok(id.clone(), result));
    };
    let _ = server.jobs.send(Box::new(job));
}
