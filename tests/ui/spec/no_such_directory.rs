cann_macros::include_spec!("../../fixtures/no-such-spec");

fn main() {}
