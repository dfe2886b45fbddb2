//! Code actions answer from the findings the lint thread made for the document's version
//! (waiting for them when the request comes first), never by linting the file again on the
//! request thread. One test in its own process: it counts the lints of the process.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::{json, Value};
use support::{uri, Client, SCRIPT};

fn titles(actions: &Value) -> Vec<String> {
    actions
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "quickfix")
        .map(|a| a["title"].as_str().unwrap().to_string())
        .collect()
}

fn fix_titles(text: &str) -> Vec<String> {
    let o = cann_lint::lint_script(
        std::path::Path::new("x.py"),
        text.as_bytes().to_vec(),
        &cann_lint::LintOptions::default(),
    )
    .unwrap();
    o.files[0]
        .findings
        .iter()
        .filter_map(|f| f.fix.as_ref().map(|x| x.description.clone()))
        .collect()
}

#[test]
fn code_actions_reuse_the_lint_of_their_version() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "train.py");
    let mut c = Client::start(json!({}), None);
    let whole =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 9999, "character": 0 } });
    let ask = |c: &mut Client| {
        c.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": &u }, "range": whole, "context": { "diagnostics": [] } }),
        )
    };
    c.open(&u, "python", SCRIPT);
    c.diagnostics(&u, 1);
    let linted = cann_lsp::lints_run();
    for _ in 0..3 {
        let got = titles(&ask(&mut c));
        assert!(!got.is_empty());
        assert_eq!(got, fix_titles(SCRIPT));
    }
    assert_eq!(cann_lsp::lints_run(), linted, "a code action linted again");

    // Asked right after an edit: the answer is about the new text, from its one lint.
    let line = "cfg = NPURunConfig(op_debug_levl=0)\n";
    c.edit(&u, 2, (0, 0), (0, 0), line);
    let got = titles(&ask(&mut c));
    let v2 = format!("{line}{SCRIPT}");
    assert_eq!(got, fix_titles(&v2));
    assert!(got.iter().any(|t| t.contains("op_debug_level")), "{got:?}");
    c.diagnostics(&u, 2);
    assert_eq!(cann_lsp::lints_run(), linted + 1);
    c.shutdown();
}
