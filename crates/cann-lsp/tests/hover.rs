//! Hover on names and values, in scripts and config files, in English and Chinese.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::json;
use support::{at, uri, Client, SCRIPT};

fn markdown(v: &serde_json::Value) -> String {
    v["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn hover_on_a_session_key_says_the_options_facts() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "train.py");
    let mut c = Client::start(json!({ "release": "8.0.RC3" }), None);
    c.open(&u, "python", SCRIPT);
    let (l, ch) = at(SCRIPT, "\"static_memory_policy\"", 3);
    let h = markdown(&c.hover(&u, l, ch));
    assert!(h.contains("static_memory_policy"), "{h}");
    assert!(h.contains("MemoryConfig"), "{h}");
    assert!(h.contains("release: 8.0.RC3"), "{h}");
    assert!(h.contains("ge.exec.staticMemoryPolicy"), "{h}");
    // Nothing on a line that sets no option.
    let (l, ch) = at(SCRIPT, "def train", 5);
    assert!(c.hover(&u, l, ch).is_null());
    c.shutdown();
}

#[test]
fn hover_in_chinese_and_on_values() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "train.py");
    let mut c = Client::start(json!({}), Some("zh-CN"));
    c.open(&u, "python", SCRIPT);
    let (l, ch) = at(SCRIPT, "\"precision_mode\"", 2);
    let h = markdown(&c.hover(&u, l, ch));
    assert!(h.contains("类型"), "{h}");
    let (l, ch) = at(SCRIPT, "allow_mix_precision\")", 4);
    let h = markdown(&c.hover(&u, l, ch));
    assert!(h.contains("allow-mix-precision"), "{h}");
    assert!(h.contains("效果相同"), "{h}");
    c.shutdown();
}

#[test]
fn hover_on_keywords_tf2_attributes_env_and_config_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(json!({}), None);
    let py = "import npu_device as npu\nfrom npu_bridge.npu_init import *\nc = NPURunConfig(precision_mode=\"force_fp16\", memory_config=MemoryConfig(atomic_clean_policy=1))\nnpu.global_options().memory_config.static_memory_policy = 2\nos.environ[\"GE_USE_STATIC_MEMORY\"] = \"1\"\n";
    let u = uri(dir.path(), "k.py");
    c.open(&u, "python", py);
    for (needle, want) in [
        ("precision_mode=", "npu_run_config.precision_mode"),
        ("atomic_clean_policy", "atomic_clean_policy"),
        (
            "static_memory_policy =",
            "npu_run_config.memory_config.static_memory_policy",
        ),
        ("GE_USE_STATIC", "GE_USE_STATIC_MEMORY"),
    ] {
        let (l, ch) = at(py, needle, 2);
        let h = markdown(&c.hover(&u, l, ch));
        assert!(h.contains(want), "{needle}: {h}");
    }
    let yaml = "product: atlas-a2-training\nnpu_run_config:\n  memory_config:\n    static_memory_policy: 2\n";
    let y = uri(dir.path(), "job.yaml");
    c.open(&y, "yaml", yaml);
    let (l, ch) = at(yaml, "static_memory_policy", 3);
    let h = markdown(&c.hover(&y, l, ch));
    assert!(
        h.contains("npu_run_config.memory_config.static_memory_policy"),
        "{h}"
    );
    let (l, ch) = at(yaml, ": 2", 2);
    let h = markdown(&c.hover(&y, l, ch));
    assert!(h.contains("`2`"), "{h}");
    c.shutdown();
}
