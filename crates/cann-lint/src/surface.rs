//! Values as each API takes them. A literal written in a script becomes the value the
//! adapter would end up with, in the type the spec gives the option, or the error the real
//! API raises for it.
//!
//! - TF1 session: `parameter_map[k].b/.i/.s` are protobuf `AttrValue` fields. The bool field
//!   takes any integer (`.b = 1` is True) and the integer field takes a bool; a float, a
//!   string or `None` raise TypeError. `.s` is a bytes field.
//! - TF1 Estimator: `npu_bridge`'s NPUEstimator copies each keyword of NPURunConfig and its
//!   classes into those same fields, so the same types hold; `tf.compat.as_bytes` carries
//!   strings and refuses numbers. Keywords TensorFlow's own RunConfig takes (they have no
//!   session key) are checked by TensorFlow for their range only, so `1e9` steps are fine.
//!   `None` is the signature's "not given": NPUEstimator writes nothing for it.
//! - TF2: each attribute of `npu.global_options()` is an `OptionValue`. One with a list of
//!   accepted values takes exactly those (compared with Python's `==`, so `1` is `True`);
//!   one without a list takes anything and passes `str(value)` on.
//! - Environment: `os.environ` takes strings only.
//!
//! Sources: hicann/tensorflow@82957b9 tf_adapter/python/npu_bridge/estimator/npu/npu_estimator.py
//! (how each keyword reaches `parameter_map`), npu_config.py (the signatures), and
//! tf_adapter_2.x/python/npu_device/configs/option_base.py (`OptionValue`).

use cann_config::meta::{Accessor, Lang, OptionMeta, TypeMeta};
use cann_config::yaml::{Kind, Node as Value};

use crate::messages::{self, PyType};
use crate::object::Val;

/// NPURunConfig keywords NPUEstimator passes through `str()` before `tf.compat.as_bytes`,
/// so any value is accepted (npu_estimator.py, the `graph_memory_max_size` and
/// `variable_memory_max_size` lines).
const STR_CONVERTED_KWARGS: [&str; 2] = ["graph_memory_max_size", "variable_memory_max_size"];

/// Longer reprs are cut: a message quotes the value, it does not reprint the file.
const MAX_REPR_CHARS: usize = 80;

/// A literal as Python would print it, cut at [`MAX_REPR_CHARS`] characters.
pub(crate) fn repr(v: &Value) -> String {
    let full = repr_full(v);
    if full.chars().count() <= MAX_REPR_CHARS {
        return full;
    }
    let mut cut: String = full.chars().take(MAX_REPR_CHARS).collect();
    cut.push('…');
    cut
}

fn repr_full(v: &Value) -> String {
    match &v.kind {
        Kind::Null => "None".into(),
        Kind::Bool(true) => "True".into(),
        Kind::Bool(false) => "False".into(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 => format!("{f:.1}"),
        Kind::Float(f) => f.to_string(),
        Kind::Str(s) => format!("{s:?}"),
        Kind::Seq(items) => {
            // Only as many items as can be shown.
            let inner: Vec<String> = items
                .iter()
                .take(MAX_REPR_CHARS / 2)
                .map(repr_full)
                .collect();
            format!("[{}]", inner.join(", "))
        }
        Kind::Map(_) => "{...}".into(),
    }
}

fn with(v: &Value, kind: Kind) -> Val {
    Val::Lit(Value { pos: v.pos, kind })
}

/// The Python type the option's values are carried in on the TF1 surfaces.
fn carried_as(o: &OptionMeta) -> Option<PyType> {
    match o.session.map(|(_, a)| a) {
        Some(Accessor::B) => Some(PyType::Bool),
        Some(Accessor::I) => Some(PyType::Int),
        Some(Accessor::S) => Some(PyType::Str),
        None => match o.ty {
            TypeMeta::Bool => Some(PyType::Bool),
            TypeMeta::Int | TypeMeta::IntEnum => Some(PyType::Int),
            TypeMeta::Float => Some(PyType::Number),
            TypeMeta::Str | TypeMeta::StrEnum | TypeMeta::Path { .. } | TypeMeta::CorePair => {
                Some(PyType::Str)
            }
            TypeMeta::Config(_) | TypeMeta::Object(_) => None,
        },
    }
}

/// A value put into a protobuf field of `field` type, as the option's spec type.
fn protobuf(
    o: &OptionMeta,
    field: PyType,
    v: &Value,
    what: &str,
    lang: Lang,
) -> Result<Val, String> {
    let wrong = || {
        Err(messages::wrong_type(
            lang,
            what,
            field,
            &repr(v),
            "TypeError",
        ))
    };
    match (field, &v.kind) {
        (PyType::Bool, Kind::Bool(_)) => Ok(Val::Lit(v.clone())),
        (PyType::Bool, Kind::Int(i)) => Ok(with(v, Kind::Bool(*i != 0))),
        (PyType::Int, Kind::Int(_)) => Ok(Val::Lit(v.clone())),
        (PyType::Int, Kind::Bool(b)) => Ok(with(v, Kind::Int(i64::from(*b)))),
        (PyType::Str, Kind::Str(_)) => Ok(Val::Lit(crate::extract::coerce(o, v.clone()))),
        _ => wrong(),
    }
}

/// `parameter_map["k"].<accessor> = v`, the accessor being the one the adapter reads.
pub(crate) fn session(o: &OptionMeta, a: Accessor, v: &Value, lang: Lang) -> Result<Val, String> {
    let field = match a {
        Accessor::B => PyType::Bool,
        Accessor::I => PyType::Int,
        Accessor::S => PyType::Str,
    };
    let key = o.session.map_or(o.name, |(k, _)| k);
    protobuf(
        o,
        field,
        v,
        &format!("parameter_map[\"{key}\"].{}", a.as_str()),
        lang,
    )
}

/// `Class(kwarg=v)` on the Estimator surface.
pub(crate) fn estimator(o: &OptionMeta, kwarg: &str, v: &Value, lang: Lang) -> Result<Val, String> {
    if matches!(v.kind, Kind::Null) {
        return Ok(Val::Unset);
    }
    // Python objects (session_config, distribute, ...) are never literals worth checking.
    if o.estimator.is_none() {
        return Ok(Val::Unknown);
    }
    let Some(field) = carried_as(o) else {
        return Ok(Val::Unknown);
    };
    if STR_CONVERTED_KWARGS.contains(&kwarg) {
        return Ok(match &v.kind {
            Kind::Str(_) => Val::Lit(v.clone()),
            Kind::Int(i) => with(v, Kind::Str(i.to_string())),
            _ => Val::Unknown,
        });
    }
    // TensorFlow's RunConfig checks these numbers against their range only.
    let run_config_native = o.session.is_none() && o.ge_key.is_none();
    if run_config_native && field == PyType::Number {
        return number(o, kwarg, v, lang);
    }
    if run_config_native && field == PyType::Int {
        return Ok(match v.kind {
            Kind::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.0e15 => {
                // Exact: the guard keeps the float within i64's exactly representable range.
                #[allow(clippy::cast_possible_truncation)]
                with(v, Kind::Int(f as i64))
            }
            Kind::Float(f) if f.is_finite() && f >= 0.0 => Val::Unknown,
            _ => protobuf(o, field, v, &format!("{}({kwarg}=...)", o.config), lang)?,
        });
    }
    protobuf(o, field, v, &format!("{}({kwarg}=...)", o.config), lang)
}

/// A float keyword of RunConfig (`keep_checkpoint_every_n_hours=0.5`): RunConfig compares
/// it with its bound, so any int, float or bool (Python's `True > 0`) is a number; anything
/// else makes that comparison raise TypeError.
fn number(o: &OptionMeta, kwarg: &str, v: &Value, lang: Lang) -> Result<Val, String> {
    // An integer stays as written (the config reader takes it as a number), so messages
    // quote the script's own text.
    let x = match v.kind {
        Kind::Float(x) => x,
        Kind::Int(_) => return Ok(Val::Lit(v.clone())),
        Kind::Bool(b) => return Ok(with(v, Kind::Int(i64::from(b)))),
        _ => {
            return Err(messages::wrong_type(
                lang,
                &format!("{}({kwarg}=...)", o.config),
                PyType::Number,
                &repr(v),
                "TypeError",
            ))
        }
    };
    // NaN and the infinities are not literals; `float("inf")` is an expression.
    Ok(match cann_config::meta::Float::finite(x) {
        Some(_) => with(v, Kind::Float(x)),
        None => Val::Unknown,
    })
}

/// Python's `==` between a literal and a value the option lists, in the TF2 encoding.
fn tf2_equal(v: &Kind, listed: &Kind) -> bool {
    let num = |k: &Kind| match k {
        Kind::Bool(b) => Some(f64::from(u8::from(*b))),
        // Option values are small integers; the comparison is exact for them.
        #[allow(clippy::cast_precision_loss)]
        Kind::Int(i) => Some(*i as f64),
        Kind::Float(f) => Some(*f),
        _ => None,
    };
    match (v, listed) {
        (Kind::Str(a), Kind::Str(b)) => a == b,
        (a, b) => matches!((num(a), num(b)), (Some(x), Some(y)) if x == y),
    }
}

/// The values a TF2 option lists, in its TF2 encoding, as Python literals: what its
/// `OptionValue` declares upstream (the spec's `tf2.values`); `None` when it takes any.
fn tf2_listed(o: &OptionMeta) -> Option<Vec<Kind>> {
    use cann_config::meta::Lit;
    let lit = |l: &Option<Lit>| -> Kind {
        match *l {
            None => Kind::Null,
            Some(Lit::Bool(b)) => Kind::Bool(b),
            Some(Lit::Int(i)) => Kind::Int(i),
            Some(Lit::Float(x)) => Kind::Float(x.get()),
            Some(Lit::Str(s)) => Kind::Str(s.to_string()),
        }
    };
    o.tf2_values.map(|vs| vs.iter().map(lit).collect())
}

/// From the TF2 encoding back to the option's spec type.
fn tf2_to_spec(o: &OptionMeta, v: &Value, listed: &[Kind]) -> Val {
    let k = match (o.ty, &v.kind) {
        (TypeMeta::Bool, k) => Kind::Bool(tf2_equal(k, &Kind::Bool(true))),
        (TypeMeta::IntEnum, Kind::Str(s)) => match s.parse::<i64>() {
            Ok(i) => Kind::Int(i),
            Err(_) => Kind::Str(s.clone()),
        },
        (TypeMeta::IntEnum, Kind::Bool(b)) => Kind::Int(i64::from(*b)),
        (_, k) => {
            let _ = listed;
            k.clone()
        }
    };
    with(v, k)
}

/// `npu.global_options().<path> = v`.
pub(crate) fn tf2(o: &OptionMeta, path: &str, v: &Value, lang: Lang) -> Result<Val, String> {
    if matches!(v.kind, Kind::Null) {
        return Ok(Val::Unset);
    }
    match tf2_listed(o) {
        Some(listed) => {
            if listed.iter().any(|l| tf2_equal(&v.kind, l)) {
                return Ok(tf2_to_spec(o, v, &listed));
            }
            let shown: Vec<String> = listed
                .iter()
                .map(|k| {
                    repr(&Value {
                        pos: v.pos,
                        kind: k.clone(),
                    })
                })
                .collect();
            Err(messages::tf2_not_allowed(
                lang,
                path,
                &repr(v),
                &shown.join(", "),
            ))
        }
        // No list: any value is taken and passed on as `str(value)`.
        None => Ok(match (&v.kind, o.ty) {
            (Kind::Str(_), _) => Val::Lit(crate::extract::coerce(o, v.clone())),
            (Kind::Int(_), TypeMeta::Int) => Val::Lit(v.clone()),
            (Kind::Int(_) | Kind::Float(_), TypeMeta::Float) => Val::Lit(v.clone()),
            (Kind::Int(i), _) => with(v, Kind::Str(i.to_string())),
            _ => Val::Unknown,
        }),
    }
}

/// `os.environ["NAME"] = v`: only strings are accepted.
pub(crate) fn env(o: &OptionMeta, name: &str, v: &Value, lang: Lang) -> Result<Val, String> {
    match &v.kind {
        Kind::Str(_) => Ok(Val::Lit(crate::extract::coerce(o, v.clone()))),
        _ => Err(messages::wrong_type(
            lang,
            &format!("os.environ[\"{name}\"]"),
            PyType::Str,
            &repr(v),
            "TypeError",
        )),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use cann_config::yaml::Pos;
    use cann_config::OPTIONS;

    fn opt(name: &str) -> &'static OptionMeta {
        OPTIONS.iter().find(|o| o.name == name).unwrap()
    }

    fn lit(kind: Kind) -> Value {
        Value {
            pos: Pos { line: 1, col: 1 },
            kind,
        }
    }

    fn kind(r: Result<Val, String>) -> Option<Kind> {
        match r {
            Ok(Val::Lit(v)) => Some(v.kind),
            _ => None,
        }
    }

    #[test]
    fn protobuf_bool_fields_take_integers() {
        let o = opt("enable_data_pre_proc");
        let got = kind(session(o, Accessor::B, &lit(Kind::Int(1)), Lang::En));
        assert_eq!(got, Some(Kind::Bool(true)));
        assert!(session(o, Accessor::B, &lit(Kind::Float(1.0)), Lang::En).is_err());
        let o = opt("graph_run_mode");
        let got = kind(session(o, Accessor::I, &lit(Kind::Bool(true)), Lang::En));
        assert_eq!(got, Some(Kind::Int(1)));
    }

    #[test]
    fn run_config_numbers_may_be_floats_and_none_is_unset() {
        let o = opt("save_checkpoints_steps");
        let got = kind(estimator(
            o,
            "save_checkpoints_steps",
            &lit(Kind::Float(1e9)),
            Lang::En,
        ));
        assert_eq!(got, Some(Kind::Int(1_000_000_000)));
        let r = estimator(o, "save_checkpoints_steps", &lit(Kind::Null), Lang::En);
        assert!(matches!(r, Ok(Val::Unset)));
        // An adapter keyword written into a protobuf integer field refuses a float.
        let o = opt("iterations_per_loop");
        assert!(estimator(o, "iterations_per_loop", &lit(Kind::Float(10.0)), Lang::En).is_err());
    }

    #[test]
    fn run_config_hours_are_numbers_fractions_included() {
        let o = opt("keep_checkpoint_every_n_hours");
        let k = "keep_checkpoint_every_n_hours";
        let got = kind(estimator(o, k, &lit(Kind::Float(0.5)), Lang::En));
        assert_eq!(got, Some(Kind::Float(0.5)));
        let got = kind(estimator(o, k, &lit(Kind::Int(2)), Lang::En));
        assert_eq!(got, Some(Kind::Int(2)));
        let e = estimator(o, k, &lit(Kind::Str("abc".into())), Lang::En).unwrap_err();
        assert!(e.contains("a number"), "{e}");
    }

    #[test]
    fn kwargs_passed_through_str_take_numbers() {
        let o = opt("graph_memory_max_size");
        let got = kind(estimator(
            o,
            "graph_memory_max_size",
            &lit(Kind::Int(29205777612)),
            Lang::En,
        ));
        assert_eq!(got, Some(Kind::Str("29205777612".into())));
    }

    #[test]
    fn tf2_lists_compare_like_python() {
        let o = opt("dynamic_node_type");
        let p = o.tf2.unwrap();
        assert_eq!(
            kind(tf2(o, p, &lit(Kind::Str("0".into())), Lang::En)),
            Some(Kind::Int(0))
        );
        assert!(tf2(o, p, &lit(Kind::Int(0)), Lang::En).is_err());
        let o = opt("hcom_parallel");
        let p = o.tf2.unwrap();
        assert_eq!(
            kind(tf2(o, p, &lit(Kind::Int(1)), Lang::En)),
            Some(Kind::Bool(true))
        );
        assert!(tf2(o, p, &lit(Kind::Int(2)), Lang::En).is_err());
        let o = opt("graph_memory_max_size");
        let p = o.tf2.unwrap();
        assert!(tf2(o, p, &lit(Kind::Int(21474836480)), Lang::En).is_ok());
    }

    #[test]
    fn environment_values_are_strings() {
        let o = OPTIONS
            .iter()
            .find(|o| o.env == Some("GE_USE_STATIC_MEMORY"))
            .unwrap();
        assert!(env(o, "GE_USE_STATIC_MEMORY", &lit(Kind::Int(1)), Lang::En).is_err());
        assert!(env(
            o,
            "GE_USE_STATIC_MEMORY",
            &lit(Kind::Str("1".into())),
            Lang::En
        )
        .is_ok());
    }
}
