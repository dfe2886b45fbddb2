// A deprecation from a release the spec does not know: the error is on `deprecated`.
cann_macros::include_spec!("../../fixtures/bad-specs/deprecated-since-unknown-release");

fn main() {}
