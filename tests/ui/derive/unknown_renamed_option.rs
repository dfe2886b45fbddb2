#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.0.0")]
struct Options {
    #[cann(rename = "atomic_clean_polcy")]
    clean: Option<cann_config::AtomicCleanPolicy>,
}

fn main() {}
