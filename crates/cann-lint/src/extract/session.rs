//! TF1 session: `<any name>.parameter_map["key"].i|s|b|list... = value` on the custom
//! optimizer of a `ConfigProto`. Settings on the same receiver in the same function are one
//! session config.

use cann_config::meta::Accessor;
use cann_config::yaml::{Node as Value, Pos};
use tree_sitter::Node;

use super::unknown::{self, Written};
use super::{t, ConfigObject, Extract};
use crate::names;
use crate::{FindingKind, Surface};

fn what(a: Accessor) -> (&'static str, &'static str) {
    match a {
        Accessor::I => ("an integer", "整数"),
        Accessor::S => ("a string", "字符串"),
        Accessor::B => ("a boolean", "布尔值"),
    }
}

fn example(a: Accessor) -> &'static str {
    match a {
        Accessor::I => "<int>",
        Accessor::S => "tf.compat.as_bytes(\"...\")",
        Accessor::B => "True",
    }
}

/// The nearest enclosing function, so that two sessions built in two functions stay apart.
fn scope(mut n: Node<'_>) -> usize {
    while let Some(p) = n.parent() {
        if p.kind() == "function_definition" {
            return p.id();
        }
        n = p;
    }
    0
}

impl Extract<'_, '_> {
    pub(super) fn subscript(&mut self, sub: Node<'_>) {
        let Some(map) = sub.child_by_field_name("value") else {
            return;
        };
        if map.kind() != "attribute"
            || map
                .child_by_field_name("attribute")
                .is_none_or(|a| self.src.text(a) != "parameter_map")
        {
            return;
        }
        let Some(key_node) = sub.child_by_field_name("subscript") else {
            return;
        };
        let Some(key) = matches!(key_node.kind(), "string" | "concatenated_string")
            .then(|| self.src.string(key_node))
            .flatten()
        else {
            return;
        };
        // `parameter_map["k"].s = v` sets a value; `.list.i.extend(...)` and the like set a
        // list. A bare read such as `print(parameter_map["k"].i)` sets nothing.
        let Some(acc_attr) = sub
            .parent()
            .filter(|p| p.kind() == "attribute" && p.child_by_field_name("object") == Some(sub))
        else {
            return;
        };
        let Some(acc_node) = acc_attr.child_by_field_name("attribute") else {
            return;
        };
        let accessor = self.src.text(acc_node);
        let assigned = acc_attr.parent().and_then(|p| {
            (p.kind() == "assignment" && p.child_by_field_name("left") == Some(acc_attr))
                .then(|| p.child_by_field_name("right"))
                .flatten()
        });
        if assigned.is_none() && accessor != "list" {
            return;
        }
        let receiver = map
            .child_by_field_name("object")
            .map(|o| self.src.text(o).to_string())
            .unwrap_or_default();
        let group = (scope(sub), receiver);
        let idx = match self.sessions.get(&group) {
            Some(i) => *i,
            None => {
                let anchor = self.src.pos(sub);
                self.objects
                    .push(ConfigObject::new(Surface::Session, anchor));
                let i = self.objects.len() - 1;
                self.sessions.insert(group, i);
                i
            }
        };
        let at = self.src.pos(key_node);
        let value = assigned.and_then(|v| self.src.literal(v));
        let lang = self.lang;
        let Some(obj) = self.objects.get_mut(idx) else {
            return;
        };
        set(obj, lang, &key, at, accessor, value);
    }
}

fn set(
    obj: &mut ConfigObject,
    lang: cann_config::meta::Lang,
    key: &str,
    at: Pos,
    accessor: &str,
    value: Option<Value>,
) {
    let Some(o) = names::session(key) else {
        let w = Written {
            surface: Surface::Session,
            name: key,
            class: None,
            at,
        };
        unknown::report(obj, lang, w);
        return;
    };
    let Some((_, want)) = o.session else {
        return;
    };
    if accessor != want.as_str() {
        let (en, zh) = what(want);
        let msg = t(
            lang,
            format!("parameter_map[\"{key}\"] is read as {en} (`.{}`); a value set with `.{accessor}` is ignored", want.as_str()),
            format!("parameter_map[\"{key}\"] 按{zh}（`.{}`）读取；通过 `.{accessor}` 设置的值会被忽略", want.as_str()),
        );
        let d = obj.finding(FindingKind::Accessor, o.path, at, msg);
        d.hint = Some(format!(
            "custom_op.parameter_map[\"{key}\"].{} = {}",
            want.as_str(),
            example(want)
        ));
        return;
    }
    if let Some(v) = value {
        obj.doc.insert(o.path, at, super::coerce(o, v));
    }
}
