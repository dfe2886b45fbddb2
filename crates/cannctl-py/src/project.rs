//! `[tool.cannctl]` for an in-process call, read as the command reads it (by
//! `cann_check::settings`, from the nearest pyproject.toml above the input, else above the
//! working directory). What the call says beats the settings; they beat the defaults.

use std::path::Path;

use cann_check::settings::{self, Settings};
use cann_config::meta::Lang;
use cann_config::Release;
use cann_lint::LintOptions;
use pyo3::prelude::*;

use crate::options;
use crate::source;

/// The settings above `start` and the language of messages: `lang` as given, else the
/// settings' `lang`, else the locale's. Bad settings raise `InputError` at their place in
/// the pyproject.toml, as `cannctl check` reports them.
pub fn resolve(py: Python<'_>, start: &Path, lang: Option<&str>) -> PyResult<(Settings, Lang)> {
    let first = options::lang(lang)?;
    let s = py
        .detach(|| settings::resolve(start, first))
        .map_err(|e| source::error(py, &cann_check::CheckError::from(e).into(), first))?;
    let lang = match lang {
        Some(_) => first,
        None => s.lang.unwrap_or(first),
    };
    Ok((s, lang))
}

/// The linter's options for a call that names `product`, `release` and `lang` or leaves them
/// to `[tool.cannctl]` above `start`, and the settings (for `exclude`).
pub fn lint_options(
    py: Python<'_>,
    start: &Path,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
) -> PyResult<(LintOptions, Settings)> {
    let (s, lang) = resolve(py, start, lang)?;
    let product = match product {
        Some(_) => options::product(product, lang)?,
        None => s.product,
    };
    let release = match release {
        Some(_) => options::release(release, lang)?,
        None => s.release.unwrap_or(Release::LATEST),
    };
    let opts = LintOptions {
        product,
        release,
        lang,
    };
    Ok((opts, s))
}

/// As [`lint_options`] for settings given as live values (a ConfigProto, keyword
/// arguments): the project is the working directory's.
pub fn here(
    py: Python<'_>,
    product: Option<&str>,
    release: Option<&str>,
    lang: Option<&str>,
) -> PyResult<LintOptions> {
    lint_options(py, Path::new("."), product, release, lang).map(|(o, _)| o)
}
