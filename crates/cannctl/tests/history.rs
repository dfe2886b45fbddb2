//! What a user meets of an option whose first release is not known (`introduced:`), and of
//! a removal that still takes an empty value (`empty_ignored`): `explain` in both languages
//! and as JSON, `check` and `lint` for an older release (a note, not an error), and `diff`
//! over the unknown interval (an interval, never a release).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod run;
use run::cannctl;

use std::process::Output;

use cann_config::OPTIONS;

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The option these tests look at, and what the spec says of its first release.
fn uncertain() -> (&'static str, &'static str, &'static str, &'static str) {
    let o = OPTIONS
        .iter()
        .find(|o| o.path == "npu_run_config.all_tensor_not_empty")
        .expect("in the spec");
    let i = o.introduced.expect("its first release is not known");
    (o.name, o.path, i.after, i.first_recorded.id())
}

#[test]
fn explain_states_the_interval_and_its_sources_in_both_languages() {
    let (name, _, after, first) = uncertain();
    let en = out(&cannctl(&["explain", name]));
    assert!(
        en.contains(&format!(
            "introduced: added after {after}, first recorded in {first}; the release in between is not known"
        )),
        "{en}"
    );
    assert!(en.contains("tfa_v0.0.20_7.0.0.alpha003"), "{en}");
    assert!(!en.contains("may not exist"), "{en}");
    let old = out(&cannctl(&["explain", name, "--release", "8.3.RC1"]));
    assert!(
        old.contains("may not exist in 8.3.RC1: added after"),
        "{old}"
    );
    let zh = out(&cannctl(&[
        "explain",
        name,
        "--release",
        "8.3.RC1",
        "--lang",
        "zh",
    ]));
    assert!(
        zh.contains(&format!("在 {after} 之后加入，最早见于 {first}")),
        "{zh}"
    );
    assert!(zh.contains("8.3.RC1 中可能不存在"), "{zh}");
    assert!(!zh.contains("may not exist"), "{zh}");
}

#[test]
fn explain_json_carries_the_fact() {
    let (name, _, after, first) = uncertain();
    let at = |release: &str| -> serde_json::Value {
        let o = cannctl(&["explain", name, "--format", "json", "--release", release]);
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let old = at("8.3.RC1");
    let i = &old["introduced"];
    assert_eq!(i["after"], after);
    assert_eq!(i["first_recorded"], first);
    assert_eq!(i["may_not_exist_here"], true);
    assert!(i["source"].as_array().is_some_and(|s| !s.is_empty()));
    assert_eq!(at(first)["introduced"]["may_not_exist_here"], false);
}

#[test]
fn explain_says_a_removal_still_takes_an_empty_value() {
    let o = OPTIONS
        .iter()
        .find(|o| o.removed.iter().any(|r| r.ignores_empty()))
        .expect("the spec records one");
    let r = o.removed.iter().find(|r| r.ignores_empty()).unwrap();
    let en = out(&cannctl(&["explain", o.path]));
    assert!(
        en.contains("an empty value is still accepted and ignored"),
        "{en}"
    );
    assert!(en.contains(r.empty_ignored[0]), "{en}");
    let zh = out(&cannctl(&["explain", o.path, "--lang", "zh"]));
    assert!(zh.contains("空值仍被接受，但不生效"), "{zh}");
    let json: serde_json::Value =
        serde_json::from_slice(&cannctl(&["explain", o.path, "--format", "json"]).stdout).unwrap();
    let listed = json["removed"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["empty_ignored"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(listed, "{json}");
}

fn config(dir: &tempfile::TempDir, release: &str) -> String {
    let p = dir.path().join(format!("job-{release}.yaml"));
    std::fs::write(
        &p,
        format!(
            "product: atlas-a2-training\nrelease: \"{release}\"\nnpu_run_config:\n  all_tensor_not_empty: true\n"
        ),
    )
    .unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn check_for_an_older_release_notes_that_the_option_may_not_exist() {
    let (name, _, _, first) = uncertain();
    let dir = tempfile::tempdir().unwrap();
    let old = cannctl(&["check", &config(&dir, "8.0.RC2")]);
    assert_eq!(old.status.code(), Some(0), "a note is not an error");
    let text = out(&old);
    assert!(
        text.contains(&format!("`{name}` may not exist in release 8.0.RC2")),
        "{text}"
    );
    assert!(text.contains(&format!("{first} or later")), "{text}");
    let json = cannctl(&["check", &config(&dir, "8.0.RC2"), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v.to_string().contains("\"note\""), "{v}");
    let new = cannctl(&["check", &config(&dir, first)]);
    assert_eq!(new.status.code(), Some(0));
    assert!(!out(&new).contains("may not exist"), "{}", out(&new));
}

#[test]
fn lint_for_an_older_release_notes_it_too() {
    let (name, _, _, _) = uncertain();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("train.py");
    std::fs::write(
        &script,
        format!(
            "import tensorflow as tf\n\
             from npu_bridge.npu_init import *\n\
             config = tf.compat.v1.ConfigProto()\n\
             custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n\
             custom_op.name = \"NpuOptimizer\"\n\
             custom_op.parameter_map[\"{name}\"].b = True\n"
        ),
    )
    .unwrap();
    let script = script.to_string_lossy().into_owned();
    let lint = |release: &str| {
        out(&cannctl(&[
            "lint",
            &script,
            "--product",
            "atlas-a2-training",
            "--release",
            release,
        ]))
    };
    let old = lint("8.1.RC1");
    assert!(old.contains("may not exist in release 8.1.RC1"), "{old}");
    assert!(!lint("9.0.0").contains("may not exist"));
}

#[test]
fn diff_over_the_unknown_interval_names_the_interval_never_a_release() {
    let (_, path, after, first) = uncertain();
    let text = out(&cannctl(&["diff", "8.0.RC2", first]));
    let line = text
        .lines()
        .find(|l| l.contains(path))
        .unwrap_or_else(|| panic!("{path} not in\n{text}"));
    assert!(
        line.contains(&format!(
            "added between {after} and {first}, release unknown"
        )),
        "{line}"
    );
    // The release note of the interval's last release says the same, the one after says
    // nothing.
    let last = out(&cannctl(&["diff", "8.3.RC1", first]));
    assert!(last.contains(path), "{last}");
    let none = out(&cannctl(&["diff", first, first]));
    assert!(!none.contains(path), "{none}");
    let zh = out(&cannctl(&["diff", "8.0.RC2", first, "--lang", "zh"]));
    assert!(
        zh.contains(&format!("在 {after} 与 {first} 之间加入，具体版本不详")),
        "{zh}"
    );
}

/// The development branches are the release `next`: named, never the default.
#[test]
fn the_unreleased_release_is_never_the_default() {
    let o = cannctl(&["explain", "npu_run_config.oo_level"]);
    let text = out(&o);
    assert!(
        text.contains("release: 9.0.0 (the newest released"),
        "{text}"
    );

    // What master brings: the auto_multistream_parallel_mode rules of 9.0.0 end, master's
    // begins.
    let o = cannctl(&["diff", "9.0.0", "next", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let text = out(&o);
    for id in [
        "multistream-cv-only",
        "multistream-cv-not-with-dynamic-multistream",
        "multistream-dynamic-shape-needs-env",
    ] {
        assert!(text.contains(id), "{id}: {text}");
    }

    // A mode only master knows: 9.0.0 warns that it does nothing, next does not.
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        "product: atlas-a2-training\nnpu_run_config:\n  auto_multistream_parallel_mode: \"LoadBalance:8\"\nenv:\n  ENABLE_DYNAMIC_SHAPE_MULTI_STREAM: 1\n",
    )
    .unwrap();
    let cfg = cfg.display().to_string();
    let at = |release: &[&str]| {
        let mut args = vec!["check", cfg.as_str(), "--format", "json"];
        args.extend(release);
        out(&cannctl(&args))
    };
    let fires = |release: &[&str]| {
        let v: serde_json::Value = serde_json::from_str(&at(release)).unwrap();
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "multistream-cv-only")
    };
    assert!(
        fires(&["--release", "9.0.0"]),
        "{}",
        at(&["--release", "9.0.0"])
    );
    assert!(
        !fires(&["--release", "next"]),
        "{}",
        at(&["--release", "next"])
    );
    // Without --release, the default is 9.0.0.
    assert!(fires(&[]), "{}", at(&[]));
}

/// A bound no upstream source states reads as this project's advice in `explain` (both
/// languages) and is a warning in `check`; an upstream bound stays an error.
#[test]
fn an_advised_bound_is_told_apart_from_an_upstream_one() {
    let en = out(&cannctl(&["explain", "npu_run_config.event_sync_timeout"]));
    assert!(
        en.contains("cannctl's advice: no upstream source states this bound"),
        "{en}"
    );
    let zh = out(&cannctl(&[
        "explain",
        "npu_run_config.event_sync_timeout",
        "--lang",
        "zh",
    ]));
    assert!(zh.contains("cannctl 的建议：上游未规定此范围"), "{zh}");
    let rank = out(&cannctl(&["explain", "npu_run_config.local_rank_id"]));
    assert!(!rank.contains("advice"), "{rank}");
    let v: serde_json::Value = serde_json::from_slice(
        &cannctl(&[
            "explain",
            "npu_run_config.event_sync_timeout",
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(v["range_is_advice"], true, "{v:#}");

    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        "product: atlas-a2-training\nnpu_run_config:\n  event_sync_timeout: -5\n  local_rank_id: 8\n",
    )
    .unwrap();
    let cfg = cfg.display().to_string();
    let v: serde_json::Value =
        serde_json::from_slice(&cannctl(&["check", &cfg, "--format", "json"]).stdout).unwrap();
    let sev = |path: &str| {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["option"] == path)
            .map(|d| d["severity"].clone())
    };
    assert_eq!(
        sev("npu_run_config.event_sync_timeout"),
        Some("warning".into()),
        "{v:#}"
    );
    assert_eq!(
        sev("npu_run_config.local_rank_id"),
        Some("error".into()),
        "{v:#}"
    );
}

/// `session_config` is a tf.ConfigProto: `explain` says so, and a config file cannot set it.
#[test]
fn a_python_object_option_says_what_it_takes() {
    let en = out(&cannctl(&["explain", "npu_run_config.session_config"]));
    assert!(en.contains("python-object (tf.ConfigProto)"), "{en}");
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        "product: atlas-a2-training\nnpu_run_config:\n  session_config: \"allow_soft_placement: true\"\n",
    )
    .unwrap();
    let o = cannctl(&["check", &cfg.display().to_string()]);
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("takes a Python object (tf.ConfigProto)"),
        "{text}"
    );
}
