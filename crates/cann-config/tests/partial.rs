//! Configs known only in part (as a linter reads them from a script): options set to a value
//! known only at run time, or set on some paths only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_config::meta::Severity;
use cann_config::{
    parse_config, validate_partial, Diagnostic, Product, Release, Report, Target, Unread, OPTIONS,
};

fn option(path: &str) -> &'static cann_config::meta::OptionMeta {
    OPTIONS.iter().find(|o| o.path == path).unwrap()
}

fn check(yaml: &str, unread: &[(&str, Unread)]) -> Vec<Diagnostic> {
    let file = parse_config(yaml).unwrap();
    assert!(file.diagnostics.is_empty(), "{:#?}", file.diagnostics);
    let unread: Vec<_> = unread.iter().map(|(p, u)| (option(p), *u)).collect();
    let mut r = Report::default();
    let target = Target {
        product: "atlas-a2-training".parse::<Product>().unwrap(),
        release: "9.0.0".parse::<Release>().unwrap(),
    };
    validate_partial(&file.config, &unread, target, &mut r);
    r.diagnostics
}

fn rules(ds: &[Diagnostic]) -> Vec<&str> {
    ds.iter().filter_map(|d| d.rule).collect()
}

const DUMP_ON: &str = "npu_run_config:\n  dump_config:\n    enable_dump: true\n";
const DUMP_PATH: &str = "npu_run_config.dump_config.dump_path";
const ENABLE_DUMP: &str = "npu_run_config.dump_config.enable_dump";

#[test]
fn a_needed_option_set_to_an_unknown_value_counts_as_set() {
    assert!(rules(&check(DUMP_ON, &[])).contains(&"dump-needs-path"));
    assert!(!rules(&check(DUMP_ON, &[(DUMP_PATH, Unread::Set)])).contains(&"dump-needs-path"));
}

#[test]
fn a_needed_option_set_on_another_path_is_not_surely_unset() {
    assert!(!rules(&check(DUMP_ON, &[(DUMP_PATH, Unread::Maybe)])).contains(&"dump-needs-path"));
}

#[test]
fn a_value_test_on_an_unknown_value_does_not_hold() {
    // enable_dump = FLAGS.dump: the rule needs it to be true, which is not known.
    let ds = check(
        "npu_run_config:\n  dump_config: {}\n",
        &[(ENABLE_DUMP, Unread::Set)],
    );
    assert!(!rules(&ds).contains(&"dump-needs-path"), "{ds:#?}");
}

#[test]
fn an_option_set_to_an_unknown_value_is_still_checked_for_deprecation() {
    let ds = check(
        "npu_run_config: {}\n",
        &[("npu_run_config.dynamic_input", Unread::Set)],
    );
    assert!(
        ds.iter().any(|d| d.severity == Severity::Warning
            && d.option == "npu_run_config.dynamic_input"
            && d.value.is_none()),
        "{ds:#?}"
    );
    // Perhaps set: nothing is said about it.
    let ds = check(
        "npu_run_config: {}\n",
        &[("npu_run_config.dynamic_input", Unread::Maybe)],
    );
    assert!(ds.is_empty(), "{ds:#?}");
}
