//! Compile errors of the proc macros, pinned. Update with `TRYBUILD=overwrite` and read the diff.
//! The messages depend on the compiler, pinned by rust-toolchain.toml.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/spec/*.rs");
    t.compile_fail("ui/derive/*.rs");
}
