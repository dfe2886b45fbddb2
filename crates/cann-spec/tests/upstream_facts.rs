//! Facts of the bundled spec that a second audit against the upstream repositories found
//! wrong (issue 33), each as the tags and commits have it now. Every assertion failed on
//! the spec before the fix.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use cann_spec::{Gone, OptionSpec, OptionType, Spec};

fn spec() -> Spec {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    cann_spec::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
}

fn option<'a>(spec: &'a Spec, path: &str) -> &'a OptionSpec {
    spec.option_by_path(path)
        .unwrap_or_else(|| panic!("no option {path}"))
}

fn sources(o: &OptionSpec) -> Vec<&str> {
    let mut all: Vec<&str> = o.source.iter().map(String::as_str).collect();
    if let Some(d) = &o.deprecated {
        all.extend(d.source.iter().map(String::as_str));
    }
    for r in &o.removed {
        all.extend(r.source.iter().map(String::as_str));
    }
    if let Some(i) = &o.introduced {
        all.extend(i.source.iter().map(String::as_str));
    }
    all
}

#[test]
fn auto_multistream_parallel_mode_is_cv_only_at_9_0_0() {
    let spec = spec();
    let o = option(&spec, "npu_run_config.auto_multistream_parallel_mode");
    // The facts of 9.0.0 are read at its tags, not at master.
    let srcs = sources(o);
    assert!(srcs
        .iter()
        .any(|s| s.starts_with("hicann/tensorflow@tfa_v0.0.48_9.0.0:")));
    assert!(srcs.iter().any(|s| s.starts_with("hicann/ge@v9.0.0:")));
    let rule = |id: &str| spec.rules.iter().find(|r| r.id == id);
    // Other values do nothing at 9.0.0, and "cv" with dynamic-shape multi-stream fails.
    let only = rule("multistream-cv-only").expect("rule multistream-cv-only");
    assert_eq!(only.available.last.as_deref(), Some("9.0.0"));
    let fails = rule("multistream-cv-not-with-dynamic-multistream").expect("cv/dynamic rule");
    assert_eq!(fails.available.last.as_deref(), Some("9.0.0"));
    // Needing ENABLE_DYNAMIC_SHAPE_MULTI_STREAM is master's behaviour: the next release.
    let needs = rule("multistream-dynamic-shape-needs-env").expect("needs-env rule");
    assert_eq!(needs.available.from.as_deref(), Some("next"));
    assert!(
        !o.doc.en.contains("Dynamic shapes also need"),
        "{}",
        o.doc.en
    );
}

#[test]
fn aicore_num_and_oo_constant_folding_are_dated_alike() {
    let spec = spec();
    let a = option(&spec, "npu_run_config.aicore_num");
    let b = option(&spec, "npu_run_config.oo_constant_folding");
    let dating = |o: &OptionSpec| {
        let i = o.introduced.as_ref().expect("introduced");
        (
            i.after.clone(),
            i.first_recorded.clone(),
            o.available.from.clone(),
        )
    };
    assert_eq!(dating(a), dating(b));
    assert_eq!(dating(a).1, "9.0.0");
    // The undated seed dates nothing: each is sourced at the 9.0.0 tag.
    for o in [a, b] {
        let i = o.introduced.as_ref().unwrap();
        assert!(i
            .source
            .iter()
            .any(|s| s
                .starts_with("hicann/tensorflow@tfa_v0.0.48_9.0.0:tf_adapter/util/npu_attrs.cc:")));
    }
}

#[test]
fn graph_parallel_history_names_every_tag() {
    let spec = spec();
    let gpc = option(
        &spec,
        "npu_run_config.experimental_config.graph_parallel_config",
    );
    let note = &gpc.removal().expect("removed").note.en;
    assert!(note.contains("tfa_v0.0.1"), "{note}");
    assert!(!note.contains("No tagged build has it"), "{note}");
    for path in [
        "npu_run_config.experimental_config.graph_parallel_config.enable_graph_parallel",
        "npu_run_config.experimental_config.graph_parallel_config.graph_parallel_option_path",
    ] {
        let o = option(&spec, path);
        let r = o.removal().expect("removed");
        assert!(r.note.en.contains("tfa_v0.0.1"), "{}", r.note.en);
        assert!(r
            .source
            .iter()
            .any(|s| s.starts_with("Ascend/tensorflow@tfa_v0.0.1:")));
    }
    let cache = spec
        .options
        .iter()
        .find(|o| o.name == "graph_compiler_cache_dir" && o.config == "NPURunConfig")
        .expect("the retired NPURunConfig keyword");
    let r = cache.removal().expect("removed");
    for tag in [
        "tfa_v0.0.8_mt",
        "tfa_v0.0.9_6.3.RC2.alpha003",
        "tfa_v0.0.10_mt",
    ] {
        assert!(r.note.en.contains(tag), "{tag}: {}", r.note.en);
        assert!(
            r.source.iter().any(|s| s.contains(&format!("@{tag}:"))),
            "{tag}"
        );
    }
    assert!(r.note.en.contains("6.3.RC2.alpha002"), "{}", r.note.en);
    assert!(
        !r.note.en.contains("only 6.3.RC2.alpha003"),
        "{}",
        r.note.en
    );
}

#[test]
fn deprecations_are_dated_from_the_commit_that_added_the_warning() {
    let spec = spec();
    for path in [
        "npu_run_config.optypelist_for_implmode",
        "npu_run_config.op_select_implmode",
        "npu_run_config.enable_data_pre_proc",
    ] {
        let d = option(&spec, path).deprecated.as_ref().expect("deprecated");
        assert!(d.note.en.contains("087fc4e6"), "{path}: {}", d.note.en);
        assert!(d.note.en.contains("r1.10.0"), "{path}: {}", d.note.en);
        assert!(
            !d.note.en.contains("since branch r1.11.0"),
            "{path}: {}",
            d.note.en
        );
        assert!(d
            .source
            .iter()
            .any(|s| s.starts_with("Ascend/tensorflow@087fc4e6:tf_adapter/util/npu_attrs.cc:")));
        assert!(!d
            .source
            .iter()
            .any(|s| s.starts_with("Ascend/tensorflow@36bfa870")));
    }
}

#[test]
fn local_rank_id_is_bounded_as_npu_attrs_checks_it() {
    let spec = spec();
    let o = option(&spec, "npu_run_config.local_rank_id");
    let r = o.range.as_ref().expect("a range");
    assert_eq!((r.min, r.max, r.advice), (Some(0), Some(7), false));
    assert!(o
        .source
        .iter()
        .any(|s| s.ends_with("tf_adapter/util/npu_attrs.cc:394")));
}

#[test]
fn python_objects_are_typed_as_such() {
    let spec = spec();
    let o = option(&spec, "npu_run_config.session_config");
    assert_eq!(o.ty, OptionType::Object("tf.ConfigProto".into()));
    assert_eq!(o.ty.describe(), "python-object (tf.ConfigProto)");
    for path in [
        "npu_run_config.distribute",
        "npu_run_config.train_distribute",
        "npu_run_config.eval_distribute",
    ] {
        assert!(
            matches!(option(&spec, path).ty, OptionType::Object(_)),
            "{path}"
        );
    }
}

#[test]
fn bounds_no_upstream_source_states_are_marked_as_advice() {
    let spec = spec();
    // Nothing upstream refuses a timeout below -1 (the documented "wait forever").
    for path in [
        "npu_run_config.event_sync_timeout",
        "npu_run_config.stream_sync_timeout",
    ] {
        let r = option(&spec, path).range.as_ref().expect("a range");
        assert!(r.advice, "{path}");
        assert_eq!(
            (r.min, r.max),
            (Some(-1), Some(i64::from(i32::MAX))),
            "{path}"
        );
    }
    // The graph engine ignores a negative operator timeout and refuses one past 32 bits;
    // tf.estimator.RunConfig refuses a negative save_checkpoints_secs and a
    // log_step_count_steps of 0: code states these, so they are not advice.
    for (path, min, max) in [
        (
            "npu_run_config.op_execute_timeout",
            0,
            Some(i64::from(i32::MAX)),
        ),
        (
            "npu_run_config.op_wait_timeout",
            0,
            Some(i64::from(i32::MAX)),
        ),
        ("npu_run_config.save_checkpoints_secs", 0, None),
        ("npu_run_config.log_step_count_steps", 1, None),
    ] {
        let r = option(&spec, path).range.as_ref().expect("a range");
        assert!(!r.advice, "{path}");
        assert_eq!((r.min, r.max), (Some(min), max), "{path}");
    }
}

#[test]
fn citations_point_where_the_fact_is() {
    let spec = spec();
    // dynamic_input's pages name no replacement; set_graph_exec_config is the advice of
    // dynamic_inputs_shape_range, cited at its line.
    for path in [
        "npu_run_config.dynamic_input",
        "npu_run_config.dynamic_graph_execute_mode",
    ] {
        let d = option(&spec, path).deprecated.as_ref().unwrap();
        assert!(!d.note.en.contains("set_graph_exec_config"), "{path}");
    }
    let d = option(&spec, "npu_run_config.dynamic_inputs_shape_range")
        .deprecated
        .as_ref()
        .unwrap();
    assert!(d.note.en.contains("set_graph_exec_config"));
    assert!(d
        .source
        .iter()
        .any(|s| s.ends_with("deprecated_options.md:218")));
    // auto_tune_mode's deprecation cites the branch that still had the keyword and the
    // commit that deleted it, not a file that never names it.
    let d = option(&spec, "npu_run_config.auto_tune_mode")
        .deprecated
        .as_ref()
        .unwrap();
    assert!(!d
        .source
        .iter()
        .any(|s| s.starts_with("Ascend/tensorflow@36bfa870")));
    assert!(d.source.iter().any(|s| s.contains("c8e219da")));
}

#[test]
fn retired_environment_variables_are_modelled_with_their_source() {
    let spec = spec();
    for name in [
        "WHICH_OP",
        "NEW_GE_FE_ID",
        "GE_AICPU_FLAG",
        "OPTION_EXEC_HCCL_FLAG",
    ] {
        let o = option(&spec, &format!("env.{name}"));
        let r = o
            .removal()
            .unwrap_or_else(|| panic!("{name} is not retired"));
        assert_eq!(r.gone, Gone::Before("8.0.RC2".into()), "{name}");
        assert!(!r.source.is_empty() && !o.source.is_empty(), "{name}");
    }
}

#[test]
fn the_next_release_is_unreleased_and_not_the_default() {
    let spec = spec();
    let last = spec.releases.last().unwrap();
    assert_eq!(last.id, "next");
    assert!(last.unreleased);
    assert_eq!(spec.newest_released().map(|r| r.id.as_str()), Some("9.0.0"));
    let of = |s: &str| spec.release_of(s).map(|r| r.id.as_str());
    assert_eq!(
        of("hicann/tensorflow@tfa_v0.0.48_9.0.0:tf_adapter/util/npu_attrs.cc:1"),
        Some("9.0.0")
    );
    assert_eq!(of("hicann/ge@v9.0.0:x.cc"), Some("9.0.0"));
    assert_eq!(of("hicann/tensorflow@82957b9:x.cc"), Some("next"));
    assert_eq!(of("hicann/ge@ffdcbc9:x.cc"), Some("next"));
}
