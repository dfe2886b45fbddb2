// The default lies outside the range: the error is on the `default` line.
cann_macros::include_spec!("../../fixtures/bad-specs/default-outside-range");

fn main() {}
