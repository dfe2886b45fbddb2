//! What a user meets of an option whose first release is not known (`introduced:`), and of
//! a removal that still takes an empty value (`empty_ignored`): `explain` in both languages
//! and as JSON, `check` and `lint` for an older release (a note, not an error), and `diff`
//! over the unknown interval (an interval, never a release).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod run;
use run::{cannctl, transcript};

use cann_config::OPTIONS;

/// The option these tests look at, and what the spec says of its first release (the
/// transcripts state the interval: added after one release, first recorded in a later one).
fn uncertain() -> (&'static str, &'static str, &'static str, &'static str) {
    let o = OPTIONS
        .iter()
        .find(|o| o.path == "npu_run_config.all_tensor_not_empty")
        .expect("in the spec");
    let i = o.introduced.expect("its first release is not known");
    (o.name, o.path, i.after, i.first_recorded.id())
}

/// Runs `cannctl args` and pins what a user sees, whole, as the snapshot `name`; `dir`, a
/// temporary directory named in the output, is shown as `[DIR]`.
fn pin(name: &str, args: &[&str], dir: Option<&tempfile::TempDir>) {
    let o = cannctl(args);
    let d = dir.map(|d| d.path().display().to_string());
    let replace: Vec<(&str, &str)> = d.iter().map(|d| (d.as_str(), "[DIR]")).collect();
    insta::assert_snapshot!(name, transcript(&o, &replace));
}

#[test]
fn explain_states_the_interval_and_its_sources_in_both_languages() {
    let (name, _, _, _) = uncertain();
    // "introduced: added after R1, first recorded in R2; the release in between is not
    // known", with the tag it was first seen at, and no "may not exist" at the newest.
    pin("explain_uncertain_newest", &["explain", name], None);
    // An older release: "may not exist in 8.3.RC1: added after ...", in both languages.
    pin(
        "explain_uncertain_8.3.RC1",
        &["explain", name, "--release", "8.3.RC1"],
        None,
    );
    pin(
        "explain_uncertain_8.3.RC1_zh",
        &["explain", name, "--release", "8.3.RC1", "--lang", "zh"],
        None,
    );
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
    // "an empty value is still accepted and ignored", naming the releases, in both languages.
    pin("explain_empty_ignored", &["explain", o.path], None);
    pin(
        "explain_empty_ignored_zh",
        &["explain", o.path, "--lang", "zh"],
        None,
    );
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
    let (_, _, _, first) = uncertain();
    let dir = tempfile::tempdir().unwrap();
    // A note, not an error (exit 0): "`all_tensor_not_empty` may not exist in release
    // 8.0.RC2", and the hint "... 8.2.RC1 or later".
    let old = config(&dir, "8.0.RC2");
    pin("check_uncertain_8.0.RC2", &["check", &old], Some(&dir));
    pin(
        "check_uncertain_8.0.RC2_json",
        &["check", &old, "--format", "json"],
        Some(&dir),
    );
    // From its first recorded release on, nothing to say.
    pin(
        "check_uncertain_first_recorded",
        &["check", &config(&dir, first)],
        Some(&dir),
    );
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
        [
            "lint",
            script.as_str(),
            "--product",
            "atlas-a2-training",
            "--release",
            release,
        ]
        .map(str::to_owned)
    };
    let args = lint("8.1.RC1");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // "may not exist in release 8.1.RC1".
    pin("lint_uncertain_8.1.RC1", &args, Some(&dir));
    let args = lint("9.0.0");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    pin("lint_uncertain_9.0.0", &args, Some(&dir));
}

#[test]
fn diff_over_the_unknown_interval_names_the_interval_never_a_release() {
    let (_, _, _, first) = uncertain();
    // The option's line says "added between R1 and R2, release unknown".
    pin(
        "diff_8.0.RC2_first_recorded",
        &["diff", "8.0.RC2", first],
        None,
    );
    // The release note of the interval's last release says the same, the one after says
    // nothing.
    pin(
        "diff_8.3.RC1_first_recorded",
        &["diff", "8.3.RC1", first],
        None,
    );
    pin("diff_first_recorded_itself", &["diff", first, first], None);
    pin(
        "diff_8.0.RC2_first_recorded_zh",
        &["diff", "8.0.RC2", first, "--lang", "zh"],
        None,
    );
}

/// The development branches are the release `next`: named, never the default.
#[test]
fn the_unreleased_release_is_never_the_default() {
    // "release: 9.0.0 (the newest released ...)".
    pin(
        "explain_oo_level_default_release",
        &["explain", "npu_run_config.oo_level"],
        None,
    );

    // What master brings: the auto_multistream_parallel_mode rules of 9.0.0 end
    // (multistream-cv-only, multistream-cv-not-with-dynamic-multistream), master's begins
    // (multistream-dynamic-shape-needs-env).
    pin(
        "diff_9.0.0_next_json",
        &["diff", "9.0.0", "next", "--format", "json"],
        None,
    );

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
        String::from_utf8_lossy(&cannctl(&args).stdout).into_owned()
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
    // "cannctl's advice: no upstream source states this bound", in both languages.
    pin(
        "explain_advised_bound",
        &["explain", "npu_run_config.event_sync_timeout"],
        None,
    );
    pin(
        "explain_advised_bound_zh",
        &[
            "explain",
            "npu_run_config.event_sync_timeout",
            "--lang",
            "zh",
        ],
        None,
    );
    // An upstream bound: no advice.
    pin(
        "explain_upstream_bound",
        &["explain", "npu_run_config.local_rank_id"],
        None,
    );
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

/// `session_config` is a tf.ConfigProto: `explain` says so ("python-object
/// (tf.ConfigProto)"), and a config file cannot set it (exit 1, "takes a Python object
/// (tf.ConfigProto)").
#[test]
fn a_python_object_option_says_what_it_takes() {
    pin(
        "explain_python_object",
        &["explain", "npu_run_config.session_config"],
        None,
    );
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.yaml");
    std::fs::write(
        &cfg,
        "product: atlas-a2-training\nnpu_run_config:\n  session_config: \"allow_soft_placement: true\"\n",
    )
    .unwrap();
    pin(
        "check_python_object",
        &["check", &cfg.display().to_string()],
        Some(&dir),
    );
}
