//! `removed:` and `deprecated:`: what a retirement does to availability, and one test per
//! mistake the loader refuses, each at its file and line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_spec::{load_files, Diagnostic, SourceFile, Spec};

const RELEASES: &str = "\
releases:
  - id: \"1.0\"
    products: [p-one]
  - id: \"2.0\"
    products: [p-one]
  - id: \"3.0\"
    products: [p-one]
";

/// `old_key` went after 1.0 for `mode`; `typo` was never read; `tune` lost its keyword
/// after 2.0 but keeps its session key; value `slow` of `mode` went after 2.0.
const OPTIONS: &str = "\
config:
  name: RunConfig
  root_key: run
  products: { p-one: \"..\" }
  doc: { en: Run., zh: 运行。 }
options:
  - name: mode
    type: string-enum
    values:
      - { value: fast, name: fast, doc: { en: Fast., zh: 快。 } }
      - value: slow
        name: slow
        removed:
          last: \"2.0\"
          replacement: fast
          note: { en: Gone., zh: 已移除。 }
        doc: { en: Slow., zh: 慢。 }
    estimator: mode
    session: { name: mode, accessor: s }
    doc: { en: Mode., zh: 模式。 }
  - name: old_key
    type: bool
    session: { name: old_key, accessor: b }
    removed:
      last: \"1.0\"
      replacement: run.mode
      values:
        - { from: true, to: fast }
      note: { en: Use mode., zh: 请用 mode。 }
      source: [upstream@abc:file.cc]
    doc: { en: Old., zh: 旧。 }
  - name: typo
    type: string
    session: { name: typo, accessor: s }
    removed:
      never_read: true
      note: { en: Never read., zh: 从未读取。 }
    doc: { en: Typo., zh: 拼写错误。 }
  - name: tune
    type: string
    session: { name: tune, accessor: s }
    removed:
      - estimator: tune
        last: \"2.0\"
        note: { en: Keyword gone., zh: 关键字已移除。 }
    doc: { en: Tune., zh: 调优。 }
";

fn files(options: &str) -> Vec<SourceFile> {
    common::spec_files(common::ONE_PRODUCT, RELEASES, options)
}

fn load(options: &str) -> Spec {
    load_files(&files(options)).unwrap_or_else(|e| panic!("{e}"))
}

fn one(options: &str) -> Diagnostic {
    let errs = match load_files(&files(options)) {
        Ok(_) => panic!("the spec should not load"),
        Err(e) => e.0,
    };
    assert_eq!(errs.len(), 1, "{errs:#?}");
    errs.into_iter().next().unwrap()
}

fn available_in(spec: &Spec, path: &str) -> Vec<String> {
    let o = spec.option_by_path(path).unwrap();
    spec.releases
        .iter()
        .enumerate()
        .filter(|(i, _)| o.available.contains_index(*i, |id| spec.release_index(id)))
        .map(|(_, r)| r.id.clone())
        .collect()
}

#[test]
fn a_removal_ends_availability_after_its_last_release() {
    let spec = load(OPTIONS);
    assert_eq!(available_in(&spec, "run.old_key"), ["1.0"]);
    let o = spec.option_by_path("run.old_key").unwrap();
    let r = o.removal().unwrap();
    assert_eq!(r.gone, cann_spec::Gone::After("1.0".into()));
    assert_eq!(r.replacement.as_deref(), Some("run.mode"));
    assert_eq!(r.source, ["upstream@abc:file.cc"]);
}

#[test]
fn never_read_is_available_in_no_release() {
    let spec = load(OPTIONS);
    assert!(available_in(&spec, "run.typo").is_empty());
    assert_eq!(
        spec.option_by_path("run.typo")
            .unwrap()
            .removal()
            .unwrap()
            .gone,
        cann_spec::Gone::Never
    );
}

#[test]
fn a_retired_spelling_leaves_the_option_available() {
    let spec = load(OPTIONS);
    assert_eq!(available_in(&spec, "run.tune"), ["1.0", "2.0", "3.0"]);
    let o = spec.option_by_path("run.tune").unwrap();
    assert!(o.removal().is_none());
    assert_eq!(o.removed[0].surfaces.estimator.as_deref(), Some("tune"));
}

#[test]
fn a_removed_value_ends_with_its_replacement_recorded() {
    let spec = load(OPTIONS);
    let o = spec.option_by_path("run.mode").unwrap();
    let slow = &o.values[1];
    assert_eq!(slow.available.last.as_deref(), Some("2.0"));
    let r = slow.removed.as_ref().unwrap();
    assert_eq!(r.values[0].to, cann_spec::Literal::Str("fast".into()));
}

#[test]
fn last_and_never_read_together_are_refused() {
    let d = one(&OPTIONS.replace(
        "      never_read: true\n",
        "      never_read: true\n      last: \"1.0\"\n",
    ));
    assert!(
        d.message.contains("more than one of `last`, `never_read`"),
        "{d}"
    );
    assert_eq!(d.loc.pos.line, 36);
}

#[test]
fn a_removal_needs_a_last_release_or_never_read() {
    let d = one(&OPTIONS.replace("      never_read: true\n", ""));
    assert!(d.message.contains("needs `last`"), "{d}");
}

#[test]
fn an_unknown_last_release_is_named_with_the_known_ones() {
    let d = one(&OPTIONS.replace("      last: \"1.0\"\n", "      last: \"1.5\"\n"));
    assert!(d.message.contains("unknown release id `1.5`"), "{d}");
    assert!(d
        .expected
        .as_deref()
        .unwrap()
        .contains("`1.0`, `2.0`, `3.0`"));
    assert_eq!(d.loc.file.to_str(), Some("spec/options/run.yaml"));
    assert_eq!(d.loc.pos.line, 25);
}

#[test]
fn removal_after_the_newest_release_is_refused() {
    let d = one(&OPTIONS.replace(
        "      - estimator: tune\n        last: \"2.0\"",
        "      - estimator: tune\n        last: \"3.0\"",
    ));
    assert!(
        d.message.contains("the newest release the spec knows"),
        "{d}"
    );
    assert!(d.hint.as_deref().unwrap().contains("deprecated"));
}

#[test]
fn an_unknown_replacement_gets_a_did_you_mean() {
    let d = one(&OPTIONS.replace("replacement: run.mode", "replacement: run.mdoe"));
    assert!(d.message.contains("replacement `run.mdoe`"), "{d}");
    assert_eq!(d.hint.as_deref(), Some("did you mean `run.mode`?"));
}

#[test]
fn a_mapped_value_must_be_a_value_of_the_replacement() {
    let d = one(&OPTIONS.replace("{ from: true, to: fast }", "{ from: true, to: quick }"));
    assert!(
        d.message
            .contains("\"quick\" is not a value of the replacement `run.mode`"),
        "{d}"
    );
    assert_eq!(d.loc.pos.line, 28);
}

#[test]
fn a_mapped_value_must_fit_the_old_option() {
    let d = one(&OPTIONS.replace("{ from: true, to: fast }", "{ from: 1, to: fast }"));
    assert!(
        d.message.contains("1 is not a value of option `old_key`"),
        "{d}"
    );
}

#[test]
fn an_end_to_available_and_a_removal_are_one_fact_twice() {
    let d = one(&OPTIONS.replace(
        "    session: { name: old_key, accessor: b }\n",
        "    session: { name: old_key, accessor: b }\n    available: \"..=2.0\"\n",
    ));
    assert!(
        d.message
            .contains("both an end to `available` and `removed`"),
        "{d}"
    );
}

#[test]
fn an_option_is_removed_as_a_whole_once() {
    let d = one(&OPTIONS.replace(
        "      - estimator: tune\n",
        "      - last: \"1.0\"\n        note: { en: Once., zh: 一次。 }\n      - estimator: tune\n",
    ));
    assert!(d.message.contains("must come last"), "{d}");
}

#[test]
fn a_retired_spelling_cannot_be_live_elsewhere() {
    let d = one(&OPTIONS.replace("      - estimator: tune\n", "      - estimator: mode\n"));
    assert!(
        d.message.contains("retired keyword `RunConfig(mode=...)`"),
        "{d}"
    );
    assert!(d
        .hint
        .as_deref()
        .unwrap()
        .contains("first at spec/options/run.yaml"));
}

#[test]
fn a_retired_spelling_cannot_also_be_live_on_its_option() {
    let d = one(&OPTIONS.replace(
        "    session: { name: tune, accessor: s }\n",
        "    session: { name: tune, accessor: s }\n    estimator: tune\n",
    ));
    assert!(d.message.contains("both removed and live"), "{d}");
}

#[test]
fn a_removed_value_is_replaced_by_another_value_of_its_option() {
    let d = one(&OPTIONS.replace("replacement: fast", "replacement: medium"));
    assert!(
        d.message
            .contains("replacement \"medium\" of value \"slow\""),
        "{d}"
    );
}

#[test]
fn a_deprecation_maps_values_onto_its_replacement() {
    let with_dep = OPTIONS.replace(
        "    doc: { en: Tune., zh: 调优。 }\n",
        "    deprecated:\n      since: \"2.0\"\n      replacement: run.mode\n      values:\n        - { from: x, to: fast }\n      note: { en: Use mode., zh: 请用 mode。 }\n      source: [upstream@abc:doc.md]\n    doc: { en: Tune., zh: 调优。 }\n",
    );
    let spec = load(&with_dep);
    let dep = spec
        .option_by_path("run.tune")
        .unwrap()
        .deprecated
        .clone()
        .unwrap();
    assert_eq!(dep.values.len(), 1);
    assert_eq!(dep.source, ["upstream@abc:doc.md"]);
    let d = one(&with_dep.replace("{ from: x, to: fast }", "{ from: x, to: quick }"));
    assert!(
        d.message
            .contains("\"quick\" is not a value of the replacement"),
        "{d}"
    );
}

#[test]
fn before_ends_availability_at_that_release() {
    let spec = load(&OPTIONS.replace("      last: \"1.0\"\n", "      before: \"2.0\"\n"));
    assert_eq!(available_in(&spec, "run.old_key"), ["1.0"]);
    let spec = load(&OPTIONS.replace("      last: \"1.0\"\n", "      before: \"1.0\"\n"));
    assert!(available_in(&spec, "run.old_key").is_empty());
    assert_eq!(
        spec.option_by_path("run.old_key")
            .unwrap()
            .removal()
            .unwrap()
            .gone,
        cann_spec::Gone::Before("1.0".into())
    );
}

#[test]
fn before_may_name_the_newest_release() {
    // Gone by the newest release: nothing claims a release after it.
    let spec = load(&OPTIONS.replace(
        "      - estimator: tune\n        last: \"2.0\"",
        "      - estimator: tune\n        before: \"3.0\"",
    ));
    assert!(
        spec.option_by_path("run.tune").unwrap().removed[0].gone
            == cann_spec::Gone::Before("3.0".into())
    );
}

/// `old_key`'s removal with `empty_ignored`: the sources showing an empty value does no harm.
fn with_empty_ignored(sources: &str) -> String {
    OPTIONS.replace(
        "      source: [upstream@abc:file.cc]\n",
        &format!("      source: [upstream@abc:file.cc]\n      empty_ignored: {sources}\n"),
    )
}

#[test]
fn an_empty_value_accepted_upstream_is_recorded_with_its_sources() {
    let spec = load(&with_empty_ignored("{ source: [engine@def:session.cc] }"));
    let r = spec
        .option_by_path("run.old_key")
        .unwrap()
        .removal()
        .unwrap();
    assert_eq!(
        r.empty_ignored.as_deref(),
        Some(&["engine@def:session.cc".to_string()][..])
    );
    let plain = load(OPTIONS);
    assert!(plain
        .option_by_path("run.old_key")
        .unwrap()
        .removal()
        .unwrap()
        .empty_ignored
        .is_none());
}

#[test]
fn empty_ignored_without_a_source_is_refused() {
    let d = one(&with_empty_ignored("{}"));
    assert!(d.message.contains("needs a `source`"), "{d}");
}
