//! The keyword arguments every function shares (`product`, `release`, `lang`), read once.

use cann_config::meta::Lang;
use cann_config::{Product, Release};
use cann_i18n::catalog::python as msg;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{self, ConfigError};
use crate::findings::Report;

/// The language of messages: `lang` as given (`"zh"`, `"zh_CN.UTF-8"`, `"en-US"`), else the
/// locale's, read as the command reads it (`LC_ALL`, `LC_MESSAGES`, `LANG`).
pub fn lang(given: Option<&str>) -> PyResult<Lang> {
    let from_env: Lang = cannctl::cli::LangArg::default().into();
    match given {
        None => Ok(from_env),
        Some(s) => s.parse::<Lang>().map_err(|_| {
            let shown = errors::capped(&format!("{s:?}"), from_env);
            PyValueError::new_err(msg::unknown_lang(from_env, &shown))
        }),
    }
}

/// An unknown product or release: the message, and what the spec knows as the hint.
fn unknown(e: &cann_config::UnknownId, lang: Lang) -> PyErr {
    Python::attach(|py| {
        let hint = Some(e.expected(lang));
        errors::input_error(py, &e.message(lang), None, hint, Vec::new(), lang)
    })
}

pub fn product(p: Option<&str>, lang: Lang) -> PyResult<Option<Product>> {
    p.map(|p| p.parse::<Product>())
        .transpose()
        .map_err(|e| unknown(&e, lang))
}

pub fn release(r: Option<&str>, lang: Lang) -> PyResult<Release> {
    r.map_or(Ok(Release::LATEST), |r| {
        r.parse::<Release>().map_err(|e| unknown(&e, lang))
    })
}

/// Raises `ConfigError` carrying `report` when it has errors; returns it otherwise.
pub fn guarded(py: Python<'_>, report: Report) -> PyResult<Report> {
    if !report.has_errors() {
        return Ok(report);
    }
    let err = ConfigError::new_err(report.render());
    err.value(py).setattr("report", report)?;
    Err(err)
}
