//! The facts an audit against upstream found wrong, each pinned by a test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::meta::{Lit, Severity};
use cann_config::{Product, Release, OPTIONS};

fn option(path: &str) -> &'static cann_config::meta::OptionMeta {
    OPTIONS.iter().find(|o| o.path == path).unwrap()
}

#[test]
fn hccl_timeout_is_narrower_on_atlas_training_and_defaults_to_1836() {
    let o = option("npu_run_config.hccl_timeout");
    for p in Product::ALL {
        assert_eq!(
            o.default_on(*p, Release::LATEST),
            Some(Lit::Int(1836)),
            "{p}"
        );
    }
    let training = o.range_on(Product::AtlasTraining, Release::LATEST).unwrap();
    assert_eq!((training.min, training.max), (Some(1), Some(17340)));
    let a2 = o
        .range_on(Product::AtlasA2Training, Release::LATEST)
        .unwrap();
    assert_eq!((a2.min, a2.max), (Some(0), Some(2147483647)));
    // 0 (never time out) is fine on A2 but outside (0, 17340] on Atlas training.
    let zero = "npu_run_config:\n  hccl_timeout: 0\n";
    assert!(common::errors(&common::check(zero, "atlas-a2-training", "9.0.0")).is_empty());
    let errors = common::check(zero, "atlas-training", "9.0.0");
    let errors = common::errors(&errors);
    assert_eq!(errors.len(), 1);
    let expected = errors[0].expected.as_deref().unwrap_or_default();
    assert!(expected.contains("17340"), "{expected}");
    let over = "npu_run_config:\n  hccl_timeout: 17341\n";
    assert_eq!(
        common::errors(&common::check(over, "atlas-training", "9.0.0")).len(),
        1
    );
    assert!(common::errors(&common::check(over, "atlas-a3-training", "9.0.0")).is_empty());
}

#[test]
fn job_and_task_index_have_the_adapters_defaults() {
    assert_eq!(
        option("npu_run_config.job").default,
        Some(Lit::Str("localhost"))
    );
    assert_eq!(
        option("npu_run_config.task_index").default,
        Some(Lit::Int(0))
    );
}

#[test]
fn options_only_npu_estimator_writes_cite_it_and_not_npu_attrs() {
    for path in [
        "npu_run_config.enable_reduce_precision",
        "npu_run_config.min_group_size",
    ] {
        let o = option(path);
        assert!(
            o.source.iter().any(|s| s.contains("npu_estimator.py")),
            "{path}: {:?}",
            o.source
        );
        assert!(
            !o.source.iter().any(|s| s.contains("npu_attrs.cc")),
            "{path}"
        );
        assert!(o.doc.en.contains("no C++"), "{path}: {}", o.doc.en);
    }
}

#[test]
fn hif8_values_warn_that_upstream_does_not_support_them_yet() {
    for v in ["cube_hif8", "mixed_hif8"] {
        let yaml = format!("npu_run_config:\n  precision_mode_v2: {v}\n");
        let ds = common::check(&yaml, "atlas-350", "9.0.0");
        assert!(common::errors(&ds).is_empty(), "{ds:#?}");
        let w: Vec<_> = ds
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .collect();
        assert_eq!(w.len(), 1, "{v}: {ds:#?}");
        assert!(
            w[0].message
                .contains("not supported in the current version"),
            "{}",
            w[0].message
        );
    }
    let ds = common::check(
        "npu_run_config:\n  precision_mode_v2: mixed_float16\n",
        "atlas-350",
        "9.0.0",
    );
    assert!(ds.is_empty(), "{ds:#?}");
}

/// allow_mix_precision is no legacy spelling: upstream documents it beside
/// allow_mix_precision_fp16 with the same effect, and older adapters know only it.
#[test]
fn allow_mix_precision_is_a_value_of_its_own() {
    let f = common::parse("npu_run_config:\n  precision_mode: allow_mix_precision\n");
    assert!(f.diagnostics.is_empty(), "{:#?}", f.diagnostics);
    let session = cann_config::emit::emit(&f.config, cann_config::emit::Format::Session).unwrap();
    assert!(
        session.contains("as_bytes(\"allow_mix_precision\")"),
        "{session}"
    );
}

#[test]
fn legacy_precision_names_are_legacy_spellings() {
    let (old, new) = ("force_fp32", "cube_fp16in_fp32out");
    let f = common::parse(&format!("npu_run_config:\n  precision_mode: {old}\n"));
    assert_eq!(f.diagnostics.len(), 1, "{:#?}", f.diagnostics);
    assert!(
        f.diagnostics[0].message.contains("legacy spelling"),
        "{}",
        f.diagnostics[0].message
    );
    let session = cann_config::emit::emit(&f.config, cann_config::emit::Format::Session).unwrap();
    assert!(
        session.contains(&format!("as_bytes(\"{new}\")")),
        "{session}"
    );
}

#[test]
fn model_and_chip_names_resolve_to_product_lines() {
    let p = |s: &str| s.parse::<Product>();
    assert_eq!(p("Atlas 800T A2"), Ok(Product::AtlasA2Training));
    assert_eq!(p("atlas-900-a2-pod"), Ok(Product::AtlasA2Training));
    assert_eq!(p("ASCEND 950PR"), Ok(Product::Atlas350));
    assert_eq!(p("Atlas 800I A2"), Ok(Product::AtlasA2Inference));
    // A chip two lines use asks which one.
    let e = p("Ascend 910B").unwrap_err();
    assert_eq!(e.ambiguous, ["atlas-a2-training", "atlas-a2-inference"]);
    // A near miss suggests the id of the product line the nearest name belongs to, as
    // `--product` and `product:` are written (issue 31 item 14).
    let e = p("Atlas 800T A3").unwrap_err();
    assert_eq!(e.suggestion, Some("atlas-a3-training"));
    // Config files take them too.
    let f = common::parse("product: Atlas 800T A2\n");
    assert_eq!(f.product, Some(Product::AtlasA2Training));
}
