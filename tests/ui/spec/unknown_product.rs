// Support names a product the spec does not declare: the error is on that entry.
cann_macros::include_spec!("../../fixtures/bad-specs/unknown-product");

fn main() {}
