//! Every safe fix of `cannctl lint --fix` as a quick fix with the same edit, and
//! `source.fixAll` giving what `--fix` writes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::{json, Value};
use support::{uri, Client, SCRIPT};

/// `text` with the edits of a WorkspaceEdit for `u` applied (in reverse order).
fn apply(text: &str, edits: &[Value]) -> String {
    let ix: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let off = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let ch = p["character"].as_u64().unwrap() as usize;
        let start = ix.get(line).copied().unwrap_or(text.len());
        let mut units = 0;
        for (i, c) in text[start..].char_indices() {
            if units >= ch || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                off(&e["range"]["start"]),
                off(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (a, b, t) in spans {
        out.replace_range(a..b, &t);
    }
    out
}

#[test]
fn quick_fixes_and_fix_all_match_lint_fix() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "train.py");
    let mut c = Client::start(json!({}), None);
    c.open(&u, "python", SCRIPT);
    let ds = c.diagnostics(&u, 1);
    let whole =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 999, "character": 0 } });
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": &u }, "range": whole, "context": { "diagnostics": ds } }),
    );
    let actions = actions.as_array().unwrap();
    // What lint offers, fix by fix.
    let opts = cann_lint::LintOptions::default();
    let o = cann_lint::lint_script(
        std::path::Path::new("x.py"),
        SCRIPT.as_bytes().to_vec(),
        &opts,
    )
    .unwrap();
    let report = &o.files[0];
    let fixes: Vec<&cann_lint::Fix> = report
        .findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .collect();
    assert!(!fixes.is_empty());
    let quick: Vec<&Value> = actions.iter().filter(|a| a["kind"] == "quickfix").collect();
    assert_eq!(quick.len(), fixes.len());
    for (a, f) in quick.iter().zip(&fixes) {
        assert_eq!(a["title"], f.description.as_str());
        let edits = a["edit"]["changes"][u.as_str()].as_array().unwrap();
        let by_lint = cann_lint::fix::apply(SCRIPT, &f.edits.iter().collect::<Vec<_>>()).0;
        assert_eq!(apply(SCRIPT, edits), by_lint);
        assert!(
            a["diagnostics"].as_array().is_some_and(|d| !d.is_empty()),
            "{a}"
        );
    }
    let all = actions
        .iter()
        .find(|a| a["kind"] == "source.fixAll")
        .expect("source.fixAll");
    let edits = all["edit"]["changes"][u.as_str()].as_array().unwrap();
    let fixed = cann_lint::fix::fixed_from(report, SCRIPT.as_bytes().to_vec()).unwrap();
    assert_eq!(apply(SCRIPT, edits), fixed.after);
    // Asked for source actions only: no quick fixes.
    let only = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": &u }, "range": whole,
                "context": { "diagnostics": [], "only": ["source.fixAll"] } }),
    );
    assert_eq!(only.as_array().unwrap().len(), 1);
    c.shutdown();
}
