// The fixture names a product and a release that the spec does not declare.
cann_macros::include_spec!("../../fixtures/bad-specs/dangling-product");

fn main() {}
