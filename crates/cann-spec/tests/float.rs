//! The `float` type: fractional values with whole-number bounds, `above` for a bound the
//! range leaves out (RunConfig's `keep_hours > 0`), and what the loader refuses.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_spec::{load_files, Diagnostic, Float, Literal, OptionType};

const RELEASES: &str = "\
releases:
  - id: \"1.0\"
    products: [p-one]
";

fn options(option: &str) -> String {
    format!(
        "\
config:
  name: RunConfig
  root_key: run
  products: {{ p-one: \"..\" }}
  doc: {{ en: Run., zh: 运行。 }}
options:
  - name: hours
{option}    doc: {{ en: Hours., zh: 小时。 }}
"
    )
}

fn load(option: &str) -> Result<cann_spec::Spec, Vec<Diagnostic>> {
    let files = common::spec_files(common::ONE_PRODUCT, RELEASES, &options(option));
    load_files(&files).map_err(|e| e.0)
}

fn one_error(option: &str) -> Diagnostic {
    let errs = load(option).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:#?}");
    errs.into_iter().next().unwrap()
}

#[test]
fn a_float_with_a_fractional_default_and_a_bound_left_out() {
    let spec =
        load("    type: float\n    default: 0.5\n    range: { above: 0, max: 24 }\n").unwrap();
    let o = &spec.options[0];
    assert_eq!(o.ty, OptionType::Float);
    assert_eq!(o.default, Some(Literal::Float(Float(0.5))));
    let r = o.range.unwrap();
    assert_eq!(
        (r.min, r.max, r.min_exclusive, r.real),
        (Some(0), Some(24), true, true)
    );
    assert!(!r.contains_real(0.0) && r.contains_real(0.001) && r.contains_real(24.0));
    assert!(!r.contains_real(24.5));
}

#[test]
fn a_default_on_the_left_out_bound_is_outside() {
    let d = one_error("    type: float\n    default: 0.0\n    range: { above: 0 }\n");
    assert!(
        d.message
            .contains("default 0.0 of option `hours` is outside its range"),
        "{d}"
    );
    assert_eq!(d.expected.as_deref(), Some("a value > 0"));
}

#[test]
fn an_integer_default_of_a_float_is_written_as_a_float() {
    let d = one_error("    type: float\n    default: 2\n");
    assert!(
        d.message
            .contains("default 2 of option `hours` does not fit its type float"),
        "{d}"
    );
}

#[test]
fn above_is_for_floats_and_excludes_min() {
    let d = one_error("    type: int\n    range: { above: 0 }\n");
    assert!(
        d.message
            .contains("`above` applies only to `float` options"),
        "{d}"
    );
    assert_eq!(d.hint.as_deref(), Some("write `min: 1`"));
    let d = one_error("    type: float\n    range: { min: 0, above: 0 }\n");
    assert!(d.message.contains("both `min` and `above`"), "{d}");
    let d = one_error("    type: float\n    range: { above: 3, max: 3 }\n");
    assert!(
        d.message.contains("nothing is above 3 and at most 3"),
        "{d}"
    );
    let d = one_error("    type: string\n    range: { min: 0 }\n");
    assert!(
        d.message.contains("only to `int` and `float` options"),
        "{d}"
    );
}

#[test]
fn a_non_finite_default_is_refused_at_its_line() {
    let d = one_error("    type: float\n    default: .inf\n");
    assert_eq!(d.loc.pos.line, 9);
    assert!(d.message.contains("non-finite"), "{d}");
}
