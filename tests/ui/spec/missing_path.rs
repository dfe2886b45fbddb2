cann_macros::include_spec!();

fn main() {}
