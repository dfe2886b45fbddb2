//! Environment variables a script sets for itself: `os.environ["NAME"] = value`,
//! `os.environ.setdefault("NAME", value)` and `os.putenv("NAME", value)`. They apply to the
//! whole process, so they are checked on their own and together with each config object of
//! the script (for rules such as `GE_USE_STATIC_MEMORY` with `static_memory_policy`).

use cann_config::yaml::Pos;
use tree_sitter::Node;

use super::Extract;
use crate::branch::Trail;
use crate::object::{ConfigObject, Val, Written};
use crate::rules::{unknown_option, value_type};
use crate::syntax::{last_name, string_content};
use crate::Surface;
use crate::{names, surface};

impl Extract<'_, '_> {
    fn is_environ(&self, n: Node<'_>) -> bool {
        last_name(self.src, n) == Some("environ")
    }

    pub(super) fn environ_subscript<'t>(&mut self, sub: Node<'t>, trail: &Trail<'t>) {
        if !sub
            .child_by_field_name("value")
            .is_some_and(|v| self.is_environ(v))
        {
            return;
        }
        // `sub` is the walk's current node.
        let Some(assign) = trail
            .ancestor(1)
            .filter(|p| p.kind() == "assignment" && p.child_by_field_name("left") == Some(sub))
        else {
            return;
        };
        let Some(key) = sub.child_by_field_name("subscript") else {
            return;
        };
        self.env_set(key, assign.child_by_field_name("right"), trail);
    }

    pub(super) fn environ_call<'t>(&mut self, call: Node<'t>, trail: &Trail<'t>) {
        let Some(func) = call.child_by_field_name("function") else {
            return;
        };
        let setter = match last_name(self.src, func) {
            Some("setdefault") => func
                .child_by_field_name("object")
                .is_some_and(|o| self.is_environ(o)),
            Some("putenv") => true,
            _ => false,
        };
        if !setter {
            return;
        }
        let Some(args) = call.child_by_field_name("arguments") else {
            return;
        };
        let mut c = args.walk();
        let positional: Vec<Node<'t>> = args
            .named_children(&mut c)
            .filter(|a| a.kind() != "comment" && a.kind() != "keyword_argument")
            .collect();
        if let Some(key) = positional.first() {
            self.env_set(*key, positional.get(1).copied(), trail);
        }
    }

    fn env_set<'t>(&mut self, key: Node<'t>, value: Option<Node<'t>>, trail: &Trail<'t>) {
        let path = trail.path_of(key);
        let Some(name) = matches!(key.kind(), "string" | "concatenated_string")
            .then(|| self.src.string(key))
            .flatten()
        else {
            return;
        };
        let at: Pos = self.src.pos(key);
        let idx = match self.env {
            Some(i) => i,
            None => {
                self.objects.push(ConfigObject::new(Surface::Env, at));
                let i = self.objects.len() - 1;
                self.env = Some(i);
                i
            }
        };
        let literal = value.map(|v| self.src.literal(v));
        let lang = self.lang;
        let Some(obj) = self.objects.get_mut(idx) else {
            return;
        };
        let Some(o) = names::env(&name) else {
            let w = Written {
                surface: Surface::Env,
                name: &name,
                class: None,
                at,
                span: string_content(key),
                accessor: None,
                value: literal.as_ref().and_then(Option::as_ref),
            };
            unknown_option::judge(obj, lang, w);
            return;
        };
        let val = match literal.flatten() {
            Some(v) => surface::env(o, &name, &v, lang),
            None => Ok(Val::Unknown),
        };
        match val {
            Ok(val) => obj.set(o, at, val, path),
            Err(msg) => value_type::refused(obj, o, at, msg, path),
        }
    }
}
