//! `#[derive(CannConfig)]` writes the default of the release the struct declares: the
//! fixture's `policy` defaults to 0, and to 2 from release 1.0.0 on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

fn default_impl(release: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/small");
    let spec = cann_spec::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    let src = format!(
        "#[cann(spec = \"fixtures/small\", release = \"{release}\")] \
         struct Job {{ policy: Option<Policy> }}"
    );
    let input: syn::DeriveInput = syn::parse_str(&src).expect("test struct parses");
    let c = cann_codegen::derive::container(&input).expect("container attributes");
    let tokens =
        cann_codegen::expand_derive(&spec, &input, &c, &cann_codegen::Settings::external())
            .unwrap_or_else(|e| panic!("{e}"));
    let file: syn::File = syn::parse2(tokens).expect("derive output parses");
    let text = prettyplease::unparse(&file);
    let start = text.find("fn default()").expect("a Default impl");
    let end = text[start..]
        .find("impl ")
        .map_or(text.len(), |e| start + e);
    // Compared without layout: prettyplease breaks long calls over lines.
    text[start..end].split_whitespace().collect()
}

#[test]
fn derive_uses_the_default_of_its_release() {
    let before = default_impl("1.0.RC1");
    assert!(before.contains("from_int(0i64"), "{before}");
    let after = default_impl("1.0.0");
    assert!(after.contains("from_int(2i64"), "{after}");
}
