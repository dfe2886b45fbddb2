//! `--fix`: for each kind of fix, the script before, the script after, and that a second run
//! changes nothing and the fixed findings are gone.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_lint::{fix, lint_paths, lint_source, Edit, LintOptions};

/// Applies every fix lint offers for `before`; returns the new text.
fn fixed(before: &str) -> String {
    let r = lint_source(before, &LintOptions::default()).unwrap();
    let edits: Vec<&Edit> = r
        .findings
        .iter()
        .filter_map(|f| f.fix.as_ref())
        .flat_map(|f| f.edits.iter())
        .collect();
    fix::apply(before, &edits).0
}

/// The fix turns `before` into `after`, the findings it fixed are gone, and fixing again
/// changes nothing.
fn check(before: &str, after: &str) {
    let once = fixed(before);
    assert_eq!(once, after);
    let r = lint_source(&once, &LintOptions::default()).unwrap();
    assert!(
        r.findings.iter().all(|f| f.fix.is_none()),
        "{:#?}",
        r.findings
    );
    assert_eq!(fixed(&once), once, "idempotent");
}

const SESSION: &str = "import tensorflow as tf\n\
config = tf.ConfigProto()\n\
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n";

#[test]
fn a_misspelt_parameter_map_key_is_renamed() {
    check(
        &format!("{SESSION}custom_op.parameter_map[\"op_debug_levl\"].i = 0  # keep\n"),
        &format!("{SESSION}custom_op.parameter_map[\"op_debug_level\"].i = 0  # keep\n"),
    );
}

#[test]
fn a_rename_that_the_accessor_or_value_would_not_fit_is_not_offered() {
    // op_debug_level is read with .i: a `.s` value would still be lost after a rename.
    let text = format!("{SESSION}custom_op.parameter_map[\"op_debug_levl\"].s = b\"1\"\n");
    assert_eq!(fixed(&text), text);
    // A key that is no option's misspelling is reported, with nothing to rename it to.
    let r = lint_source(
        &format!("{SESSION}custom_op.parameter_map[\"not_an_option\"].s = b\"all\"\n"),
        &LintOptions::default(),
    )
    .unwrap();
    let unknown: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.rule_id() == "unknown-option")
        .collect();
    assert_eq!(unknown.len(), 1);
    assert!(unknown[0].fix.is_none());
}

#[test]
fn a_misspelt_keyword_is_renamed_and_only_that_token_changes() {
    check(
        "from npu_bridge.npu_init import *\ncfg = NPURunConfig(iterations_per_loop=10, precison_mode = \"allow_mix_precision\")\n",
        "from npu_bridge.npu_init import *\ncfg = NPURunConfig(iterations_per_loop=10, precision_mode = \"allow_mix_precision\")\n",
    );
}

#[test]
fn a_misspelt_tf2_attribute_is_renamed() {
    check(
        "import npu_device as npu\nnpu.global_options().memory_config.static_memory_polcy = 2\n",
        "import npu_device as npu\nnpu.global_options().memory_config.static_memory_policy = 2\n",
    );
}

#[test]
fn a_misspelt_environment_variable_is_renamed() {
    check(
        "import os\nos.environ['GE_USE_STATIC_MEMCRY'] = '2'\n",
        "import os\nos.environ['GE_USE_STATIC_MEMORY'] = '2'\n",
    );
}

#[test]
fn an_option_under_its_other_spelling_is_renamed() {
    check(
        "from npu_bridge.npu_init import *\ncfg = NPURunConfig(hccl_algorithm=\"level0:ring\")\n",
        "from npu_bridge.npu_init import *\ncfg = NPURunConfig(HCCL_algorithm=\"level0:ring\")\n",
    );
}

/// On disk: CR-only line endings are kept, `--diff` shows the change, `--fix` writes it.
#[test]
fn files_keep_their_line_endings_and_diff_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("train.py");
    let before =
        format!("{SESSION}custom_op.parameter_map[\"op_debug_levl\"].i = 0\n").replace('\n', "\r");
    std::fs::write(&path, &before).unwrap();
    let outcome = lint_paths(std::slice::from_ref(&path), &LintOptions::default()).unwrap();
    let f = fix::fixed(&outcome.files[0]).unwrap().unwrap();
    assert_eq!(f.applied, 1);
    assert_eq!(f.after, before.replace("op_debug_levl", "op_debug_level"));
    let d = fix::diff(&f);
    assert!(
        d.contains("-custom_op.parameter_map[\"op_debug_levl\"]"),
        "{d}"
    );
    assert!(
        d.contains("+custom_op.parameter_map[\"op_debug_level\"]"),
        "{d}"
    );
    // Showing the diff wrote nothing.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    fix::write(&path, &f.after).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), f.after);
    let again = lint_paths(std::slice::from_ref(&path), &LintOptions::default()).unwrap();
    assert!(again.files.iter().all(|r| fix::fixed(r).unwrap().is_none()));
}
