//! The adapter's documented environment variables are known; others are warned about.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::emit::{emit, Format};
use cann_config::meta::Severity;

#[test]
fn the_distributed_example_checks_clean_and_exports_its_variables() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/distributed-8p.yaml"),
    )
    .unwrap();
    let ds = common::check(&text, "atlas-a2-training", "9.0.0");
    assert!(common::errors(&ds).is_empty(), "{ds:#?}");
    let warned: Vec<&str> = ds
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.option.as_str())
        .collect();
    assert_eq!(warned, ["env.HCCL_CONNECT_TIMEOUT"]);
    let f = common::parse(&text);
    let env = emit(&f.config, Format::Env).unwrap();
    for line in [
        "export RANK_TABLE_FILE=/home/test/rank_table_8p.json",
        "export RANK_SIZE=8",
        "export RANK_ID=0",
        "export ASCEND_DEVICE_ID=0",
        "export JOB_ID=10087",
    ] {
        assert!(env.lines().any(|l| l == line), "{line} missing from\n{env}");
    }
}

#[test]
fn an_unknown_variable_is_a_warning_with_a_suggestion() {
    let ds = common::check(
        "env:\n  ASCEND_CACHE_PAT: /var/cache\n  RANK_SIZE: 0\n",
        "atlas-a2-training",
        "9.0.0",
    );
    let unknown = ds
        .iter()
        .find(|d| d.option == "env.ASCEND_CACHE_PAT")
        .unwrap();
    assert_eq!(unknown.severity, Severity::Warning);
    assert_eq!(unknown.line, Some(2));
    assert_eq!(
        unknown.hint.as_deref(),
        Some("did you mean `ASCEND_CACHE_PATH`?")
    );
    // Known variables are still checked: RANK_SIZE counts devices, so 0 is refused.
    let errors = common::errors(&ds);
    assert_eq!(errors.len(), 1, "{ds:#?}");
    assert_eq!(errors[0].option, "env.RANK_SIZE");
}

#[test]
fn an_unknown_option_outside_the_environment_is_still_an_error() {
    let ds = common::check(
        "npu_run_config:\n  RANK_SIZE: 8\n",
        "atlas-a2-training",
        "9.0.0",
    );
    assert_eq!(common::errors(&ds).len(), 1, "{ds:#?}");
}

/// An 8-device config as users write it: every value a plain YAML scalar.
const AS_WRITTEN: &str = "env:
  RANK_TABLE_FILE: /home/test/rank_table_8p.json
  RANK_SIZE: 8
  RANK_ID: 0
  JOB_ID: 10087
  AOE_MODE: 1
  PROFILING_MODE: true
  PROFILING_OPTIONS: 1.5
";

#[test]
fn any_scalar_is_the_value_of_a_string_variable_in_check_and_emit() {
    for lang in [cann_config::meta::Lang::En, cann_config::meta::Lang::Zh] {
        let f = cann_config::parse_config_in(AS_WRITTEN, lang).unwrap();
        assert!(f.diagnostics.is_empty(), "{lang:?}: {:#?}", f.diagnostics);
        let v = cann_config::validate(&f.config, common::target("atlas-a2-training", "9.0.0"));
        assert!(
            common::errors(&v.diagnostics).is_empty(),
            "{:#?}",
            v.diagnostics
        );
        let env = emit(&f.config, Format::Env).unwrap();
        for line in [
            "export JOB_ID=10087",
            "export AOE_MODE=1",
            "export PROFILING_MODE=true",
            "export PROFILING_OPTIONS=1.5",
        ] {
            assert!(env.lines().any(|l| l == line), "{line} missing from\n{env}");
        }
    }
}

#[test]
fn a_non_scalar_is_still_refused_for_a_string_variable() {
    for lang in [cann_config::meta::Lang::En, cann_config::meta::Lang::Zh] {
        let f = cann_config::parse_config_in("env:\n  JOB_ID: [1, 2]\n", lang).unwrap();
        assert_eq!(f.diagnostics.len(), 1, "{:#?}", f.diagnostics);
        assert_eq!(f.diagnostics[0].option, "env.JOB_ID");
        assert_eq!(f.diagnostics[0].line, Some(2));
    }
}
