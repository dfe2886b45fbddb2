#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]
//! Helpers shared by the integration tests of cann-config.

pub mod gen;
pub mod python;

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

/// Every config file under `examples/` and `tests/fixtures/valid/` that checks clean.
pub fn example_configs() -> Vec<(String, cann_config::Config)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["examples", "tests/fixtures/valid"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "json"))
            .collect();
        files.sort();
        for p in files {
            let text = std::fs::read_to_string(&p).unwrap();
            let f = parse(&text);
            let target = cann_config::Target {
                product: f.product.unwrap_or(cann_config::Product::ALL[0]),
                release: f.release.unwrap_or(cann_config::Release::LATEST),
            };
            let clean = f
                .diagnostics
                .iter()
                .chain(&cann_config::validate(&f.config, target).diagnostics)
                .all(|d| d.severity != cann_config::meta::Severity::Error);
            if clean {
                out.push((
                    format!("{dir}/{}", p.file_name().unwrap().display()),
                    f.config,
                ));
            }
        }
    }
    out
}
