//! Python values to the value trees `cann_config` reads.
//!
//! A value becomes what a YAML or JSON file holding it would hold: `True` a boolean, `3` an
//! integer, `b"x"` the string `x`, a `dict` a mapping. Nothing is decided here; a wrong type
//! is reported by `cann_config`'s reader, as for a file.

use cann_config::meta::{Lang, Severity};
use cann_config::yaml::{Kind, Node, Pos};
use cann_config::Diagnostic;
use cann_i18n::catalog::python as msg;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};

/// Deeper nesting is no config; it bounds recursion on self-referencing data.
const MAX_DEPTH: u32 = 32;

/// The Python type's name, for messages.
pub fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// The digits of an integer past 64 bits (`2**100`): a number no option takes, which is
/// said as such rather than read as something else.
pub fn big_int(v: &Bound<'_, PyAny>) -> Option<String> {
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() || v.extract::<i64>().is_ok() {
        return None;
    }
    v.str().ok().map(|s| s.to_string())
}

/// The finding for an integer past 64 bits set at `option`.
pub fn big_int_finding(option: &str, digits: &str, at: Pos, lang: Lang) -> Diagnostic {
    let n = digits.trim_start_matches('-').len();
    let mut d = Diagnostic::new(Severity::Error, option, msg::big_int(lang, n));
    d.value = Some(crate::errors::capped(digits, lang));
    (d.line, d.column) = (Some(at.line), Some(at.col));
    d
}

/// `None` when `v` is not a value a config file can hold (an object, a function, an
/// integer past 64 bits: see [`big_int`]).
pub fn scalar(v: &Bound<'_, PyAny>) -> PyResult<Option<Kind>> {
    if v.is_none() {
        return Ok(Some(Kind::Null));
    }
    // bool before int: True is an int in Python.
    if v.is_instance_of::<PyBool>() {
        return Ok(Some(Kind::Bool(v.extract::<bool>()?)));
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(v.extract::<i64>().ok().map(Kind::Int));
    }
    if v.is_instance_of::<PyFloat>() {
        return Ok(Some(Kind::Float(v.extract::<f64>()?)));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Some(Kind::Str(s.to_cow()?.into_owned())));
    }
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(Some(Kind::Str(
            String::from_utf8_lossy(b.as_bytes()).into_owned(),
        )));
    }
    Ok(None)
}

fn node(pos: Pos, kind: Kind) -> Node {
    Node { pos, kind }
}

/// A whole config given as a `dict` (or any mapping), every value at `pos`. An entry whose
/// value is an integer past 64 bits is left out, its finding added to `extra`.
pub fn tree(
    v: &Bound<'_, PyAny>,
    pos: Pos,
    path: &str,
    depth: u32,
    extra: &mut Vec<Diagnostic>,
    lang: Lang,
) -> PyResult<Node> {
    if depth > MAX_DEPTH {
        let text = msg::too_deep(lang, path, MAX_DEPTH);
        return Err(crate::errors::plain(&text, lang));
    }
    if let Some(k) = scalar(v)? {
        return Ok(node(pos, k));
    }
    if let Ok(m) = v.cast::<PyMapping>() {
        let mut entries = Vec::new();
        for item in m.items()?.iter() {
            let (k, val): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            let key = match k.cast::<PyString>() {
                Ok(s) => s.to_cow()?.into_owned(),
                Err(_) => {
                    let shown = crate::errors::capped(&k.repr()?.to_string(), lang);
                    let found = type_name(&k);
                    return Err(PyTypeError::new_err(if path.is_empty() {
                        msg::top_key_not_str(lang, &found, &shown)
                    } else {
                        msg::key_not_str(lang, path, &found, &shown)
                    }));
                }
            };
            let child = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            if let Some(digits) = big_int(&val) {
                extra.push(big_int_finding(&child, &digits, pos, lang));
                continue;
            }
            let value = tree(&val, pos, &child, depth + 1, extra, lang)?;
            entries.push((node(pos, Kind::Str(key)), value));
        }
        return Ok(node(pos, Kind::Map(entries)));
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut items = Vec::new();
        for (i, x) in v.try_iter()?.enumerate() {
            let x = x?;
            let at = format!("{path}[{i}]");
            if let Some(digits) = big_int(&x) {
                extra.push(big_int_finding(&at, &digits, pos, lang));
                items.push(node(pos, Kind::Null));
                continue;
            }
            items.push(tree(&x, pos, &at, depth + 1, extra, lang)?);
        }
        return Ok(node(pos, Kind::Seq(items)));
    }
    Err(PyTypeError::new_err(msg::not_a_value(
        lang,
        path,
        &type_name(v),
    )))
}
