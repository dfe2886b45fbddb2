//! Typing: incremental edits over CJK and astral characters, a syntax error typed and
//! removed, huge and binary documents, cancelled and malformed requests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use lsp_server::ErrorCode;
use serde_json::json;
use support::{at, uri, Client};

const SESSION: &str = "# 训练脚本 😀 配置\nimport tensorflow as tf\ncustom_op.parameter_map[\"op_debug_levl\"].i = 0\n";

#[test]
fn incremental_edits_after_cjk_and_astral_characters() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "t.py");
    let mut c = Client::start(json!({}), None);
    c.open(&u, "python", SESSION);
    let first = c.diagnostics(&u, 1);
    assert_eq!(first.len(), 1, "{first:#?}");
    let (l, ch) = at(SESSION, "op_debug_levl", 0);
    assert_eq!(
        (first[0].range.start.line, first[0].range.start.character),
        (l, ch - 1)
    );
    // Insert before the emoji on line 0 (UTF-16 column 7 is after "# 训练脚本 ").
    c.edit(&u, 2, (0, 7), (0, 7), "甲");
    // Fix the typo: `levl` -> `level` at its UTF-16 columns.
    c.edit(&u, 3, (l, ch + 9), (l, ch + 13), "level");
    let after = c.diagnostics(&u, 3);
    assert!(
        after
            .iter()
            .all(|d| d.message.contains("op_debug_level") || d.code != first[0].code),
        "{after:#?}"
    );
    assert!(after.len() < 2, "{after:#?}");
    c.shutdown();
}

#[test]
fn a_syntax_error_keeps_the_rest_and_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "t.py");
    let mut c = Client::start(json!({}), None);
    let text = "x = 1\ncustom_op.parameter_map[\"op_debug_levl\"].i = 0\ny = 2\n";
    c.open(&u, "python", text);
    assert_eq!(c.diagnostics(&u, 1).len(), 1);
    // An unclosed bracket typed below the setting: what comes before it still parses (a
    // bracket opened above a setting swallows it until closed, as for `cannctl lint`).
    c.edit(&u, 2, (2, 4), (2, 5), "foo(");
    assert_eq!(c.diagnostics(&u, 2).len(), 1);
    // Half a statement typed above it, as an editor leaves it (brackets and quotes closed
    // as they are opened).
    c.edit(&u, 3, (0, 0), (0, 0), "custom_op.parameter_map[\"pre\"].\n");
    let half = c.diagnostics(&u, 3);
    assert!(!half.is_empty(), "{half:#?}");
    c.edit(&u, 4, (0, 0), (1, 0), "");
    c.edit(&u, 5, (2, 4), (2, 8), "2");
    assert_eq!(c.diagnostics(&u, 5).len(), 1);
    c.shutdown();
}

#[test]
fn huge_and_binary_documents_get_one_message_and_no_work() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(json!({}), None);
    let big = uri(dir.path(), "big.py");
    let text =
        "custom_op.parameter_map[\"x\"].i = 0\n".repeat(cann_lint::MAX_SCRIPT_BYTES as usize / 30);
    c.open(&big, "python", &text);
    let ds = c.diagnostics(&big, 1);
    assert_eq!(ds.len(), 1);
    assert!(ds[0].message.contains("limit"), "{}", ds[0].message);
    assert!(c.hover(&big, 0, 26).is_null());
    let bin = uri(dir.path(), "bin.py");
    c.open(&bin, "python", "custom_op.parameter_map[\"x\0\"].i = 0\n");
    let ds = c.diagnostics(&bin, 1);
    assert_eq!(ds.len(), 1);
    assert!(ds[0].message.contains("NUL"), "{}", ds[0].message);
    c.shutdown();
}

#[test]
fn bad_requests_get_errors_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "t.py");
    let mut c = Client::start(json!({}), None);
    c.open(&u, "python", SESSION);
    let id = c.send("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(
        c.response(&id).error.unwrap().code,
        ErrorCode::InvalidParams as i32
    );
    let id = c.send("cannctl/unknown", json!({}));
    assert_eq!(
        c.response(&id).error.unwrap().code,
        ErrorCode::MethodNotFound as i32
    );
    // A hover at a position far past the end, and notifications that do not parse.
    assert!(c.hover(&u, 999, 999).is_null());
    c.notify("textDocument/didChange", json!({ "garbage": 1 }));
    c.notify("textDocument/didOpen", json!(null));
    // Cancelled before it ran: the cancellation for the next id arrives first.
    let next = c.next_id();
    c.notify("$/cancelRequest", json!({ "id": next }));
    let id = c.send(
        "textDocument/hover",
        json!({ "textDocument": { "uri": &u }, "position": { "line": 2, "character": 27 } }),
    );
    assert_eq!(id, next);
    assert_eq!(
        c.response(&id).error.unwrap().code,
        ErrorCode::RequestCanceled as i32
    );
    // Still answering.
    let ok = uri(dir.path(), "ok.py");
    c.open(
        &ok,
        "python",
        "custom_op.parameter_map[\"precision_mode\"].s = b\"x\"\n",
    );
    assert!(!c.hover(&ok, 0, 27).is_null());
    c.shutdown();
}
