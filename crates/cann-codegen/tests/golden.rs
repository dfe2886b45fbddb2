//! The expansion of a small fixture spec, pinned for review.
//! Update with `cargo insta review` (or `INSTA_UPDATE=always`) and read the diff.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

fn expand(settings: &cann_codegen::Settings) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/small");
    let spec = cann_spec::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    let tokens = cann_codegen::expand_spec(&spec, settings);
    let file: syn::File = syn::parse2(tokens).expect("generated code parses as a Rust file");
    prettyplease::unparse(&file)
}

#[test]
fn small_spec_expansion() {
    insta::assert_snapshot!(expand(&cann_codegen::Settings::external()));
}

#[test]
fn expansion_is_deterministic() {
    let s = cann_codegen::Settings::external();
    assert_eq!(expand(&s), expand(&s));
}

#[test]
fn hygiene_paths_follow_the_settings() {
    let inside = expand(&cann_codegen::Settings::in_support_crate());
    assert!(!inside.contains("::cann_config"));
    let outside = expand(&cann_codegen::Settings::external());
    assert!(outside.contains("::cann_config::meta::OptionMeta"));
    // Outside, the support crate's own `Product` and `Release`: its tables and functions
    // are typed by them.
    assert!(outside.contains("pub use ::cann_config::{Product, Release};"));
    assert!(!outside.contains("pub enum Product"));
    assert!(inside.contains("pub enum Product"));
}
