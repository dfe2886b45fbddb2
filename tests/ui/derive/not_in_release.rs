// variable_use_1g_huge_page is first read in 8.1.RC1.
#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "8.0.0")]
struct Options {
    variable_use_1g_huge_page: Option<cann_config::VariableUse1gHugePage>,
}

fn main() {}
