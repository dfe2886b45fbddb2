//! One module per subcommand, plus what they share: the check pipeline (`cann_check`)
//! with the command line's target.

pub mod cache;
pub mod check;
pub mod completions;
pub mod diff;
pub mod emit;
mod engine;
pub mod explain;
pub mod lint;
pub mod mem;
pub mod options;
pub mod products;
mod project;
pub mod schema;
pub mod server;

use cann_config::meta::Lang;
use cann_config::{ConfigFile, Target};

use crate::cli::TargetArgs;

pub use cann_check::{
    diagnose, load, load_named, parse_product, parse_release, soc_cores, CheckError,
};

/// Command line beats the file; the release defaults to the newest one.
pub fn target(args: &TargetArgs, file: &ConfigFile, lang: Lang) -> Result<Target, CheckError> {
    cann_check::target(args.product.as_deref(), args.release.as_deref(), file, lang)
}

/// As [`target`], with `[tool.cannctl]` below the file's own product and release.
pub fn target_in(
    args: &TargetArgs,
    file: &ConfigFile,
    project: &cann_check::settings::Settings,
    lang: Lang,
) -> Result<Target, CheckError> {
    cann_check::target_in(
        args.product.as_deref(),
        args.release.as_deref(),
        file,
        project,
        lang,
    )
}
