//! What `check(source)` was given: a path, YAML or JSON text, or a mapping.

use std::path::PathBuf;

use cann_check::Loaded;
use cann_config::meta::Lang;
use cann_config::yaml::Pos;
use cann_config::Diagnostic;
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

fn os_error(e: &CliError, lang: Lang) -> Option<PyErr> {
    match e {
        CliError::Input(InputError::Open { path, source } | InputError::Read { path, source }) => {
            // Rust's text ends in " (os error 2)"; Python's own says the errno already.
            let text = source.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text).to_string();
            Some(PyOSError::new_err((
                source.raw_os_error().unwrap_or(0),
                text,
                errors::capped(&path.display().to_string(), lang),
            )))
        }
        _ => None,
    }
}

/// The command's error as the Python exception a user expects: `OSError` (its subclass by
/// errno, such as `FileNotFoundError`) for a file that cannot be read, else `InputError`.
pub fn error(py: Python<'_>, e: &CliError, lang: Lang) -> PyErr {
    os_error(e, lang).unwrap_or_else(|| errors::input(py, e, lang))
}

/// The longest path the kernel takes (`PATH_MAX`); a longer string names no file.
const PATH_MAX: usize = 4096;

/// A string names a file when it is one line, does not read as YAML and is short enough to
/// be a path; otherwise it is the config's text.
fn looks_like_text(s: &str) -> bool {
    s.len() > PATH_MAX || s.contains('\n') || s.contains(": ") || s.trim_start().starts_with('{')
}

fn from_path(py: Python<'_>, path: PathBuf, lang: Lang) -> PyResult<Loaded> {
    let loaded = py.detach(|| cann_check::load(&path, lang));
    loaded.map_err(|e| error(py, &e.into(), lang))
}

fn from_text(py: Python<'_>, text: String, lang: Lang) -> PyResult<Loaded> {
    py.detach(|| cann_check::load_text("<string>", text, false, lang))
        .map_err(|e| error(py, &e.into(), lang))
}

/// A path given as `str`, `bytes` or `os.PathLike` (whose `__fspath__` may give either).
pub fn path_of(v: &Bound<'_, PyAny>) -> PyResult<Option<PathBuf>> {
    use std::os::unix::ffi::OsStrExt;
    let v = if v.is_instance_of::<PyString>() || v.is_instance_of::<PyBytes>() {
        v.clone()
    } else if v.hasattr("__fspath__")? {
        v.py().import("os")?.call_method1("fspath", (v,))?
    } else {
        return Ok(None);
    };
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(Some(PathBuf::from(std::ffi::OsStr::from_bytes(
            b.as_bytes(),
        ))));
    }
    Ok(Some(v.extract::<PathBuf>()?))
}

/// What `check(source)` was given, told apart before anything is read.
pub enum Given<'py> {
    Path(PathBuf),
    Text(String),
    Mapping(Bound<'py, PyAny>),
}

impl Given<'_> {
    /// Where `[tool.cannctl]` is looked for: above the file, else above the working
    /// directory (as the command does for standard input).
    pub fn start(&self) -> PathBuf {
        match self {
            Given::Path(p) => p.clone(),
            Given::Text(_) | Given::Mapping(_) => PathBuf::from("."),
        }
    }
}

/// A path (`str` that does not read as a config, `bytes` never: they are text), YAML or JSON
/// text (`str` or UTF-8 `bytes`), or a mapping.
pub fn given<'py>(source: &Bound<'py, PyAny>, lang: Lang) -> PyResult<Given<'py>> {
    if let Ok(s) = source.cast::<PyString>() {
        let s = s.to_cow()?;
        return Ok(if looks_like_text(&s) {
            Given::Text(s.into_owned())
        } else {
            Given::Path(PathBuf::from(s.as_ref()))
        });
    }
    if let Ok(b) = source.cast::<PyBytes>() {
        let text = String::from_utf8(b.as_bytes().to_vec()).map_err(|e| {
            errors::plain(
                &cann_i18n::catalog::python::not_utf8(lang, e.utf8_error().valid_up_to()),
                lang,
            )
        })?;
        return Ok(Given::Text(text));
    }
    if source.cast::<PyMapping>().is_ok() {
        return Ok(Given::Mapping(source.clone()));
    }
    // os.PathLike: pathlib.Path and friends.
    if let Some(p) = path_of(source)? {
        return Ok(Given::Path(p));
    }
    Err(PyTypeError::new_err(
        cann_i18n::catalog::python::not_a_source(lang, &convert::type_name(source)),
    ))
}

/// What `check(source)` was given, read; `extra` gets findings the reading itself makes
/// (an integer past 64 bits in a dict).
pub fn load(
    py: Python<'_>,
    given: Given<'_>,
    lang: Lang,
    extra: &mut Vec<Diagnostic>,
) -> PyResult<(Loaded, Kind)> {
    match given {
        Given::Path(p) => Ok((from_path(py, p, lang)?, Kind::Text)),
        Given::Text(t) => Ok((from_text(py, t, lang)?, Kind::Text)),
        Given::Mapping(m) => {
            let doc = convert::tree(&m, Pos { line: 0, col: 0 }, "", 0, extra, lang)?;
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
            Ok((loaded, Kind::Mapping))
        }
    }
}
