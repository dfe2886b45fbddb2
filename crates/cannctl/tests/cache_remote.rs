//! `cannctl cache push|pull --remote URL` as a user runs it, on a directory store (the store
//! tests of cann-cache-remote cover Redis and S3).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Output};

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
    assert!(text(&o).contains("would push 2 entries"), "{}", text(&o));
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
    let o = cannctl(&["cache", "push", a_s, "--remote", url], "C");
    assert!(
        text(&o).contains("pushed 0 entries") && text(&o).contains("2 already there"),
        "{}",
        text(&o)
    );

    // A fresh node: its stamps, no SoC directory yet, so it names the SoC.
    std::fs::copy(a.join("op_cache.ini"), b.join("op_cache.ini")).unwrap();
    let o = cannctl(&["cache", "pull", b_s, "--remote", url], "C");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--soc"), "{}", text(&o));
    let o = cannctl(
        &["cache", "pull", b_s, "--remote", url, "--soc", "Ascend910B"],
        "zh_CN.UTF-8",
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("已从") && text(&o).contains("拉取 2 个条目"),
        "{}",
        text(&o)
    );
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
        let out = text(&o);
        assert!(
            out.contains(var) && out.contains("credentials"),
            "{url}: {out}"
        );
        assert!(
            !out.contains("s3cret"),
            "the secret is never repeated: {out}"
        );
    }
    let o = cannctl(
        &["cache", "push", d, "--remote", "redis://:s3cret@h/0"],
        "zh_CN.UTF-8",
    );
    assert!(
        text(&o).contains("凭据") && !text(&o).contains("s3cret"),
        "{}",
        text(&o)
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
    assert!(text(&o).contains("adk_version"), "{}", text(&o));
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
    assert!(text(&o).contains("最近 30 分钟"), "{}", text(&o));
}
