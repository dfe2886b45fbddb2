//! Finding the config objects a script builds, on each API surface, as trees shaped like a
//! user config file so that `cann_config` reads and validates them as it does a file.
//!
//! One object is one `NPURunConfig(...)` call (with the classes nested in it), one TF1
//! session's `parameter_map` settings, or one script's `npu.global_options()` settings.
//! Cross-option rules apply within an object.

mod env;
mod estimator;
mod session;
mod tf2;
mod unknown;

use std::collections::{HashMap, HashSet};

use cann_config::meta::{Lang, OptionMeta, Severity, TypeMeta};
use cann_config::yaml::{Kind, Node as Value, Pos};
use cann_config::Diagnostic;
use tree_sitter::Node;

use crate::syntax::Source;
use crate::{Finding, FindingKind, Surface};

/// The options one object sets, as a config-file tree, and what was wrong before reading it.
pub(crate) struct ConfigObject {
    pub surface: Surface,
    /// Where the object starts; findings with no position of their own go here.
    pub anchor: Pos,
    pub doc: Doc,
    pub findings: Vec<Finding>,
}

impl ConfigObject {
    fn new(surface: Surface, anchor: Pos) -> Self {
        ConfigObject {
            surface,
            anchor,
            doc: Doc::default(),
            findings: Vec::new(),
        }
    }

    fn finding(
        &mut self,
        kind: FindingKind,
        option: &str,
        pos: Pos,
        message: String,
    ) -> &mut Diagnostic {
        let mut d = Diagnostic::new(Severity::Error, option, message);
        d.line = Some(pos.line);
        d.column = Some(pos.col);
        self.findings.push(Finding {
            surface: self.surface,
            kind,
            diagnostic: d,
        });
        let last = self.findings.len() - 1;
        &mut self.findings[last].diagnostic
    }
}

/// A config-file tree under construction. Keys carry the positions of the Python names
/// that set them; a key set twice keeps the later value, as Python does.
#[derive(Default)]
pub(crate) struct Doc {
    entries: Vec<(Value, Value)>,
}

fn key(pos: Pos, name: &str) -> Value {
    Value {
        pos,
        kind: Kind::Str(name.to_string()),
    }
}

fn map_at<'a>(
    entries: &'a mut Vec<(Value, Value)>,
    segs: &[&str],
    pos: Pos,
) -> Option<&'a mut Vec<(Value, Value)>> {
    let Some((first, rest)) = segs.split_first() else {
        return Some(entries);
    };
    let idx = match entries.iter().position(|(k, _)| k.as_str() == Some(first)) {
        Some(i) => i,
        None => {
            entries.push((
                key(pos, first),
                Value {
                    pos,
                    kind: Kind::Map(Vec::new()),
                },
            ));
            entries.len() - 1
        }
    };
    let (_, v) = entries.get_mut(idx)?;
    if !matches!(v.kind, Kind::Map(_)) {
        *v = Value {
            pos,
            kind: Kind::Map(Vec::new()),
        };
    }
    match &mut v.kind {
        Kind::Map(m) => map_at(m, rest, pos),
        _ => None,
    }
}

impl Doc {
    /// Makes sure the class at `path` is present, even with no option set in it.
    pub fn ensure_map(&mut self, path: &str, pos: Pos) {
        let segs: Vec<&str> = path.split('.').collect();
        let _ = map_at(&mut self.entries, &segs, pos);
    }

    pub fn insert(&mut self, path: &str, key_pos: Pos, value: Value) {
        let segs: Vec<&str> = path.split('.').collect();
        let Some((last, parents)) = segs.split_last() else {
            return;
        };
        let Some(map) = map_at(&mut self.entries, parents, key_pos) else {
            return;
        };
        match map.iter_mut().find(|(k, _)| k.as_str() == Some(last)) {
            Some(slot) => *slot = (key(key_pos, last), value),
            None => map.push((key(key_pos, last), value)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn to_node(&self, pos: Pos) -> Value {
        Value {
            pos,
            kind: Kind::Map(self.entries.clone()),
        }
    }
}

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

/// Text for the two languages; the surface findings are ours, so both are written here.
pub(crate) fn t(lang: Lang, en: String, zh: String) -> String {
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

pub(crate) struct Extract<'s, 'a> {
    src: &'s Source<'a>,
    lang: Lang,
    objects: Vec<ConfigObject>,
    /// Sessions by (enclosing function, receiver text): index into `objects`.
    sessions: HashMap<(usize, String), usize>,
    /// The script's `npu.global_options()` object, once one is set.
    tf2: Option<usize>,
    /// Names bound to `npu.global_options()` or to an attribute path below it.
    tf2_aliases: HashMap<String, String>,
    /// Class calls already read as part of an enclosing call.
    consumed: HashSet<usize>,
    /// The script's environment settings: their own object, and the entries every other
    /// object of the script also gets, since the process environment applies to all.
    env: Option<usize>,
    env_entries: Vec<(&'static str, Pos, Value)>,
}

/// Every config object the script builds, in source order.
pub(crate) fn objects(root: Node<'_>, src: &Source<'_>, lang: Lang) -> Vec<ConfigObject> {
    let mut x = Extract {
        src,
        lang,
        objects: Vec::new(),
        sessions: HashMap::new(),
        tf2: None,
        tf2_aliases: HashMap::new(),
        consumed: HashSet::new(),
        env: None,
        env_entries: Vec::new(),
    };
    // An explicit cursor walk: no recursion, so deeply nested code cannot overflow the stack.
    let mut cursor = root.walk();
    loop {
        let n = cursor.node();
        match n.kind() {
            "call" => {
                x.environ_call(n);
                x.call(n);
            }
            "subscript" => {
                x.environ_subscript(n);
                x.subscript(n);
            }
            "assignment" => x.assignment(n),
            _ => {}
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return x.finish();
            }
        }
    }
}

impl Extract<'_, '_> {
    fn finish(mut self) -> Vec<ConfigObject> {
        for (i, obj) in self.objects.iter_mut().enumerate() {
            if Some(i) == self.env {
                continue;
            }
            for (path, at, v) in &self.env_entries {
                obj.doc.insert(path, *at, v.clone());
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
