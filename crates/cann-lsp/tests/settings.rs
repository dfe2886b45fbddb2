//! Settings from `[tool.cannctl]`, from the client, and a pyproject.toml that changes while
//! the server runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::json;
use support::{uri, Client};

/// A script that sets an option the Atlas inference line does not support: a finding with
/// that product, none on the default (every product) check.
const SCRIPT: &str = "from npu_bridge.npu_init import *\nc = NPURunConfig(memory_config=MemoryConfig(static_memory_policy=2))\n";

fn count_with(
    dir: &std::path::Path,
    options: serde_json::Value,
    locale: Option<&str>,
) -> (usize, Vec<String>) {
    let u = uri(dir, "train.py");
    let mut c = Client::start(options, locale);
    c.open(&u, "python", SCRIPT);
    let ds = c.diagnostics(&u, 1);
    c.shutdown();
    (ds.len(), ds.into_iter().map(|d| d.message).collect())
}

#[test]
fn pyproject_product_client_override_and_live_change() {
    let dir = tempfile::tempdir().unwrap();
    let (none, _) = count_with(dir.path(), json!({}), None);
    std::fs::write(
        dir.path().join("pyproject.toml"),
        "[tool.cannctl]\nproduct = \"atlas-inference\"\nlang = \"zh\"\n",
    )
    .unwrap();
    let (with_product, messages) = count_with(dir.path(), json!({}), None);
    assert!(with_product > none, "{messages:?}");
    // `lang` of the project speaks when neither the client nor its locale says.
    assert!(messages.iter().any(|m| !m.is_ascii()), "{messages:?}");
    // The client's product beats the project's.
    let (client, _) = count_with(dir.path(), json!({ "product": "atlas-a2-training" }), None);
    assert_eq!(client, none);

    // Changed on disk while the server runs: read again on didChangeWatchedFiles.
    let u = uri(dir.path(), "train.py");
    let mut c = Client::start(json!({}), Some("en"));
    c.open(&u, "python", SCRIPT);
    assert_eq!(c.diagnostics(&u, 1).len(), with_product);
    assert!(
        c.server_requests
            .iter()
            .any(|r| r.method == "client/registerCapability"),
        "the server asks to watch pyproject.toml"
    );
    std::fs::write(dir.path().join("pyproject.toml"), "[tool.cannctl]\n").unwrap();
    let py = uri(dir.path(), "pyproject.toml");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": py, "type": 2 }] }),
    );
    assert_eq!(c.diagnostics(&u, 1).len(), none);
    c.shutdown();
}

#[test]
fn bad_settings_are_said_with_their_place_and_the_rest_still_works() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pyproject.toml"),
        "[tool.cannctl]\nprodcut = \"x\"\n",
    )
    .unwrap();
    let (_, messages) = count_with(dir.path(), json!({}), None);
    let said = messages
        .iter()
        .find(|m| m.contains("prodcut"))
        .expect("the bad key");
    assert!(said.contains("pyproject.toml:2:1"), "{said}");
    // An unknown product from the client is said too, in Chinese for a zh client.
    let (_, messages) = count_with(dir.path(), json!({ "product": "atlas-9" }), Some("zh-cn"));
    assert!(
        messages
            .iter()
            .any(|m| m.contains("atlas-9") && m.contains("设置")),
        "{messages:?}"
    );
}

#[test]
fn did_change_configuration_applies_to_open_documents() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "train.py");
    let mut c = Client::start(json!({}), None);
    c.open(&u, "python", SCRIPT);
    let before = c.diagnostics(&u, 1).len();
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "cannctl": { "product": "atlas-inference" } } }),
    );
    assert!(c.diagnostics(&u, 1).len() > before);
    c.shutdown();
}
