cann_macros::include_spec!("../../../spec", crate_path = crate);

fn main() {}
