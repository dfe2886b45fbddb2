#[derive(cann_macros::CannConfig)]
struct Options {
    static_memory_policy: Option<cann_config::StaticMemoryPolicy>,
}

fn main() {}
