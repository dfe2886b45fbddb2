//! What `check(source)` was given: a path, YAML or JSON text, or a mapping.

use std::path::PathBuf;

use cann_check::Loaded;
use cann_config::meta::Lang;
use cann_config::yaml::Pos;
use cann_input::InputError;
use cannctl::embed::CliError;
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMapping, PyString};

use crate::convert;
use crate::errors;

/// How the config came, which decides whether its positions mean anything.
pub enum Kind {
    /// A file or text: findings carry line and column.
    Text,
    /// A mapping: no lines, the option path says where.
    Mapping,
}

fn os_error(e: &CliError) -> Option<PyErr> {
    match e {
        CliError::Input(InputError::Open { path, source } | InputError::Read { path, source }) => {
            // Rust's text ends in " (os error 2)"; Python's own says the errno already.
            let text = source.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text).to_string();
            Some(PyOSError::new_err((
                source.raw_os_error().unwrap_or(0),
                text,
                path.display().to_string(),
            )))
        }
        _ => None,
    }
}

/// The command's error as the Python exception a user expects: `OSError` (its subclass by
/// errno, such as `FileNotFoundError`) for a file that cannot be read, else `InputError`.
pub fn error(py: Python<'_>, e: &CliError, lang: Lang) -> PyErr {
    os_error(e).unwrap_or_else(|| errors::input(py, e, lang))
}

/// A string names a file when it is one line and does not read as YAML; otherwise it is the
/// config's text.
fn looks_like_text(s: &str) -> bool {
    s.contains('\n') || s.contains(": ") || s.trim_start().starts_with('{')
}

fn from_path(py: Python<'_>, path: PathBuf, lang: Lang) -> PyResult<Loaded> {
    let loaded = py.detach(|| cann_check::load(&path, lang));
    loaded.map_err(|e| error(py, &e.into(), lang))
}

fn from_text(py: Python<'_>, text: String, lang: Lang) -> PyResult<Loaded> {
    cann_check::load_text("<string>", text, false, lang).map_err(|e| error(py, &e.into(), lang))
}

pub fn load(source: &Bound<'_, PyAny>, lang: Lang) -> PyResult<(Loaded, Kind)> {
    let py = source.py();
    if let Ok(s) = source.cast::<PyString>() {
        let s = s.to_cow()?;
        let s: &str = &s;
        if looks_like_text(s) {
            return Ok((from_text(py, s.to_string(), lang)?, Kind::Text));
        }
        return Ok((from_path(py, PathBuf::from(s), lang)?, Kind::Text));
    }
    if let Ok(b) = source.cast::<PyBytes>() {
        let text = String::from_utf8(b.as_bytes().to_vec()).map_err(|e| {
            errors::InputError::new_err(format!(
                "the config text is not UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        return Ok((from_text(py, text, lang)?, Kind::Text));
    }
    if source.cast::<PyMapping>().is_ok() {
        let doc = convert::tree(source, Pos { line: 0, col: 0 }, "", 0)?;
        let file = cann_config::config_from_node_in(&doc, lang).map_err(|e| {
            let e = CliError::Parse {
                path: "<dict>".into(),
                pos: None,
                message: e.message,
                hint: e.hint,
                line: None,
            };
            errors::input(py, &e, lang)
        })?;
        let loaded = Loaded {
            name: "<dict>".into(),
            text: String::new(),
            file,
        };
        return Ok((loaded, Kind::Mapping));
    }
    // os.PathLike: pathlib.Path and friends.
    if let Ok(p) = source.extract::<PathBuf>() {
        return Ok((from_path(py, p, lang)?, Kind::Text));
    }
    Err(PyTypeError::new_err(format!(
        "source must be a path, YAML or JSON text, or a dict; found {}",
        convert::type_name(source)
    )))
}
