#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

/// The hit at the first `|` of `marked`, which is taken out of the text.
fn hit(marked: &str) -> Option<Hit> {
    let at = marked.find('|').unwrap();
    let text = marked.replacen('|', "", 1);
    hit_at(&text, at)
}

fn option(marked: &str) -> &'static str {
    match hit(marked).map(|h| h.target) {
        Some(Target::Option(o)) => o.path,
        other => panic!("{marked}: {other:?}"),
    }
}

fn value(marked: &str) -> (&'static str, &'static str) {
    match hit(marked).map(|h| h.target) {
        Some(Target::Value(o, v)) => (o.path, v.name),
        other => panic!("{marked}: {other:?}"),
    }
}

#[test]
fn names_on_every_surface() {
    let session =
        "custom_op.parameter_map[\"precision_|mode\"].s = tf.compat.as_bytes(\"force_fp16\")\n";
    assert_eq!(option(session), "npu_run_config.precision_mode");
    let kw = "from npu_bridge.npu_init import *\nc = NPURunConfig(enable_dump=True, precision|_mode=\"force_fp16\")\n";
    assert_eq!(option(kw), "npu_run_config.precision_mode");
    let mem = "m = MemoryConfig(static_memory_|policy=2)\n";
    assert_eq!(
        option(mem),
        "npu_run_config.memory_config.static_memory_policy"
    );
    let tf2 = "npu.global_options().memory_config.static_memory_p|olicy = 2\n";
    assert_eq!(
        option(tf2),
        "npu_run_config.memory_config.static_memory_policy"
    );
    let env = "os.environ[\"GE_USE_STATIC_|MEMORY\"] = \"1\"\n";
    assert!(option(env).ends_with("GE_USE_STATIC_MEMORY") || option(env).contains("static"));
}

#[test]
fn values_by_the_option_they_set() {
    let session =
        "custom_op.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"force_f|p16\")\n";
    assert_eq!(
        value(session),
        ("npu_run_config.precision_mode", "force-fp16")
    );
    let kw = "c = NPURunConfig(precision_mode=\"must_keep_|origin_dtype\")\n";
    assert_eq!(
        value(kw),
        ("npu_run_config.precision_mode", "must-keep-origin-dtype")
    );
    // An alias names the value it stands for.
    let alias = "c = NPURunConfig(precision_mode=\"force_|fp32\")\n";
    assert_eq!(value(alias).1, "cube-fp16in-fp32out");
}

#[test]
fn nothing_on_other_code_or_out_of_range() {
    assert!(hit("x = foo(precision_|mode=1)\n").is_none());
    assert!(hit("d = {\"precision_|mode\": 1}\n").is_none());
    assert!(hit_at("abc", 10).is_none());
    assert!(hit_at("", 0).is_none());
}

#[test]
fn half_typed_code_still_answers_for_what_parses() {
    let text = "c = NPURunConfig(precision|_mode=\"force_fp16\"\nx = (\n";
    assert_eq!(option(text), "npu_run_config.precision_mode");
}

/// Only the top-level statement around the cursor is parsed: a place deep in a long file,
/// after and before other definitions, names what it names in the whole file.
#[test]
fn the_statement_around_the_cursor_is_enough() {
    let filler = "def helper(x):\n    return [i * 2 for i in range(x)]\n\n".repeat(200);
    let text = format!(
        "{filler}@decorated\nclass C:\n    def f(self):\n        c = NPURunConfig(\n            \
         precision_mode=\"force_fp16\")\n        os.environ[\"GE_USE_STATIC_MEMORY\"]\n{filler}"
    );
    let at = text.find("precision_mode").unwrap() + 3;
    assert_eq!(
        option(&format!("{}|{}", &text[..at], &text[at..])),
        "npu_run_config.precision_mode"
    );
    let at = text.find("force_fp16").unwrap();
    assert_eq!(
        value(&format!("{}|{}", &text[..at], &text[at..])).0,
        "npu_run_config.precision_mode"
    );
    let at = text.find("GE_USE").unwrap() + 2;
    assert!(hit(&format!("{}|{}", &text[..at], &text[at..])).is_some());
    // In a file the cut cannot trust (a bracket open at its end), the whole file is read.
    let open = format!("{}x = (\n", &text[..text.len() - filler.len()]);
    let at = open.find("precision_mode").unwrap() + 3;
    assert_eq!(
        option(&format!("{}|{}", &open[..at], &open[at..])),
        "npu_run_config.precision_mode"
    );
}
