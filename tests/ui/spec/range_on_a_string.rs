// A string option with a range: the error is on the `range` line.
cann_macros::include_spec!("../../fixtures/bad-specs/range-on-a-string");

fn main() {}
