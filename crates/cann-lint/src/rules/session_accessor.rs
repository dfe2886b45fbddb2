//! `session-accessor`: a TF1 session's `parameter_map` entry set through an accessor
//! (`.i`, `.s`, `.b`) other than the one the adapter reads the option with, or created
//! without a value.
//!
//! ```python
//! custom_op.parameter_map["static_memory_policy"].s = b"2"   # read with .i: ignored
//! custom_op.parameter_map["static_memory_policy"].i = 2
//! ```
//!
//! The adapter reads the field of its own accessor, so a value set through another is lost
//! and the option reads as that field's zero; said as such when the option refuses the zero.
//! `parameter_map["k"]` read without assigning creates an entry with no value, which the
//! adapter still reads (`params.count(k) > 0`) as the field's zero.

use cann_config::meta::{Accessor, Lang, Lit, OptionMeta, Severity, TypeMeta};
use cann_config::yaml::Pos;
use cann_i18n::catalog::lint as msg;

use super::Rule;
use crate::messages::{self, PyType};
use crate::names;
use crate::object::ConfigObject;
use crate::FindingKind;

pub(crate) static RULE: Rule = Rule {
    kind: FindingKind::Accessor,
    id: "session-accessor",
    summary: msg::rule_accessor,
};

fn example(a: Accessor) -> &'static str {
    match a {
        Accessor::I => "<int>",
        Accessor::S => "tf.compat.as_bytes(\"...\")",
        Accessor::B => "True",
    }
}

fn reads(a: Accessor) -> PyType {
    match a {
        Accessor::I => PyType::Int,
        Accessor::S => PyType::Str,
        Accessor::B => PyType::Bool,
    }
}

/// Whether the option refuses the value the adapter reads from an unset field of the
/// accessor it uses (`""`, `0` or `False`): only an option that lists its values can.
fn refuses_empty(o: &OptionMeta, a: Accessor) -> bool {
    let empty = match a {
        Accessor::S => Lit::Str(""),
        Accessor::I => Lit::Int(0),
        Accessor::B => Lit::Bool(false),
    };
    let listed = matches!(o.ty, TypeMeta::IntEnum | TypeMeta::StrEnum);
    listed && o.value(empty).is_none()
}

/// Judges the accessor `written` on `o`'s entry `key`, which the adapter reads with
/// `want`. Returns whether it was the wrong one (and so reported; the value is then not
/// read).
pub(crate) fn wrong(
    obj: &mut ConfigObject,
    lang: Lang,
    o: &OptionMeta,
    (key, at): (&str, Pos),
    want: Accessor,
    written: &str,
) -> bool {
    if written == want.as_str() {
        return false;
    }
    let refused = refuses_empty(o, want);
    let text = messages::accessor(lang, key, want.as_str(), written, reads(want), refused);
    let d = obj.finding(&RULE, o.path, at, text);
    d.hint = Some(format!(
        "custom_op.parameter_map[\"{key}\"].{} = {}",
        want.as_str(),
        example(want)
    ));
    true
}

/// An entry `key` with no value: said for options the spec knows; `false` for other keys,
/// which go through [`super::unknown_option`].
pub(crate) fn empty_entry(obj: &mut ConfigObject, lang: Lang, key: &str, at: Pos) -> bool {
    let Some((o, (_, want))) = names::session(key).and_then(|o| Some((o, o.session?))) else {
        return false;
    };
    let zero = match want {
        Accessor::I => "0",
        Accessor::S => "\"\"",
        Accessor::B => "False",
    };
    let d = obj.finding(&RULE, o.path, at, msg::empty_entry(lang, key, zero));
    d.severity = Severity::Warning;
    d.hint = Some(msg::empty_entry_hint(lang, want.as_str(), key));
    true
}
