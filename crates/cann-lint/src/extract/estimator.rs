//! TF1 Estimator: `NPURunConfig(...)`, `MemoryConfig(...)` and the other classes, called with
//! keyword arguments, classes nested as arguments of the class that takes them.

use cann_config::meta::{ConfigMeta, TypeMeta};
use tree_sitter::Node;

use super::Extract;
use crate::branch::{Path, Trail};
use crate::object::{ConfigObject, Val, Written};
use crate::rules::{unknown_option, value_type};
use crate::syntax::last_name;
use crate::Surface;
use crate::{names, surface};

/// Classes nested deeper than this are not read; it bounds recursion on hostile input.
const MAX_NESTING: u32 = 8;

impl Extract<'_, '_> {
    /// The adapter's class a call builds, if it is one (not a function of the script's own
    /// with the same name).
    fn class_of(&self, call: Node<'_>) -> Option<&'static ConfigMeta> {
        let func = call.child_by_field_name("function")?;
        let class = names::python_class(last_name(self.src, func)?)?;
        self.bindings.is_adapters(func, self.src).then_some(class)
    }

    /// A class call not already read as the argument of an enclosing one starts an object.
    pub(super) fn call<'t>(&mut self, call: Node<'t>, trail: &Trail<'t>) {
        if self.consumed.contains(&call.id()) {
            return;
        }
        let Some(class) = self.class_of(call) else {
            return;
        };
        let Some(path) = names::class_path(class) else {
            return;
        };
        let pos = self.src.pos(call);
        let mut obj = ConfigObject::new(Surface::Estimator, pos);
        obj.classes.push((path, pos));
        let branch = trail.path_of(call);
        self.class_args(&mut obj, call, class, 0, &branch);
        self.objects.push(obj);
    }

    fn class_args(
        &mut self,
        obj: &mut ConfigObject,
        call: Node<'_>,
        class: &ConfigMeta,
        depth: u32,
        branch: &Path,
    ) {
        let Some(args) = call.child_by_field_name("arguments") else {
            return;
        };
        let mut c = args.walk();
        let kwargs: Vec<Node<'_>> = args
            .named_children(&mut c)
            .filter(|a| a.kind() == "keyword_argument")
            .collect();
        for kw in kwargs {
            let (Some(name_node), Some(value)) = (
                kw.child_by_field_name("name"),
                kw.child_by_field_name("value"),
            ) else {
                continue;
            };
            let name = self.src.text(name_node);
            let at = self.src.pos(name_node);
            let Some(o) = names::estimator(class.name, name) else {
                let literal = self.src.literal(value);
                let w = Written {
                    surface: Surface::Estimator,
                    name,
                    class: Some(class.name),
                    at,
                    span: Some(name_node.byte_range()),
                    accessor: None,
                    value: literal.as_ref(),
                };
                unknown_option::judge(obj, self.lang, w);
                continue;
            };
            if let TypeMeta::Config(want) = o.ty {
                let Some(inner) = (value.kind() == "call")
                    .then(|| self.class_of(value))
                    .flatten()
                else {
                    // A variable holding a class, or a class built elsewhere: not followed.
                    continue;
                };
                if inner.name != want || depth >= MAX_NESTING {
                    // Read on its own when the walk reaches it.
                    continue;
                }
                self.consumed.insert(value.id());
                obj.classes.push((o.path, at));
                self.class_args(obj, value, inner, depth + 1, branch);
                continue;
            }
            let val = match self.src.literal(value) {
                Some(v) => surface::estimator(o, name, &v, self.lang),
                None => Ok(Val::Unknown),
            };
            match val {
                Ok(val) => obj.set(o, at, val, branch.clone()),
                Err(msg) => value_type::refused(obj, o, at, msg, branch.clone()),
            }
        }
    }
}
