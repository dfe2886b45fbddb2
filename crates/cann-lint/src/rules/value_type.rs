//! `value-type`: a value of a type the API refuses; the script raises when it gets there.
//!
//! ```python
//! NPURunConfig(dump_config=1)          # takes a DumpConfig(...)
//! ```
//!
//! Which literal a surface accepts for an option is read in `crate::surface` (the same
//! reading the other rules use to see whether a rename fits); the refusal is judged here.
//! An option set to a refused value counts as set to a value not known, since the script
//! fails before the value matters.

use cann_config::meta::{Lang, OptionMeta};
use cann_config::yaml::{Node as Value, Pos};
use cann_i18n::catalog::lint as msg;

use super::Rule;
use crate::branch::Path;
use crate::object::{ConfigObject, Val};
use crate::FindingKind;

pub(crate) static RULE: Rule = Rule {
    kind: FindingKind::Type,
    id: "value-type",
    summary: msg::rule_type,
};

/// A value the API refuses, with the reason `text` the surface gave: the error, and the
/// option counts as set to an unknown value.
pub(crate) fn refused(
    obj: &mut ConfigObject,
    option: &'static OptionMeta,
    at: Pos,
    text: String,
    path: Path,
) {
    obj.finding(&RULE, option.path, at, text);
    obj.set(option, at, Val::Unknown, path);
}

/// A keyword `kwarg` of `o`, which takes an instance of the class `want`, given `value`
/// instead (anything but a mapping of the class's own keywords, or `None`).
pub(crate) fn not_a_class(
    obj: &mut ConfigObject,
    lang: Lang,
    o: &OptionMeta,
    (kwarg, at): (&str, Pos),
    want: &str,
    value: &Value,
) {
    let text = msg::takes_class(lang, kwarg, want, value.kind.describe());
    let d = obj.finding(&RULE, o.path, at, text);
    d.value = Some(value.display());
    d.hint = Some(format!("{kwarg}={want}(...)"));
}
