//! `cannctl server` over real standard input and output: the handshake, diagnostics for an
//! opened script, a frame that is not JSON survived, shutdown and exit.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn send(w: &mut impl Write, v: &serde_json::Value) {
    let b = v.to_string();
    write!(w, "Content-Length: {}\r\n\r\n{b}", b.len()).unwrap();
    w.flush().unwrap();
}

fn recv(r: &mut impl BufRead) -> serde_json::Value {
    let mut len = 0;
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            len = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn the_server_speaks_lsp_on_stdio() {
    let mut p = Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut w = p.stdin.take().unwrap();
    let mut r = BufReader::new(p.stdout.take().unwrap());
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"capabilities": {}, "locale": "en"}});
    send(&mut w, &init);
    assert_eq!(recv(&mut r)["result"]["serverInfo"]["name"], "cannctl");
    send(
        &mut w,
        &serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    write!(w, "Content-Length: 5\r\n\r\n{{bad}}").unwrap();
    let text = "custom_op.parameter_map[\"op_debug_levl\"].i = 0\n";
    send(
        &mut w,
        &serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": "file:///tmp/x.py", "languageId": "python",
        "version": 1, "text": text}}}),
    );
    let d = recv(&mut r);
    assert_eq!(d["method"], "textDocument/publishDiagnostics");
    assert_eq!(d["params"]["diagnostics"][0]["code"], "unknown-option");
    send(
        &mut w,
        &serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    );
    assert_eq!(recv(&mut r)["id"], 2);
    send(
        &mut w,
        &serde_json::json!({"jsonrpc": "2.0", "method": "exit"}),
    );
    assert!(p.wait().unwrap().success());
}
