// Every field's mistake is reported, each at its own field.
#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.0.0")]
struct Options {
    aicore_nums: Option<cann_config::CoreCounts>,
    op_compiler_cache_mode: Option<String>,
    #[cann(rename = "ASCEND_MAX_OP_CACHE_SIZE")]
    budget: Option<u64>,
}

fn main() {}
