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
