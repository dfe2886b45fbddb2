cann_macros::include_spec!(spec_dir);

fn main() {}
