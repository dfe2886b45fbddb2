//! `unreleased:` and `refs:` of a release: the development branches beyond the newest tag
//! are a release of their own that comes last and is never the default, and each release
//! names the upstream refs whose code it is.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_spec::{load_files, Diagnostic, SourceFile, Spec};

const OPTIONS: &str = "\
config:
  name: RunConfig
  root_key: run
  products: { p-one: \"..\" }
  doc: { en: Run., zh: 运行。 }
options:
  - name: mode
    type: string
    doc: { en: Mode., zh: 模式。 }
";

fn files(releases: &str) -> Vec<SourceFile> {
    common::spec_files(common::ONE_PRODUCT, releases, OPTIONS)
}

fn load(releases: &str) -> Spec {
    load_files(&files(releases)).unwrap_or_else(|e| panic!("{e}"))
}

fn errors(releases: &str) -> Vec<Diagnostic> {
    match load_files(&files(releases)) {
        Ok(_) => panic!("the spec should not load"),
        Err(e) => e.0,
    }
}

#[test]
fn the_newest_released_release_is_the_default_not_an_unreleased_one() {
    let spec = load(
        "\
releases:
  - id: \"1.0\"
    products: [p-one]
    refs: [up/adapter@v1.0]
  - id: next
    unreleased: true
    products: {}
    refs: [up/adapter@main, up/adapter@abc1234]
",
    );
    assert!(!spec.releases[0].unreleased);
    assert!(spec.releases[1].unreleased);
    assert_eq!(spec.newest_released().map(|r| r.id.as_str()), Some("1.0"));
    // A source names its release through the release's refs.
    let of = |s: &str| spec.release_of(s).map(|r| r.id.as_str());
    assert_eq!(of("up/adapter@v1.0:src/attrs.cc:12"), Some("1.0"));
    assert_eq!(of("up/adapter@abc1234:src/attrs.cc"), Some("next"));
    assert_eq!(of("up/adapter@v0.9:src/attrs.cc"), None);
    assert_eq!(of("seeds/001.txt"), None);
}

#[test]
fn a_released_release_after_an_unreleased_one_is_refused_at_its_line() {
    let errs = errors(
        "\
releases:
  - id: \"1.0\"
    products: [p-one]
  - id: next
    unreleased: true
    products: {}
  - id: \"2.0\"
    products: {}
",
    );
    assert_eq!(errs.len(), 1, "{errs:#?}");
    let e = &errs[0];
    assert!(
        e.message
            .contains("release 2.0 is released but follows the unreleased next"),
        "{e}"
    );
    assert_eq!(e.loc.pos.line, 7, "{e}");
    assert!(e
        .hint
        .as_deref()
        .is_some_and(|h| h.contains("unreleased releases come last")));
}

#[test]
fn a_spec_needs_a_released_release() {
    let errs = errors(
        "\
releases:
  - id: next
    unreleased: true
    products: [p-one]
",
    );
    assert!(
        errs.iter()
            .any(|e| e.message.contains("every release is marked `unreleased`")),
        "{errs:#?}"
    );
}

#[test]
fn unreleased_and_refs_are_checked_for_shape() {
    let errs = errors(
        "\
releases:
  - id: \"1.0\"
    products: [p-one]
    unreleased: \"no\"
    refs: [\"v1.0\", up/adapter@v1.0:src/attrs.cc]
",
    );
    let messages: Vec<&str> = errs.iter().map(|e| e.message.as_str()).collect();
    assert!(
        messages.contains(&"`unreleased` must be true or false, found a string"),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"`v1.0` is not a git ref"),
        "{messages:?}"
    );
    // A file is a source, not a ref.
    assert!(
        messages.contains(&"`up/adapter@v1.0:src/attrs.cc` is not a git ref"),
        "{messages:?}"
    );
    assert_eq!(errs.len(), 3, "{errs:#?}");
}

#[test]
fn an_advised_range_is_read_apart_from_an_upstream_one() {
    let options = format!(
        "{OPTIONS}{}",
        r#"  - name: timeout
    type: int
    range: { min: 0, advice: true }
    doc: { en: Timeout., zh: 超时。 }
  - name: rank
    type: int
    range: { min: 0, max: 7 }
    doc: { en: Rank., zh: 编号。 }
"#
    );
    let spec = load_files(&common::spec_files(
        common::ONE_PRODUCT,
        "releases:\n  - id: \"1.0\"\n    products: [p-one]\n",
        &options,
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let range = |n: &str| {
        spec.options
            .iter()
            .find(|o| o.name == n)
            .and_then(|o| o.range)
    };
    assert!(range("timeout").is_some_and(|r| r.advice && r.min == Some(0)));
    assert!(range("rank").is_some_and(|r| !r.advice && r.max == Some(7)));
}
