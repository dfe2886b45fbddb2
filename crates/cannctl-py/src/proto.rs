//! Reading a live `tf.compat.v1.ConfigProto` through the protobuf's own Python API: its
//! custom optimizers with each `parameter_map` entry's `AttrValue` field, and the rewrite
//! options the adapter's guide names. TensorFlow is not imported here; any object with
//! the protobuf's shape is read.

use cann_config::meta::Lang;
use cann_config::yaml::{Kind, Node};
use cann_i18n::catalog::python as msg;
use cann_lint::live::{self, Optimizer, Param, Rewrite, SessionProto};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert;
use crate::written::Settings;

/// A `ConfigProto`, or something that carries one: an Estimator `RunConfig` (and so
/// `NPURunConfig`) keeps it as `session_config`.
fn config_proto<'py>(obj: &Bound<'py, PyAny>, lang: Lang) -> PyResult<Bound<'py, PyAny>> {
    if obj.hasattr("graph_options")? {
        return Ok(obj.clone());
    }
    if obj.hasattr("session_config")? {
        let inner = obj.getattr("session_config")?;
        if !inner.is_none() && inner.hasattr("graph_options")? {
            return Ok(inner);
        }
    }
    Err(PyTypeError::new_err(msg::not_config_proto(
        lang,
        &convert::type_name(obj),
    )))
}

/// The value of an `AttrValue`, by the field set in its `value` oneof.
fn attr_value(
    av: &Bound<'_, PyAny>,
    field: &str,
    at: cann_config::yaml::Pos,
) -> PyResult<Option<Node>> {
    let kind = match field {
        "s" => {
            let b = av.getattr("s")?;
            let bytes = b.cast::<PyBytes>()?;
            Some(Kind::Str(
                String::from_utf8_lossy(bytes.as_bytes()).into_owned(),
            ))
        }
        "i" | "b" | "f" => convert::scalar(&av.getattr(field)?)?,
        // Lists, types, shapes, tensors: no option takes them; the accessor check says so.
        _ => None,
    };
    Ok(kind.map(|kind| Node { pos: at, kind }))
}

/// The name of value `v` of enum field `field`, from the message's descriptor.
fn enum_name(msg: &Bound<'_, PyAny>, field: &str, v: i64) -> String {
    let name = || -> PyResult<String> {
        let fd = msg
            .getattr("DESCRIPTOR")?
            .getattr("fields_by_name")?
            .get_item(field)?;
        let et = fd.getattr("enum_type")?;
        if et.is_none() {
            return Ok(String::new());
        }
        et.getattr("values_by_number")?
            .get_item(v)?
            .getattr("name")?
            .extract()
    };
    name().unwrap_or_default()
}

/// Whether `obj` has a `ConfigProto`'s shape.
pub fn is_config_proto(obj: &Bound<'_, PyAny>) -> bool {
    obj.hasattr("graph_options").unwrap_or(false)
}

/// The session as `cann_lint::live` checks it; `settings` gets how each of its lines was
/// written, after `prefix` (`session_config.` inside `NPURunConfig`).
pub fn read(
    obj: &Bound<'_, PyAny>,
    settings: &mut Settings,
    prefix: &str,
    lang: Lang,
) -> PyResult<SessionProto> {
    let proto = config_proto(obj, lang)?;
    let rw = proto.getattr("graph_options")?.getattr("rewrite_options")?;
    let mut optimizers = Vec::new();
    for (i, co) in rw.getattr("custom_optimizers")?.try_iter()?.enumerate() {
        let co = co?;
        let name: String = co.getattr("name")?.extract()?;
        let at = settings.next(format!("{prefix}custom_optimizers[{i}] ({name:?})"));
        let pm = co.getattr("parameter_map")?;
        // A protobuf map has no order; sorted keys keep reports stable.
        let mut keys: Vec<String> = pm
            .call_method0("keys")?
            .try_iter()?
            .map(|k| k?.extract::<String>())
            .collect::<PyResult<_>>()?;
        keys.sort();
        let mut params = Vec::with_capacity(keys.len());
        for key in keys {
            let av = pm.get_item(&key)?;
            let field: Option<String> = av.call_method1("WhichOneof", ("value",))?.extract()?;
            let accessor = field.unwrap_or_default();
            let written = if accessor.is_empty() {
                format!("{prefix}parameter_map[{key:?}]")
            } else {
                format!("{prefix}parameter_map[{key:?}].{accessor}")
            };
            let at = settings.next(written);
            let value = attr_value(&av, &accessor, at)?;
            params.push(Param {
                key,
                accessor,
                at,
                value,
            });
        }
        optimizers.push(Optimizer { name, at, params });
    }
    let mut rewrites = Vec::new();
    for field in live::rewrite_fields() {
        let Ok(v) = rw.getattr(field) else { continue };
        let value: i64 = match v.extract::<bool>() {
            Ok(b) if v.is_instance_of::<pyo3::types::PyBool>() => i64::from(b),
            _ => v.extract()?,
        };
        rewrites.push(Rewrite {
            field: field.to_string(),
            value,
            value_name: enum_name(&rw, field, value),
        });
    }
    let anchor = cann_config::yaml::Pos { line: 0, col: 0 };
    Ok(SessionProto {
        anchor,
        optimizers,
        rewrites,
    })
}
