// The default is not one of the enum's values: the error is on the `default` line.
cann_macros::include_spec!("../../fixtures/bad-specs/default-not-a-value");

fn main() {}
