//! Finding the config objects a script builds, on each API surface, and the settings each
//! one makes.
//!
//! One object is one `NPURunConfig(...)` call (with the classes nested in it), one TF1
//! session's `parameter_map` settings, or one script's `npu.global_options()` settings.
//! Cross-option rules apply within an object, and only between settings that run together
//! (see [`crate::branch`]).
//!
//! Extraction only finds what a script writes; what is wrong with it is judged by the rule
//! modules (`crate::rules`), which the extractors hand each fact to.

mod env;
mod estimator;
pub mod live;
mod session;
mod tf2;

use std::collections::{HashMap, HashSet};

use cann_config::meta::{Lang, OptionMeta, TypeMeta};
use cann_config::yaml::{Kind, Node as Value, Pos};
use tree_sitter::Node;

use crate::branch::Trail;
use crate::imports::Bindings;
use crate::object::{ConfigObject, Setting};
use crate::syntax::Source;

/// `.s` and environment variables carry every value as text; an option whose type is not a
/// string takes the value the adapter would parse out of it, so `.s = b"1"` on an integer
/// option reads as 1.
pub(crate) fn coerce(o: &OptionMeta, v: Value) -> Value {
    let Kind::Str(s) = &v.kind else {
        return v;
    };
    let kind = match o.ty {
        TypeMeta::Int | TypeMeta::IntEnum => s.trim().parse::<i64>().ok().map(Kind::Int),
        TypeMeta::Bool => match s.trim() {
            "1" | "true" | "True" => Some(Kind::Bool(true)),
            "0" | "false" | "False" => Some(Kind::Bool(false)),
            _ => None,
        },
        _ => None,
    };
    match kind {
        Some(kind) => Value { pos: v.pos, kind },
        None => v,
    }
}

/// The walk's state: objects found so far, and names bound along the way.
pub(crate) struct Extract<'s, 'a> {
    src: &'s Source<'a>,
    lang: Lang,
    bindings: Bindings,
    objects: Vec<ConfigObject>,
    /// Sessions by (enclosing function, receiver text): index into `objects`.
    sessions: HashMap<(usize, String), usize>,
    /// The script's `npu.global_options()` object, once one is set.
    tf2: Option<usize>,
    /// Names bound to `npu.global_options()` or to an attribute path below it.
    tf2_aliases: HashMap<String, String>,
    /// Class calls already read as part of an enclosing call.
    consumed: HashSet<usize>,
    /// The script's environment object, whose settings every other object also gets,
    /// since the process environment applies to all of them.
    env: Option<usize>,
}

/// The walk stopped: the tree has more nodes than the budget allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OverBudget {
    /// Where the node that crossed the budget starts.
    pub at: Pos,
}

/// Every config object the script builds, in source order. At most `budget` nodes are
/// visited; past it the walk stops.
pub(crate) fn objects(
    root: Node<'_>,
    src: &Source<'_>,
    lang: Lang,
    budget: usize,
) -> Result<Vec<ConfigObject>, OverBudget> {
    let mut x = Extract {
        src,
        lang,
        bindings: Bindings::of(root, src),
        objects: Vec::new(),
        sessions: HashMap::new(),
        tf2: None,
        tf2_aliases: HashMap::new(),
        consumed: HashSet::new(),
        env: None,
    };
    // An explicit cursor walk: no recursion, so deeply nested code cannot overflow the stack.
    let mut cursor = root.walk();
    let mut trail = Trail::new(root);
    let mut visited = 0usize;
    loop {
        let n = cursor.node();
        visited += 1;
        if visited > budget {
            return Err(OverBudget { at: src.pos(n) });
        }
        match n.kind() {
            "call" => {
                x.environ_call(n, &trail);
                x.call(n, &trail);
            }
            "subscript" => {
                x.environ_subscript(n, &trail);
                x.subscript(n, &trail);
            }
            "assignment" => x.assignment(n, &trail),
            _ => {}
        }
        if cursor.goto_first_child() {
            trail.down(cursor.node());
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                trail.next(cursor.node());
                break;
            }
            if !cursor.goto_parent() {
                return Ok(x.finish());
            }
            trail.up();
        }
    }
}

impl Extract<'_, '_> {
    fn finish(mut self) -> Vec<ConfigObject> {
        if let Some(e) = self.env {
            let shared: Vec<Setting> = self.objects[e]
                .settings
                .iter()
                .map(|s| Setting {
                    borrowed: true,
                    ..s.clone()
                })
                .collect();
            for (i, obj) in self.objects.iter_mut().enumerate() {
                if i != e {
                    obj.settings.extend(shared.iter().cloned());
                }
            }
        }
        // The environment's own object first, so its findings are the ones kept.
        if let Some(i) = self.env {
            let env = self.objects.remove(i);
            self.objects.insert(0, env);
        }
        self.objects
    }
}
