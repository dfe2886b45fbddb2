// The codegen golden of the bundled spec must compile as a downstream crate's code: the
// pinned text is what `include_spec!` gives, and it is valid Rust against cann-config.
include!("../../../crates/cann-codegen/tests/golden/bundled.rs");

fn main() {}
