//! Compile errors of the proc macros and the message catalog, pinned. Update with `TRYBUILD=overwrite` and read the diff.
//! The messages depend on the compiler, so the cases run only on the toolchain the
//! `.stderr` files were made with.

/// The compiler the `.stderr` files were recorded with.
const PINNED: &str = "rustc 1.95.";

#[test]
fn ui() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !version.starts_with(PINNED) {
        eprintln!("skipped: UI cases are recorded with {PINNED}x, this is {version}");
        return;
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/spec/*.rs");
    t.compile_fail("ui/derive/*.rs");
    t.compile_fail("ui/i18n/*.rs");
}

/// The codegen golden of the bundled spec (`cargo xtask check` compares it) also compiles:
/// not a message, so it runs on any toolchain.
#[test]
fn golden_compiles() {
    trybuild::TestCases::new().pass("ui/golden/*.rs");
}
