#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.9.9")]
struct Options {
    static_memory_policy: Option<cann_config::StaticMemoryPolicy>,
}

fn main() {}
