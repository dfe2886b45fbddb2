#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.0.0")]
struct Options {
    static_memory_polcy: Option<cann_config::StaticMemoryPolicy>,
}

fn main() {}
