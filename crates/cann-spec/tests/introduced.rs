//! `introduced:`: an option whose first release is not known. What the loader keeps, and
//! one test per inconsistency it refuses.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_spec::{load_files, Diagnostic, SourceFile, Spec};

const RELEASES: &str = "\
releases:
  - id: \"8.0.RC2\"
    products: [p-one]
  - id: \"8.1.RC1\"
    products: [p-one]
  - id: \"9.0.0\"
    products: [p-one]
";

/// `late` is known in 9.0.0 and known absent from 7.0.0, which the spec does not model.
const OPTIONS: &str = "\
config:
  name: RunConfig
  root_key: run
  products: { p-one: \"..\" }
  doc: { en: Run., zh: 运行。 }
options:
  - name: late
    type: bool
    session: { name: late, accessor: b }
    introduced:
      after: \"7.0.0\"
      first_recorded: \"9.0.0\"
      source: [\"repo@tag-7.0.0: lacks it\", \"repo@tag-9.0.0: has it\"]
    doc: { en: Late., zh: 晚。 }
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

#[test]
fn the_fact_is_kept_with_its_sources_and_availability_stays_the_outer_bound() {
    let spec = load(OPTIONS);
    let o = spec.option_by_path("run.late").unwrap();
    let i = o.introduced.as_ref().unwrap();
    assert_eq!(i.after, "7.0.0");
    assert_eq!(i.first_recorded, "9.0.0");
    assert_eq!(i.source.len(), 2);
    assert!(o.available.is_all());
}

#[test]
fn an_unknown_first_recorded_release_is_refused_with_a_suggestion() {
    let d = one(&OPTIONS.replace("first_recorded: \"9.0.0\"", "first_recorded: \"9.0.1\""));
    assert!(d.message.contains("unknown release id `9.0.1`"), "{d}");
    assert_eq!(d.loc.pos.line, 11, "{d}");
}

#[test]
fn after_must_be_a_release_id_older_than_first_recorded() {
    let d = one(&OPTIONS.replace("after: \"7.0.0\"", "after: \"seven\""));
    assert!(d.message.contains("not a CANN release id"), "{d}");
    let d = one(&OPTIONS.replace("after: \"7.0.0\"", "after: \"9.0.0\""));
    assert!(d.message.contains("must be older"), "{d}");
}

#[test]
fn available_must_include_first_recorded_and_start_before_it() {
    let d = one(&OPTIONS.replace(
        "    introduced:",
        "    available: \"..=8.1.RC1\"\n    introduced:",
    ));
    assert!(d.message.contains("not available in 9.0.0"), "{d}");
    let d = one(&OPTIONS.replace(
        "    introduced:",
        "    available: \"9.0.0..\"\n    introduced:",
    ));
    assert!(d.message.contains("nothing is unknown"), "{d}");
}

#[test]
fn a_modelled_release_known_to_lack_it_cannot_be_inside_available() {
    let d = one(&OPTIONS.replace("after: \"7.0.0\"", "after: \"8.0.RC2\""));
    assert!(
        d.message
            .contains("includes 8.0.RC2, but `after` says 8.0.RC2 lacks it"),
        "{d}"
    );
    // Started after it, the same fact is consistent.
    let spec = load(
        &OPTIONS
            .replace("after: \"7.0.0\"", "after: \"8.0.RC2\"")
            .replace(
                "    introduced:",
                "    available: \"8.1.RC1..\"\n    introduced:",
            ),
    );
    assert!(spec
        .option_by_path("run.late")
        .unwrap()
        .introduced
        .is_some());
}

#[test]
fn a_claim_without_a_source_is_refused() {
    let d = one(&OPTIONS.replace(
        "      source: [\"repo@tag-7.0.0: lacks it\", \"repo@tag-9.0.0: has it\"]\n",
        "",
    ));
    assert!(d.message.contains("needs a `source`"), "{d}");
}
