#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]
//! Helpers shared by the integration tests of cann-config.

use cann_config::{parse_config, validate, ConfigFile, Diagnostic, Product, Release, Target};

pub fn parse(yaml: &str) -> ConfigFile {
    parse_config(yaml).unwrap_or_else(|e| panic!("{e:?}"))
}

pub fn target(product: &str, release: &str) -> Target {
    Target {
        product: product.parse::<Product>().unwrap(),
        release: release.parse::<Release>().unwrap(),
    }
}

/// Parse findings and validation findings together.
pub fn check(yaml: &str, product: &str, release: &str) -> Vec<Diagnostic> {
    let f = parse(yaml);
    let mut all = f.diagnostics.clone();
    all.extend(validate(&f.config, target(product, release)).diagnostics);
    all
}

pub fn errors(ds: &[Diagnostic]) -> Vec<&Diagnostic> {
    ds.iter()
        .filter(|d| d.severity == cann_config::meta::Severity::Error)
        .collect()
}

pub fn fired(ds: &[Diagnostic], rule: &str) -> bool {
    ds.iter().any(|d| d.rule == Some(rule))
}
