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
        TypeMeta::Float => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(Kind::Float),
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

/// Where the script names an option surface at all ([`crate::names::triggers`]: the
/// names without which code sets no option), sorted by start. Every setting, class call,
/// environment write and `global_options()` binding holds one of them, so the walk does
/// not go into a subtree that holds none, unless a name bound to `global_options()` is in
/// play (its uses hold only that name).
struct Mentions(Vec<(usize, usize)>);

impl Mentions {
    /// `None` when the matcher could not be built: then every subtree is walked.
    fn of(text: &str) -> Option<Mentions> {
        let ac = crate::TRIGGERS.as_ref()?;
        let mut at: Vec<(usize, usize)> = ac
            .find_overlapping_iter(text.as_bytes())
            .map(|m| (m.start(), m.end()))
            .collect();
        at.sort_unstable();
        Some(Mentions(at))
    }

    /// Whether a mention lies wholly within `start..end`.
    fn within(&self, start: usize, end: usize) -> bool {
        let i = self.0.partition_point(|m| m.0 < start);
        self.0[i..]
            .iter()
            .take_while(|m| m.0 < end)
            .any(|m| m.1 <= end)
    }
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
    objects_skipping(root, src, lang, budget, Mentions::of(src.text).as_ref())
}

/// [`objects`], going into only the subtrees that `mentions` allows (all, for `None`).
fn objects_skipping(
    root: Node<'_>,
    src: &Source<'_>,
    lang: Lang,
    budget: usize,
    mentions: Option<&Mentions>,
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
        let barren = x.tf2_aliases.is_empty()
            && mentions.is_some_and(|m| !m.within(n.start_byte(), n.end_byte()));
        if !barren && cursor.goto_first_child() {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// Walking only the subtrees that mention a surface finds what walking every node
    /// finds, on every script of the fixtures and their patterns.
    #[test]
    fn skipping_barren_subtrees_finds_the_same_objects() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut files = Vec::new();
        for d in [dir.clone(), dir.join("patterns")] {
            for e in std::fs::read_dir(d).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "py") {
                    files.push(p);
                }
            }
        }
        assert!(files.len() > 10, "{files:?}");
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_python::LANGUAGE.into())
            .unwrap();
        let mut objects_seen = 0;
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let tree = p.parse(&text, None).unwrap();
            let src = Source::new(&text);
            let m = Mentions::of(&text);
            assert!(m.is_some());
            let some = objects_skipping(tree.root_node(), &src, Lang::En, 1 << 20, m.as_ref());
            let all = objects_skipping(tree.root_node(), &src, Lang::En, 1 << 20, None);
            assert_eq!(format!("{some:?}"), format!("{all:?}"), "{}", f.display());
            objects_seen += all.unwrap().len();
        }
        assert!(objects_seen > 20, "{objects_seen}");
    }
}
