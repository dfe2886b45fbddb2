//! `cannctl cache push|pull --remote URL` as a user runs it, on a directory store (the store
//! tests of cann-cache-remote cover Redis and S3).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod run;
use run::transcript;

use std::path::Path;
use std::process::{Command, Output};

/// What a user sees of a run, whole, with the temporary directory `t` shown as `[DIR]`.
fn seen(o: &Output, t: &tempfile::TempDir) -> String {
    transcript(o, &[(&t.path().display().to_string(), "[DIR]")])
}

fn cannctl(args: &[&str], lang: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", lang)
        .env_remove("REDIS_PASSWORD")
        .output()
        .expect("cannctl runs")
}

fn node(dir: &Path, stems: &[&str]) {
    std::fs::write(
        dir.join("op_cache.ini"),
        "[op_compiler_cache]\nadk_version=7.0.RC1\nops_version=7.0.RC1\n",
    )
    .unwrap();
    let meta = dir.join("kernel_cache/Ascend910B/kernel_meta");
    std::fs::create_dir_all(&meta).unwrap();
    for s in stems {
        std::fs::write(
            meta.join(format!("{s}.o")),
            format!("\x7fELF {s}").repeat(300),
        )
        .unwrap();
        std::fs::write(
            meta.join(format!("{s}.json")),
            format!(r#"{{"kernelName":"{s}__kernel0","binFileName":"{s}","binFileSuffix":".o","magic":"RT_DEV_BINARY_MAGIC_ELF"}}"#),
        )
        .unwrap();
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn push_pull_dry_run_and_json() {
    let t = tempfile::tempdir().unwrap();
    let (a, b, shared) = (
        t.path().join("a"),
        t.path().join("b"),
        t.path().join("shared"),
    );
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    node(&a, &["te_add_1", "te_mul_2"]);
    let (a_s, b_s, url) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        shared.to_str().unwrap(),
    );

    let o = cannctl(&["cache", "push", a_s, "--remote", url, "--dry-run"], "C");
    assert!(o.status.success(), "{}", text(&o));
    // "would push 2 entries".
    insta::assert_snapshot!("push_dry_run", seen(&o, &t));
    assert!(!shared.join("cce2").exists(), "a dry run writes nothing");

    let o = cannctl(
        &["cache", "push", a_s, "--remote", url, "--format", "json"],
        "C",
    );
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["pushed"].as_u64(), v["present"].as_u64()),
        (Some(2), Some(0)),
        "{v}"
    );
    // "pushed 0 entries", "2 already there".
    let o = cannctl(&["cache", "push", a_s, "--remote", url], "C");
    insta::assert_snapshot!("push_again", seen(&o, &t));

    // A fresh node: its stamps, no SoC directory yet, so it names the SoC.
    std::fs::copy(a.join("op_cache.ini"), b.join("op_cache.ini")).unwrap();
    let o = cannctl(&["cache", "pull", b_s, "--remote", url], "C");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // The hint names `--soc`.
    insta::assert_snapshot!("pull_needs_soc", seen(&o, &t));
    let o = cannctl(
        &["cache", "pull", b_s, "--remote", url, "--soc", "Ascend910B"],
        "zh_CN.UTF-8",
    );
    assert!(o.status.success(), "{}", text(&o));
    // "已从 ... 拉取 2 个条目".
    insta::assert_snapshot!("pull_zh", seen(&o, &t));
    for f in ["te_add_1.o", "te_add_1.json", "te_mul_2.o", "te_mul_2.json"] {
        let rel = format!("kernel_cache/Ascend910B/kernel_meta/{f}");
        assert_eq!(
            std::fs::read(a.join(&rel)).unwrap(),
            std::fs::read(b.join(&rel)).unwrap(),
            "{f}"
        );
    }
    let o = cannctl(&["cache", "verify", b_s], "C");
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn credentials_on_the_command_line_are_refused() {
    let t = tempfile::tempdir().unwrap();
    node(t.path(), &["te_add_1"]);
    let d = t.path().to_str().unwrap();
    // Each refusal names the variable to use ("... credentials ... REDIS_PASSWORD", ...),
    // and never repeats the secret.
    let mut all = String::new();
    for (url, var) in [
        ("redis://:s3cret@127.0.0.1:1/0", "REDIS_PASSWORD"),
        ("s3://AKIDEXAMPLE:s3cret@bucket/p", "AWS_SECRET_ACCESS_KEY"),
        (
            "s3://bucket/p?secret_access_key=s3cret",
            "AWS_SECRET_ACCESS_KEY",
        ),
    ] {
        let o = cannctl(&["cache", "push", d, "--remote", url], "C");
        assert_eq!(o.status.code(), Some(2), "{url}: {}", text(&o));
        all.push_str(&format!(
            "$ cannctl cache push [DIR] --remote <{var} in the URL>\n"
        ));
        all.push_str(&seen(&o, &t));
    }
    insta::assert_snapshot!("credentials_refused", all);
    // In Chinese: "凭据".
    let o = cannctl(
        &["cache", "push", d, "--remote", "redis://:s3cret@h/0"],
        "zh_CN.UTF-8",
    );
    let zh = seen(&o, &t);
    insta::assert_snapshot!("credentials_refused_zh", zh);
    // Kept apart from the snapshots, so that accepting a new one cannot let a secret in.
    assert!(
        !all.contains("s3cret") && !zh.contains("s3cret"),
        "the secret is never repeated: {all}{zh}"
    );
}

#[test]
fn push_needs_version_stamps() {
    let t = tempfile::tempdir().unwrap();
    node(t.path(), &["te_add_1"]);
    std::fs::write(
        t.path().join("op_cache.ini"),
        "[op_compiler_cache]\nmax_op_cache_size=500\n",
    )
    .unwrap();
    let shared = t.path().join("shared");
    let o = cannctl(
        &[
            "cache",
            "push",
            t.path().to_str().unwrap(),
            "--remote",
            shared.to_str().unwrap(),
        ],
        "C",
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // Names the missing `adk_version` stamp.
    insta::assert_snapshot!("push_needs_stamps", seen(&o, &t));
}

#[test]
fn gc_remote_keeps_entries_used_within_the_floor() {
    let t = tempfile::tempdir().unwrap();
    node(t.path(), &["te_add_1", "te_mul_2"]);
    let (d, shared) = (t.path().to_str().unwrap(), t.path().join("shared"));
    let url = shared.to_str().unwrap();
    assert!(cannctl(&["cache", "push", d, "--remote", url], "C")
        .status
        .success());
    let o = cannctl(
        &[
            "cache",
            "gc",
            d,
            "--remote",
            url,
            "--max-size",
            "0",
            "--format",
            "json",
        ],
        "C",
    );
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["entries_before"], 2, "{v}");
    assert_eq!(v["removed"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["stopped_by_floor"], true, "{v}");
    let o = cannctl(
        &["cache", "gc", d, "--remote", url, "--max-size", "0"],
        "zh_CN.UTF-8",
    );
    // "... 最近 30 分钟 ...".
    insta::assert_snapshot!("gc_remote_floor_zh", seen(&o, &t));
}
