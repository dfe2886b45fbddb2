//! TF1 session: `<any name>.parameter_map["key"].i|s|b|list... = value` on the custom
//! optimizer of a `ConfigProto`. Settings on the same receiver in the same function are one
//! session config.

use cann_config::meta::Lang;
use cann_config::yaml::{Node as Value, Pos};
use tree_sitter::Node;

use super::Extract;
use crate::branch::{Path, Trail};
use crate::object::{ConfigObject, Val, Written};
use crate::rules::{session_accessor, unknown_option, value_type};
use crate::syntax::string_content;
use crate::Surface;
use crate::{names, surface};

impl Extract<'_, '_> {
    /// `sub` is the walk's current node, at the end of `trail`.
    pub(super) fn subscript<'t>(&mut self, sub: Node<'t>, trail: &Trail<'t>) {
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
        let Some(acc_attr) = trail
            .ancestor(1)
            .filter(|p| p.kind() == "attribute" && p.child_by_field_name("object") == Some(sub))
        else {
            return;
        };
        let Some(acc_node) = acc_attr.child_by_field_name("attribute") else {
            return;
        };
        let accessor = self.src.text(acc_node);
        let assigned = trail.ancestor(2).and_then(|p| {
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
        // The nearest enclosing function: two sessions built in two functions stay apart.
        let group = (trail.enclosing("function_definition"), receiver);
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
        // `None` from `literal` is an expression whose value is known only at run time.
        let value = assigned.map(|v| self.src.literal(v));
        let path = trail.path_of(sub);
        let lang = self.lang;
        let Some(obj) = self.objects.get_mut(idx) else {
            return;
        };
        let site = Site {
            key: &key,
            at,
            span: string_content(key_node),
            accessor,
        };
        set(obj, lang, &site, value, path);
    }
}

/// Where a `parameter_map[key].accessor` is written.
pub(super) struct Site<'a> {
    pub key: &'a str,
    pub at: Pos,
    /// The key's text between its quotes.
    pub span: Option<std::ops::Range<usize>>,
    pub accessor: &'a str,
}

/// One `parameter_map[key].accessor = value`; `value` is `None` for `.list...` calls and
/// `Some(None)` for a value that is not a literal.
pub(super) fn set(
    obj: &mut ConfigObject,
    lang: Lang,
    site: &Site<'_>,
    value: Option<Option<Value>>,
    path: Path,
) {
    let (key, at, accessor) = (site.key, site.at, site.accessor);
    let Some(o) = names::session(key) else {
        let literal = value.as_ref().and_then(Option::as_ref);
        let w = Written {
            surface: Surface::Session,
            name: key,
            class: None,
            at,
            span: site.span.clone(),
            accessor: Some(accessor),
            value: literal,
        };
        unknown_option::judge(obj, lang, w);
        return;
    };
    let Some((_, want)) = o.session else {
        return;
    };
    if session_accessor::wrong(obj, lang, o, (key, at), want, accessor) {
        return;
    }
    match value.flatten() {
        Some(v) => match surface::session(o, want, &v, lang) {
            Ok(val) => obj.set(o, at, val, path),
            Err(msg) => value_type::refused(obj, o, at, msg, path),
        },
        None => obj.set(o, at, Val::Unknown, path),
    }
}
