//! The command's rendering, for other front ends that run in the same process (the Python
//! package): a config checked there is read, targeted and validated by the same pipeline
//! (`cann_check`) and rendered by these functions, so it gets the command's findings and text.

use cann_config::meta::Lang;
use cann_config::{Diagnostic, Product, Release};

pub use crate::error::CliError;
pub use cann_check::Loaded;

/// What `cannctl check` prints for findings about `name` (whose text is `source`, empty
/// when it was no file), without colour. `product: None` reads "every product".
pub fn render_check(
    name: &str,
    source: &str,
    ds: &[Diagnostic],
    product: Option<Product>,
    release: Release,
    lang: Lang,
) -> String {
    // Writing into memory cannot fail.
    crate::cmd::check::human(name, source, ds, product, release, 0, false, lang).unwrap_or_default()
}

/// What the command prints for an error that stops it, without colour.
pub fn render_error(e: &CliError, lang: Lang) -> String {
    crate::render::input_error(e, false, lang)
}

/// "2 errors, 1 warning, 0 notes"
pub fn summary(ds: &[Diagnostic], lang: Lang) -> String {
    crate::render::summary(ds, lang)
}

/// Runs one command line with its output captured: `(exit code, stdout, stderr)`.
pub fn run_captured<I, T>(argv: I) -> (u8, Vec<u8>, Vec<u8>)
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::Parser;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    match crate::cli::Cli::try_parse_from(argv) {
        Ok(cli) => {
            let code = crate::run(&cli, &mut out, &mut err);
            (code, out, err)
        }
        Err(e) => (
            u8::try_from(e.exit_code()).unwrap_or(crate::EXIT_INPUT),
            Vec::new(),
            e.render().to_string().into_bytes(),
        ),
    }
}
pub use crate::cmd::schema::SCHEMA;
