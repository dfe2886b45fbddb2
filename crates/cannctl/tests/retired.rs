//! Retired options set to the empty value upstream still accepts and ignores
//! (`empty_ignored` on the option's removal in the spec): `check` on a config file and
//! `lint` on a script say the same thing, a warning that the setting has no effect, while
//! any other value stays the removal's error.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod run;
use run::{cannctl, stdout, transcript};

use std::path::Path;

/// A config file for the release whose graph engine refuses any non-empty
/// `auto_tune_mode` and skips an empty one.
fn config(dir: &Path, value: &str) -> String {
    let p = dir.join(format!("c{}.yaml", value.len()));
    let text = format!(
        "product: atlas-a2-training\nrelease: \"9.0.0\"\nnpu_run_config:\n  auto_tune_mode: {value}\n"
    );
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn check_warns_that_an_empty_value_has_no_effect() {
    let dir = tempfile::tempdir().unwrap();
    let empty = config(dir.path(), "\"\"");

    // A warning at the value (line 4, column 19), exit 0, the hint naming the replacement.
    let o = cannctl(&["check", &empty]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    insta::assert_snapshot!(
        "retired_empty_value_check",
        transcript(&o, &[(&empty, "[FILE]")])
    );

    let o = cannctl(&["check", &empty, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["errors"].as_u64(), v["warnings"].as_u64()),
        (Some(0), Some(1)),
        "{v:#}"
    );
    let d = &v["diagnostics"][0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["option"], "npu_run_config.auto_tune_mode");
    assert_eq!(d["value"], "\"\"");

    let o = cannctl(&["check", &empty, "--lang", "zh"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    insta::assert_snapshot!(
        "retired_empty_value_check_zh",
        transcript(&o, &[(&empty, "[FILE]")])
    );
}

#[test]
fn check_still_refuses_a_value_that_is_not_empty() {
    let dir = tempfile::tempdir().unwrap();
    let set = config(dir.path(), "\"RL,GA\"");
    // The removal's error, exit 1, and no "no effect" warning.
    let o = cannctl(&["check", &set]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    insta::assert_snapshot!(
        "retired_set_value_check",
        transcript(&o, &[(&set, "[FILE]")])
    );
}

/// `lint` reads the same removal: the empty session value is a warning there too, the
/// non-empty one an error.
#[test]
fn lint_and_check_agree() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("train.py");
    std::fs::write(
        &script,
        "import tensorflow as tf\n\
         config = tf.compat.v1.ConfigProto()\n\
         custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n\
         custom_op.name = \"NpuOptimizer\"\n\
         custom_op.parameter_map[\"auto_tune_mode\"].s = tf.compat.as_bytes(\"\")\n",
    )
    .unwrap();
    let script = script.display().to_string();
    let o = cannctl(&[
        "lint",
        &script,
        "--no-progress",
        "--release",
        "9.0.0",
        "--format",
        "json",
    ]);
    // One warning at `auto_tune_mode` that the empty value has "no effect", no error.
    let dir_shown = dir.path().display().to_string();
    insta::assert_snapshot!(
        "retired_empty_value_lint_json",
        transcript(&o, &[(&dir_shown, "[DIR]")])
    );

    let empty = config(dir.path(), "\"\"");
    let o = cannctl(&["check", &empty, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["diagnostics"][0]["severity"], "warning");
}

/// Variables that scripts of early toolkits export and no release reads: `check` and
/// `lint` warn that nothing reads them (the name may be the script's own), and a variable
/// the spec does not know stays silent in `lint`.
#[test]
fn retired_environment_variables_are_a_warning_in_check_and_lint() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("env.yaml");
    std::fs::write(
        &cfg,
        "product: atlas-a2-training\nenv:\n  WHICH_OP: GEOP\n  NEW_GE_FE_ID: \"1\"\n  GE_AICPU_FLAG: \"1\"\n  OPTION_EXEC_HCCL_FLAG: \"1\"\n",
    )
    .unwrap();
    let cfg = cfg.display().to_string();
    let dir_shown = dir.path().display().to_string();
    for lang in ["en", "zh"] {
        let o = cannctl(&["check", &cfg, "--format", "json", "--lang", lang]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(o.status.code(), Some(0), "{v:#}");
        let ds = v["diagnostics"].as_array().unwrap();
        for name in [
            "WHICH_OP",
            "NEW_GE_FE_ID",
            "GE_AICPU_FLAG",
            "OPTION_EXEC_HCCL_FLAG",
        ] {
            let d = ds
                .iter()
                .find(|d| d["option"] == format!("env.{name}"))
                .unwrap_or_else(|| panic!("{name}: {v:#}"));
            assert_eq!(d["severity"], "warning", "{d:#}");
        }
        // Each message whole: "... no longer reads `NAME` ...", "... 不再读取 ...".
        insta::assert_snapshot!(
            format!("retired_env_check_json_{lang}"),
            transcript(&o, &[(&dir_shown, "[DIR]")])
        );
    }

    let script = dir.path().join("train.py");
    std::fs::write(
        &script,
        "import os\n\
         os.environ[\"WHICH_OP\"] = \"GEOP\"\n\
         os.environ[\"GE_AICPU_FLAG\"] = \"1\"\n\
         os.environ[\"MY_OWN_SETTING\"] = \"1\"\n",
    )
    .unwrap();
    let script = script.display().to_string();
    let o = cannctl(&["lint", &script, "--no-progress", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "warnings only: {}", stdout(&o));
    // "no longer reads" `WHICH_OP` and `GE_AICPU_FLAG`; no error; the unknown name
    // `MY_OWN_SETTING` stays silent.
    insta::assert_snapshot!(
        "retired_env_lint_json",
        transcript(&o, &[(&dir_shown, "[DIR]")])
    );
}
