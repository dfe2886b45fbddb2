//! The fixtures the loader's tests share: one product, and the three files every spec has.
// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use cann_spec::SourceFile;

/// `products.yaml` with the single product `p-one`.
pub const ONE_PRODUCT: &str = "\
products:
  - id: p-one
    name: { en: One, zh: 一 }
";

/// The files of a spec: its products, its releases and one options file, at the paths the
/// findings name (`spec/products.yaml`, `spec/releases.yaml`, `spec/options/run.yaml`).
pub fn spec_files(products: &str, releases: &str, options: &str) -> Vec<SourceFile> {
    [
        ("spec/products.yaml", products),
        ("spec/releases.yaml", releases),
        ("spec/options/run.yaml", options),
    ]
    .into_iter()
    .map(|(path, text)| SourceFile {
        path: path.into(),
        text: text.into(),
    })
    .collect()
}
