//! `[tool.cannctl]` in pyproject.toml: read by `lint` and `check` when no flag overrides.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod run;

use std::process::{Command, Output};

use run::{stderr, stdout, transcript};

/// What a user sees of a run in `dir`, whole, the directory shown as `[DIR]`.
fn seen(o: &Output, dir: &tempfile::TempDir) -> String {
    transcript(o, &[(&dir.path().display().to_string(), "[DIR]")])
}

/// `cannctl` run in `dir`, in English unless the settings say otherwise.
fn cannctl_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("CANNCTL_DOCS_URL")
        .env("LANG", "C.UTF-8")
        .output()
        .expect("cannctl runs")
}

/// MemoryConfig is not supported on the Atlas inference line (examples/mistakes.yaml).
const SCRIPT: &str = "from npu_bridge.npu_init import *\nc = NPURunConfig(memory_config=MemoryConfig(static_memory_policy=2))\n";

fn project(pyproject: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("pyproject.toml"), pyproject).unwrap();
    std::fs::create_dir_all(d.path().join("src/gen")).unwrap();
    std::fs::write(d.path().join("src/train.py"), SCRIPT).unwrap();
    std::fs::write(d.path().join("src/gen/model_pb2.py"), SCRIPT).unwrap();
    d
}

fn errors(o: &Output) -> u64 {
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)));
    v["errors"].as_u64().unwrap()
}

#[test]
fn lint_takes_product_release_lang_and_exclude_from_pyproject() {
    let plain = project("[project]\nname = \"x\"\n");
    let o = cannctl_in(plain.path(), &["lint", "src", "--format", "json"]);
    let base = errors(&o);
    assert_eq!(
        o.status.code(),
        Some(if base > 0 { 1 } else { 0 }),
        "{}",
        stderr(&o)
    );

    let d = project(
        "[tool.cannctl]\nproduct = \"atlas-inference\"\nrelease = \"8.3.RC1\"\nexclude = [\"src/gen/**\"]\n",
    );
    let o = cannctl_in(d.path(), &["lint", "src", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["product"], "atlas-inference");
    assert_eq!(v["release"], "8.3.RC1");
    assert!(errors(&o) > base, "{}", stdout(&o));
    // The generated file is excluded: one script scanned.
    assert_eq!(v["scanned"], 1, "{}", stdout(&o));
    // Named on the command line (as pre-commit passes files), it is still excluded.
    let o = cannctl_in(
        d.path(),
        &["lint", "src/gen/model_pb2.py", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["scanned"], 0, "{}", stdout(&o));
    // A flag beats the settings.
    let o = cannctl_in(
        d.path(),
        &[
            "lint",
            "src",
            "--format",
            "json",
            "--product",
            "atlas-a2-training",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["product"], "atlas-a2-training");

    let zh = project("[tool.cannctl]\nproduct = \"atlas-inference\"\nlang = \"zh\"\n");
    // The summary in Chinese ("... 个脚本 ...").
    let o = cannctl_in(zh.path(), &["lint", "src"]);
    insta::assert_snapshot!("lint_lang_from_settings", seen(&o, &zh));
    let o = cannctl_in(zh.path(), &["lint", "src", "--lang", "en"]);
    assert!(stdout(&o).is_ascii(), "{}", stdout(&o));
}

#[test]
fn check_takes_the_product_when_the_file_names_none() {
    let d = project("[tool.cannctl]\nproduct = \"atlas-a2-training\"\n");
    std::fs::write(
        d.path().join("job.yaml"),
        "npu_run_config:\n  precision_mode: force_fp16\n",
    )
    .unwrap();
    let o = cannctl_in(d.path(), &["check", "job.yaml", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} {}", stdout(&o), stderr(&o)));
    assert_eq!(v["product"], "atlas-a2-training");
    // Without settings the same file has no product: exit 2.
    let bare = tempfile::tempdir().unwrap();
    std::fs::write(
        bare.path().join("job.yaml"),
        "npu_run_config:\n  precision_mode: force_fp16\n",
    )
    .unwrap();
    let o = cannctl_in(bare.path(), &["check", "job.yaml"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_settings_stop_with_their_place_and_a_hint() {
    let d = project("[tool.cannctl]\nproduct = \"atlas-a2-training\"\nreleas = \"9.0.0\"\n");
    // At `pyproject.toml:3:1`: "unknown key `releas`", the hint naming `release`.
    let o = cannctl_in(d.path(), &["lint", "src"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("settings_unknown_key", seen(&o, &d));
    // In Chinese: "未知键".
    let o = cannctl_in(d.path(), &["check", "x.yaml", "--lang", "zh"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("settings_unknown_key_zh", seen(&o, &d));
}
