//! Completion at each kind of place, filtered to the configured product and release.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use serde_json::{json, Value};
use support::{uri, Client};

fn labels(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

fn item<'a>(items: &'a [Value], label: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["label"] == label)
        .unwrap_or_else(|| panic!("{label} not in {:?}", labels(items)))
}

#[test]
fn session_keys_complete_with_their_accessor() {
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "s.py");
    let mut c = Client::start(json!({}), None);
    let text = "custom_op.parameter_map[\"\"]\n";
    c.open(&u, "python", text);
    let items = c.complete(&u, 0, 25);
    let pm = item(&items, "precision_mode");
    assert_eq!(
        pm["textEdit"]["newText"],
        "precision_mode\"].s = tf.compat.as_bytes(\"\")"
    );
    // The edit replaces the key and the `"]` the editor had closed.
    assert_eq!(pm["textEdit"]["range"]["end"]["character"], 27);
    let smp = item(&items, "static_memory_policy");
    assert!(smp["textEdit"]["newText"]
        .as_str()
        .unwrap()
        .contains("\"].i = "));
    c.shutdown();
}

#[test]
fn keywords_values_tf2_env_and_config() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(json!({}), None);
    let u = uri(dir.path(), "k.py");
    let text = "c = NPURunConfig(\n    prec\n";
    c.open(&u, "python", text);
    let items = c.complete(&u, 1, 8);
    assert_eq!(
        item(&items, "precision_mode")["textEdit"]["newText"],
        "precision_mode="
    );

    let v = uri(dir.path(), "v.py");
    c.open(&v, "python", "c = NPURunConfig(precision_mode=\"\n");
    let items = c.complete(&v, 0, 33);
    assert!(labels(&items).contains(&"must_keep_origin_dtype".to_string()));

    let t = uri(dir.path(), "t.py");
    c.open(&t, "python", "npu.global_options().memory_config.\n");
    let items = c.complete(&t, 0, 35);
    assert!(labels(&items).contains(&"static_memory_policy".to_string()));

    let e = uri(dir.path(), "e.py");
    c.open(&e, "python", "os.environ[\"GE\n");
    let items = c.complete(&e, 0, 14);
    assert!(labels(&items).contains(&"GE_USE_STATIC_MEMORY".to_string()));

    let y = uri(dir.path(), "job.yaml");
    c.open(
        &y,
        "yaml",
        "product: atlas-a2-training\nnpu_run_config:\n  memory_config:\n    \n",
    );
    let items = c.complete(&y, 3, 4);
    assert!(
        labels(&items).contains(&"static_memory_policy".to_string()),
        "{:?}",
        labels(&items)
    );
    let y2 = uri(dir.path(), "job2.yaml");
    c.open(&y2, "yaml", "product: \n");
    let items = c.complete(&y2, 0, 9);
    assert!(labels(&items).contains(&"atlas-a2-training".to_string()));
    c.shutdown();
}

#[test]
fn retired_keys_are_left_out() {
    // Never read by any release (spec/options/npu_run_config_retired.yaml).
    let key = "enable_auto_mix_precision";
    let dir = tempfile::tempdir().unwrap();
    let u = uri(dir.path(), "s.py");
    let mut c = Client::start(json!({}), None);
    c.open(&u, "python", "m.parameter_map[\"\n");
    assert!(!labels(&c.complete(&u, 0, 17)).contains(&key.to_string()));
    c.shutdown();
}

#[test]
fn json_config_keys_and_values() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::start(json!({}), None);
    let u = uri(dir.path(), "job.json");
    // The editor closed the quote the user opened: the key's edit replaces it.
    let text =
        "{\n  \"product\": \"atlas-a2-training\",\n  \"npu_run_config\": {\n    \"op_comp\"\n";
    c.open(&u, "json", text);
    let items = c.complete(&u, 3, 12);
    let k = item(&items, "op_compiler_cache_mode");
    assert_eq!(k["textEdit"]["newText"], "op_compiler_cache_mode\": ");
    assert_eq!(k["textEdit"]["range"]["start"]["character"], 5);
    assert_eq!(k["textEdit"]["range"]["end"]["character"], 13);
    // Nested objects, no quote typed yet: the key comes quoted.
    let n = uri(dir.path(), "n.json");
    c.open(
        &n,
        "json",
        "{\"npu_run_config\": {\"memory_config\": {\n  \n",
    );
    let items = c.complete(&n, 1, 2);
    assert_eq!(
        item(&items, "static_memory_policy")["textEdit"]["newText"],
        "\"static_memory_policy\": "
    );
    // Values: a string enum in its quotes, bare, an int enum, a bool, product ids.
    let v = uri(dir.path(), "v.json");
    c.open(
        &v,
        "json",
        "{\"npu_run_config\": {\"op_compiler_cache_mode\": \"\n",
    );
    let items = c.complete(&v, 0, 47);
    assert_eq!(item(&items, "enable")["textEdit"]["newText"], "enable");
    let b = uri(dir.path(), "b.json");
    c.open(
        &b,
        "json",
        "{\"npu_run_config\": {\"op_compiler_cache_mode\": \n",
    );
    let items = c.complete(&b, 0, 46);
    assert_eq!(
        item(&items, "\"force\"")["textEdit"]["newText"],
        "\"force\""
    );
    let i = uri(dir.path(), "i.json");
    c.open(
        &i,
        "json",
        "{\"npu_run_config\": {\"memory_config\": {\"static_memory_policy\": \n",
    );
    assert!(labels(&c.complete(&i, 0, 62)).contains(&"2".to_string()));
    let p = uri(dir.path(), "p.json");
    c.open(&p, "json", "{\"product\": \"atl\n");
    let items = c.complete(&p, 0, 16);
    assert_eq!(
        item(&items, "atlas-a2-training")["textEdit"]["newText"],
        "atlas-a2-training"
    );
    // After a value, or inside an array: nothing.
    let x = uri(dir.path(), "x.json");
    c.open(&x, "json", "{\"product\": \"atlas-a2-training\" \n");
    assert!(c.complete(&x, 0, 32).is_empty());
    c.shutdown();
}
