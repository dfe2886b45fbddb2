//! One test per kind of spec error: each names the file, the line and what is wrong.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_spec::{load_files, Diagnostic, SourceFile};

const PRODUCTS: &str = "\
products:
  - id: p-one
    name: { en: One, zh: 一 }
  - id: p-two
    name: { en: Two, zh: 二 }
";

const RELEASES: &str = "\
releases:
  - id: \"1.0\"
    products: [p-one, p-two]
  - id: \"2.0\"
    products: [p-one, p-two]
";

const OPTIONS: &str = "\
config:
  name: RunConfig
  root_key: run
  products: { p-one: \"..\", p-two: \"..\" }
  doc: { en: Run., zh: 运行。 }
options:
  - name: level
    type: int
    default: 1
    range: { min: 0, max: 3 }
    ge_key: ge.level
    doc: { en: Level., zh: 级别。 }
  - name: mode
    type: string-enum
    default: fast
    values:
      - { value: fast, name: fast, doc: { en: Fast., zh: 快。 } }
      - { value: slow, name: slow, doc: { en: Slow., zh: 慢。 } }
    ge_key: ge.mode
    products: { p-one: \"1.0..\" }
    doc: { en: Mode., zh: 模式。 }
";

fn files(options: &str) -> Vec<SourceFile> {
    common::spec_files(PRODUCTS, RELEASES, options)
}

fn errors(options: &str) -> Vec<Diagnostic> {
    match load_files(&files(options)) {
        Ok(_) => panic!("the spec should not load"),
        Err(e) => e.0,
    }
}

fn one(options: &str) -> Diagnostic {
    let errs = errors(options);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    errs.into_iter().next().unwrap()
}

#[test]
fn fixture_is_valid() {
    let spec = load_files(&files(OPTIONS)).unwrap();
    assert_eq!(spec.options.len(), 2);
    assert_eq!(spec.options[0].path, "run.level");
}

#[test]
fn unknown_key_names_file_line_and_valid_keys() {
    let d = one(&OPTIONS.replace("    ge_key: ge.level\n", "    ge_kye: ge.level\n"));
    assert_eq!(d.loc.file.to_str(), Some("spec/options/run.yaml"));
    assert_eq!(d.loc.pos.line, 11);
    assert_eq!(d.loc.pos.col, 5);
    assert!(d.message.contains("unknown key `ge_kye`"), "{d}");
    assert!(d.expected.as_deref().unwrap().contains("`ge_key`"));
    assert_eq!(d.hint.as_deref(), Some("did you mean `ge_key`?"));
}

#[test]
fn dangling_product_id() {
    let d = one(&OPTIONS.replace("p-one: \"1.0..\"", "p-three: \"1.0..\""));
    assert_eq!(d.loc.pos.line, 20);
    assert!(d.message.contains("unknown product id `p-three`"), "{d}");
    assert!(d.expected.as_deref().unwrap().contains("`p-one`"));
}

#[test]
fn dangling_release_id() {
    let d = one(&OPTIONS.replace("p-one: \"1.0..\"", "p-one: \"1.5..\""));
    assert_eq!(d.loc.pos.line, 20);
    assert!(d.message.contains("unknown release id `1.5`"), "{d}");
    assert!(d.expected.as_deref().unwrap().contains("`1.0`, `2.0`"));
}

#[test]
fn default_outside_range() {
    let d = one(&OPTIONS.replace("default: 1\n", "default: 7\n"));
    // The `default:` line, not the option's first.
    assert_eq!(d.loc.pos.line, 9);
    assert!(
        d.message
            .contains("default 7 of option `level` is outside its range"),
        "{d}"
    );
    assert_eq!(d.expected.as_deref(), Some("a value in [0, 3]"));
}

#[test]
fn default_not_among_values() {
    let d = one(&OPTIONS.replace("default: fast", "default: medium"));
    assert_eq!(d.loc.pos.line, 15);
    assert!(
        d.message
            .contains("default \"medium\" of option `mode` is not one of its values"),
        "{d}"
    );
}

#[test]
fn duplicate_option_name() {
    let dup = OPTIONS
        .replace("  - name: mode\n", "  - name: level\n")
        .replace("ge_key: ge.mode", "ge_key: ge.other");
    let d = one(&dup);
    assert_eq!(d.loc.pos.line, 13);
    assert!(
        d.message
            .contains("duplicate option name in RunConfig `level`"),
        "{d}"
    );
    assert!(d.hint.as_deref().unwrap().contains("run.yaml:7:5"));
}

#[test]
fn duplicate_ge_key() {
    let d = one(&OPTIONS.replace("ge_key: ge.mode", "ge_key: ge.level"));
    assert_eq!(d.loc.pos.line, 13);
    assert!(d.message.contains("duplicate ge key `ge.level`"), "{d}");
}

#[test]
fn wrong_type_of_a_value() {
    let d = one(&OPTIONS.replace("default: 1\n", "default: \"one\"\n"));
    assert!(d.message.contains("does not fit its type int"), "{d}");
}

#[test]
fn every_error_is_reported_not_just_the_first() {
    // Two reading errors in one file.
    let two_read_errors = OPTIONS
        .replace("    ge_key: ge.level\n", "    ge_kye: ge.level\n")
        .replace("    type: string-enum\n", "    type: strnig-enum\n");
    assert_eq!(errors(&two_read_errors).len(), 2);
    // Three cross-item errors in one spec.
    let three_check_errors = OPTIONS
        .replace("p-one: \"1.0..\"", "p-three: \"1.0..\"")
        .replace("default: fast", "default: medium")
        .replace("default: 1\n", "default: 9\n");
    let errs = errors(&three_check_errors);
    assert_eq!(errs.len(), 3, "{errs:#?}");
    // Sorted by place.
    assert!(errs.windows(2).all(|w| w[0].loc <= w[1].loc));
}

#[test]
fn yaml_syntax_error_has_a_position() {
    let d = one("config: [\n");
    assert_eq!(d.loc.file.to_str(), Some("spec/options/run.yaml"));
    assert!(d.loc.pos.line >= 1);
    assert!(d.message.starts_with("YAML syntax error"), "{d}");
}

#[test]
fn empty_release_range_is_rejected() {
    let d = one(&OPTIONS.replace("p-one: \"1.0..\"", "p-one: \"2.0..=1.0\""));
    assert!(d.message.contains("is empty"), "{d}");
    assert_eq!(d.loc.pos.line, 20);
}

#[test]
fn half_open_range_is_refused_with_the_inclusive_form() {
    let d = one(&OPTIONS.replace("p-one: \"1.0..\"", "p-one: \"1.0..2.0\""));
    assert!(d.message.contains("ambiguous"), "{d}");
    assert!(d.hint.as_deref().unwrap().contains("1.0..=LAST"), "{d}");
    assert_eq!((d.loc.pos.line, d.loc.pos.col), (20, 24));
    // Both ends included: 1.0..=1.0 is the first release alone.
    let spec = load_files(&files(
        &OPTIONS.replace("p-one: \"1.0..\"", "p-one: \"1.0..=1.0\""),
    ))
    .unwrap();
    let r = &spec.options[1].products[0].releases;
    assert!(r.contains_index(0, |id| spec.release_index(id)));
    assert!(!r.contains_index(1, |id| spec.release_index(id)));
}

#[test]
fn a_class_must_name_its_products() {
    let d = one(&OPTIONS.replace("  products: { p-one: \"..\", p-two: \"..\" }\n", ""));
    assert!(
        d.message.contains("missing the required key `products`"),
        "{d}"
    );
    assert_eq!(d.loc.pos.line, 2);
}

fn with_releases(releases: &str) -> Result<cann_spec::Spec, Vec<Diagnostic>> {
    let mut fs = files(OPTIONS);
    fs[1].text = releases.into();
    load_files(&fs).map_err(|e| e.0)
}

#[test]
fn a_release_is_the_previous_one_plus_or_minus_products() {
    let spec = with_releases(
        "releases:\n  - id: \"1.0\"\n    products: [p-two]\n  - id: \"2.0\"\n    products: { add: [p-one] }\n  - id: \"3.0\"\n    products: { remove: [p-two] }\n  - id: \"4.0\"\n    products: {}\n",
    )
    .unwrap();
    let ps: Vec<&[String]> = spec
        .releases
        .iter()
        .map(|r| r.products.as_slice())
        .collect();
    // Listed in products.yaml order, however they were written.
    assert_eq!(ps[1], ["p-one", "p-two"]);
    assert_eq!(ps[2], ["p-one"]);
    assert_eq!(ps[3], ["p-one"]);
}

#[test]
fn relative_release_products_are_checked() {
    let errs = with_releases(
        "releases:\n  - id: \"1.0\"\n    products: { add: [p-one] }\n  - id: \"2.0\"\n    products: { add: [p-one], remove: [p-two] }\n",
    )
    .unwrap_err();
    let msgs: Vec<(u32, &str)> = errs
        .iter()
        .map(|d| (d.loc.pos.line, d.message.as_str()))
        .collect();
    assert_eq!(msgs.len(), 2, "{errs:#?}");
    assert!(msgs[0].1.contains("first release"), "{msgs:?}");
    assert_eq!(msgs[0].0, 3);
    assert!(
        msgs[1].1.contains("`p-two` is not a product of 1.0"),
        "{msgs:?}"
    );
    assert_eq!(msgs[1].0, 5);
    let errs = with_releases(
        "releases:\n  - id: \"1.0\"\n    products: [p-one]\n  - id: \"2.0\"\n    products: { add: [p-one, p-nine] }\n",
    )
    .unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0]
        .message
        .contains("`p-one` is already a product of 1.0"));
    let errs = with_releases(
        "releases:\n  - id: \"1.0\"\n    products: [p-one]\n  - id: \"2.0\"\n    products: { add: [p-nine] }\n",
    )
    .unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].message.contains("unknown product id `p-nine`"));
    assert_eq!(errs[0].loc.pos.line, 5);
}

#[test]
fn rule_naming_an_unknown_option() {
    let mut fs = files(OPTIONS);
    fs.push(SourceFile {
        path: "spec/rules.yaml".into(),
        text: "rules:\n  - id: r\n    severity: warning\n    when:\n      - { option: run.levle, equals: 1 }\n    message: { en: M., zh: 消息。 }\n".into(),
    });
    let errs = load_files(&fs).unwrap_err().0;
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].message.contains("unknown option `run.levle`"));
    assert_eq!(errs[0].hint.as_deref(), Some("did you mean `run.level`?"));
    assert_eq!(errs[0].loc.pos.line, 5);
}

#[test]
fn bundled_spec_loads_from_disk() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let spec = cann_spec::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(spec
        .option_by_path("npu_run_config.memory_config.static_memory_policy")
        .is_some());
    assert!(spec.releases.iter().any(|r| r.id == "9.0.0"));
}

fn errors_with_products(products: &str) -> Vec<Diagnostic> {
    let mut f = files(OPTIONS);
    f[0].text = products.into();
    match load_files(&f) {
        Ok(_) => panic!("the spec should not load"),
        Err(e) => e.0,
    }
}

#[test]
fn an_alias_that_reads_as_another_id() {
    let errs = errors_with_products(&PRODUCTS.replace(
        "    name: { en: Two, zh: 二 }\n",
        "    name: { en: Two, zh: 二 }\n    aliases:\n      - { name: \"P One\", source: \"x.md\" }\n",
    ));
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(
        errs[0].message.contains("reads as the product id `p-one`"),
        "{errs:#?}"
    );
    assert_eq!(errs[0].loc.pos.line, 7);
}

#[test]
fn an_alias_without_a_source() {
    let errs = errors_with_products(&PRODUCTS.replace(
        "    name: { en: Two, zh: 二 }\n",
        "    name: { en: Two, zh: 二 }\n    aliases:\n      - { name: \"Card 2\" }\n",
    ));
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert!(errs[0].message.contains("needs a `source`"), "{errs:#?}");
    assert_eq!(errs[0].loc.pos.line, 7);
}

#[test]
fn a_by_product_entry_names_known_products_and_keeps_its_default_in_range() {
    let errs = errors(&OPTIONS.replace(
        "    range: { min: 0, max: 3 }\n",
        "    range: { min: 0, max: 3 }\n    by_product:\n      - { for: [p-three], range: { min: 2, max: 3 } }\n",
    ));
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert!(
        errs.iter()
            .any(|d| d.message.contains("unknown product id `p-three`")),
        "{errs:#?}"
    );
    // default 1 is outside the product's 2..=3.
    assert!(
        errs.iter()
            .any(|d| d.message.contains("default 1") && d.loc.pos.line == 12),
        "{errs:#?}"
    );
}
