#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.0.0")]
struct Options {
    oo_constant_folding: bool,
}

fn main() {}
