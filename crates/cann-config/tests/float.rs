//! A float option end to end: `keep_checkpoint_every_n_hours` takes fractional hours, as
//! tf.estimator.RunConfig does (it checks only `> 0`, run_config.py:293 at
//! tensorflow/estimator@v1.15.0), from the YAML text through validation to every emitter.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::emit::{emit, Format};
use cann_config::meta::{Lang, TypeMeta};
use cann_config::{parse_config_in, validate_into, Release, Report, OPTIONS};
use common::*;

const PATH: &str = "npu_run_config.keep_checkpoint_every_n_hours";

fn yaml(value: &str) -> String {
    format!("npu_run_config:\n  keep_checkpoint_every_n_hours: {value}\n")
}

fn findings(value: &str) -> Vec<cann_config::Diagnostic> {
    check(&yaml(value), "atlas-a2-training", Release::LATEST.id())
}

#[test]
fn the_option_is_a_float_with_its_bound_left_out() {
    let o = OPTIONS.iter().find(|o| o.path == PATH).unwrap();
    assert_eq!(o.ty, TypeMeta::Float);
    let r = o.range_in(Release::LATEST).unwrap();
    assert_eq!(
        (r.min, r.max, r.min_exclusive, r.real),
        (Some(0), None, true, true)
    );
}

#[test]
fn fractional_hours_are_accepted_and_emitted_as_written() {
    for v in ["0.5", "2", "0.25", "10000.0", "1e-3"] {
        let ds = findings(v);
        assert!(errors(&ds).is_empty(), "{v}: {ds:?}");
    }
    let f = parse(&yaml("0.5"));
    assert_eq!(
        f.config
            .npu_run_config
            .as_ref()
            .unwrap()
            .keep_checkpoint_every_n_hours,
        Some(0.5)
    );
    let py = emit(&f.config, Format::Estimator).unwrap();
    assert!(py.contains("keep_checkpoint_every_n_hours=0.5,"), "{py}");
    let json = emit(&f.config, Format::Json).unwrap();
    assert!(
        json.contains("\"keep_checkpoint_every_n_hours\": 0.5"),
        "{json}"
    );
    // A whole number of hours stays a float in Python, and the JSON reads back the same.
    let f = parse(&yaml("2"));
    let py = emit(&f.config, Format::Estimator).unwrap();
    assert!(py.contains("keep_checkpoint_every_n_hours=2.0,"), "{py}");
    let back = parse(&emit(&f.config, Format::Json).unwrap());
    assert_eq!(back.config, f.config);
}

#[test]
fn zero_and_below_are_out_of_range_in_words_of_numbers() {
    for v in ["0", "0.0", "-0.5"] {
        let ds = findings(v);
        let e = errors(&ds);
        assert_eq!(e.len(), 1, "{v}: {ds:?}");
        assert_eq!(e[0].option, PATH);
        assert!(e[0].message.contains("out of range"), "{}", e[0].message);
        let expected = e[0].expected.as_deref().unwrap_or_default();
        assert!(expected.contains("a number above 0 h"), "{expected}");
    }
    let f = parse_config_in(&yaml("0"), Lang::Zh).unwrap();
    let t = target("atlas-a2-training", Release::LATEST.id());
    let mut r = Report::new(Lang::Zh);
    validate_into(&f.config, t, &mut r);
    let d = r.diagnostics.iter().find(|d| d.option == PATH).unwrap();
    assert!(d.message.contains("超出"), "{}", d.message);
    assert!(
        d.expected
            .as_deref()
            .unwrap_or_default()
            .contains("大于 0 小时 的数"),
        "{:?}",
        d.expected
    );
}

#[test]
fn text_is_refused_with_what_a_number_looks_like() {
    let ds = findings("abc");
    let e = errors(&ds);
    assert_eq!(e.len(), 1, "{ds:?}");
    assert_eq!(e[0].message, "`keep_checkpoint_every_n_hours` must be a number (such as 0.5 or 2), found a string \"abc\"");
    assert_eq!(e[0].line, Some(2));
    assert_eq!(e[0].hint, None);
    // A quoted number is one, unquoted.
    let ds = findings("\"0.5\"");
    let e = errors(&ds);
    assert_eq!(e[0].hint.as_deref(), Some("write 0.5 without quotes"));
    assert_eq!(errors(&findings("true")).len(), 1);
    // NaN and infinity are not hours: the reader refuses them with their place.
    for v in [".nan", ".inf"] {
        let e = cann_config::parse_config(&yaml(v)).unwrap_err();
        assert_eq!(e.pos.map(|p| p.line), Some(2), "{v}");
    }
    let zh = parse_config_in(&yaml("abc"), Lang::Zh).unwrap();
    let m = &zh.diagnostics[0].message;
    assert!(m.contains("应为数值"), "{m}");
}

/// Awkward floats: the shortest digits, Python's exponent switch at 1e16 and 1e-4, the
/// extremes.
const AWKWARD: [f64; 10] = [
    0.1 + 0.2,
    25_235.977_723_489_334,
    1e16,
    9_999_999_999_999_998.0,
    1e-4,
    1e-5,
    123_456_789.125,
    -0.5,
    5e-324,
    f64::MAX,
];

#[test]
fn a_float_is_written_as_python_repr_writes_it_and_reads_back_the_same() {
    use cann_config::meta::Float;
    let text = |x: f64| Float::finite(x).unwrap().to_string();
    assert_eq!(text(0.5), "0.5");
    assert_eq!(text(10000.0), "10000.0");
    assert_eq!(text(1e16), "1e+16");
    assert_eq!(text(1e-5), "1e-05");
    assert_eq!(text(0.1 + 0.2), "0.30000000000000004");
    for x in AWKWARD {
        let t = text(x);
        assert_eq!(t.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{t}");
        assert!(t.contains(['.', 'e']), "{t} would read as an integer");
    }
    // The same texts, as real Python writes them.
    let Some(py) = common::python::python("float_repr") else {
        return;
    };
    let texts: Vec<String> = AWKWARD.iter().map(|x| text(*x)).collect();
    let input = serde_json::to_string(&texts).unwrap();
    let out = common::python::run(&py, "float_repr.py", &input);
    assert_eq!(out.trim(), "[]", "written otherwise by Python: {out}");
}
