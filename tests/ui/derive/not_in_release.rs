// memory_optimization_policy arrived in 9.0.0.
#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "8.3.RC1")]
struct Options {
    memory_optimization_policy: Option<cann_config::MemoryOptimizationPolicy>,
}

fn main() {}
