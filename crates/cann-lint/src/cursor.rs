//! What a place in a script names, for an editor: the option (or its value) under the
//! cursor, found on the same tree-sitter parse and by the same name tables the linter uses,
//! and what may be typed at a place (see [`crate::complete`]).
//!
//! Offsets are bytes into the text as given; the text is read as [`crate::lint_source`]
//! reads it, lone carriage returns counting as line breaks (offsets do not move).

use cann_config::meta::{OptionMeta, ValueMeta};
use cann_config::yaml::{Kind, Node as Value};
use tree_sitter::Node;

use crate::names;
use crate::syntax::{last_name, Source};
use crate::Surface;

/// What the cursor is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// An option's name on an API surface.
    Option(&'static OptionMeta),
    /// A value of an option, as the spec lists it.
    Value(&'static OptionMeta, &'static ValueMeta),
}

/// A [`Target`] and the bytes of the text that name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub target: Target,
    pub surface: Surface,
    pub span: std::ops::Range<usize>,
}

/// Scripts larger than this are not parsed for a hover (the linter's own cap applies too).
const MAX_BYTES: usize = crate::walk::MAX_SCRIPT_BYTES as usize;

/// The option or value named at byte `offset` of `text`, if any.
pub fn hit_at(text: &str, offset: usize) -> Option<Hit> {
    if text.len() > MAX_BYTES || offset > text.len() {
        return None;
    }
    let text = crate::normalize_newlines(text);
    // Only the statement around the cursor: a hover on a long script stays a few
    // milliseconds, and what it names is read from the syntax around it.
    let block = crate::select::block_around(&text, offset);
    let tree = crate::parse(&text, block.as_ref().map(std::slice::from_ref)).ok()??;
    let src = Source::new(&text);
    let leaf = tree.root_node().descendant_for_byte_range(offset, offset)?;
    // The cursor right after a name (`key|"`) still means that name.
    let leaf = match leaf.kind() {
        "string_end" | "\"" | "'" | ")" | "]" | "," | "=" => leaf.parent().unwrap_or(leaf),
        _ => leaf,
    };
    name_hit(leaf, &src)
        .or_else(|| value_hit(leaf, &src))
        .or_else(|| open_keyword(&text, offset))
}

/// A keyword of a class call that is not closed yet (`NPURunConfig(precision_mode=...`
/// being typed), which tree-sitter cannot make a call of: read from the text, as
/// completion reads it.
fn open_keyword(text: &str, offset: usize) -> Option<Hit> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let start = text.get(..offset)?.trim_end_matches(is_word).len();
    let end =
        offset + text.get(offset..)?.len() - text.get(offset..)?.trim_start_matches(is_word).len();
    let word = text.get(start..end)?;
    let rest = text.get(end..)?.trim_start_matches([' ', '\t']);
    if word.is_empty() || !rest.starts_with('=') || rest.starts_with("==") {
        return None;
    }
    let class = crate::complete::open_class(text.get(..start)?)?;
    let o = names::estimator(class, word)?;
    Some(Hit {
        target: Target::Option(o),
        surface: Surface::Estimator,
        span: start..end,
    })
}

/// The string literal `n` is, or is inside.
fn string_node(n: Node<'_>) -> Option<Node<'_>> {
    let mut cur = n;
    for _ in 0..3 {
        if cur.kind() == "string" {
            return Some(cur);
        }
        cur = cur.parent()?;
    }
    None
}

fn name_hit(leaf: Node<'_>, src: &Source<'_>) -> Option<Hit> {
    if let Some(s) = string_node(leaf) {
        let name = src.string(s)?;
        let span = s.byte_range();
        let (surface, o) = string_name(s, &name, src)?;
        return Some(Hit {
            target: Target::Option(o),
            surface,
            span,
        });
    }
    if leaf.kind() != "identifier" {
        return None;
    }
    let parent = leaf.parent()?;
    let name = src.text(leaf);
    match parent.kind() {
        "keyword_argument" if parent.child_by_field_name("name") == Some(leaf) => {
            let class = enclosing_class(parent, src)?;
            let o = names::estimator(class, name).or_else(|| {
                names::retired(Surface::Estimator, Some(class), name).map(|(o, _)| o)
            })?;
            Some(Hit {
                target: Target::Option(o),
                surface: Surface::Estimator,
                span: leaf.byte_range(),
            })
        }
        "attribute" if parent.child_by_field_name("attribute") == Some(leaf) => {
            let path = tf2_path(parent, src)?;
            let o = names::tf2(&path)
                .or_else(|| names::retired(Surface::Tf2, None, &path).map(|(o, _)| o))?;
            Some(Hit {
                target: Target::Option(o),
                surface: Surface::Tf2,
                span: leaf.byte_range(),
            })
        }
        _ => None,
    }
}

/// A string that names an option: a `parameter_map` key or an environment variable.
fn string_name(
    s: Node<'_>,
    name: &str,
    src: &Source<'_>,
) -> Option<(Surface, &'static OptionMeta)> {
    let parent = s.parent()?;
    if parent.kind() == "subscript" && parent.child_by_field_name("subscript") == Some(s) {
        let map = parent.child_by_field_name("value")?;
        return match last_name(src, map)? {
            "parameter_map" => names::session(name)
                .or_else(|| names::retired(Surface::Session, None, name).map(|(o, _)| o))
                .map(|o| (Surface::Session, o)),
            "environ" => env(name),
            _ => None,
        };
    }
    // `os.environ.setdefault("NAME", ...)`, `os.environ.get("NAME")`, `os.putenv("NAME", ...)`
    if parent.kind() == "argument_list" && parent.named_child(0) == Some(s) {
        let call = parent.parent()?;
        let func = call.child_by_field_name("function")?;
        let environ = func
            .child_by_field_name("object")
            .is_some_and(|o| last_name(src, o) == Some("environ"));
        return match last_name(src, func)? {
            "setdefault" | "get" | "pop" if environ => env(name),
            "putenv" | "getenv" => env(name),
            _ => None,
        };
    }
    None
}

fn env(name: &str) -> Option<(Surface, &'static OptionMeta)> {
    names::env(name)
        .or_else(|| names::retired(Surface::Env, None, name).map(|(o, _)| o))
        .map(|o| (Surface::Env, o))
}

/// The spec class whose call `kw` (a keyword argument) is written in.
fn enclosing_class<'a>(kw: Node<'_>, src: &Source<'a>) -> Option<&'static str> {
    let args = kw.parent().filter(|p| p.kind() == "argument_list")?;
    let call = args.parent().filter(|p| p.kind() == "call")?;
    let func = call.child_by_field_name("function")?;
    names::python_class(last_name(src, func)?).map(|c| c.name)
}

/// The attribute path below `global_options()` that the attribute `n` denotes.
fn tf2_path(n: Node<'_>, src: &Source<'_>) -> Option<String> {
    let mut segs: Vec<&str> = Vec::new();
    let mut cur = n;
    for _ in 0..16 {
        match cur.kind() {
            "attribute" => {
                segs.push(src.text(cur.child_by_field_name("attribute")?));
                cur = cur.child_by_field_name("object")?;
            }
            "call" => {
                let func = cur.child_by_field_name("function")?;
                if last_name(src, func)? != "global_options" {
                    return None;
                }
                segs.reverse();
                return Some(segs.join("."));
            }
            _ => return None,
        }
    }
    None
}

/// A literal that is the value an option is set to, and the spec's entry for that value.
fn value_hit(leaf: Node<'_>, src: &Source<'_>) -> Option<Hit> {
    let mut lit = string_node(leaf).unwrap_or(leaf);
    if !matches!(
        lit.kind(),
        "string" | "integer" | "true" | "false" | "unary_operator"
    ) {
        lit = leaf.parent().filter(|p| p.kind() == "unary_operator")?;
    }
    // `tf.compat.as_bytes("x")`: the value is the call's.
    let mut value = lit;
    if let Some(call) = lit
        .parent()
        .filter(|p| p.kind() == "argument_list")
        .and_then(|a| a.parent())
        .filter(|c| c.kind() == "call")
    {
        if src.literal(call).is_some() {
            value = call;
        }
    }
    let (o, surface) = option_of_value(value, src)?;
    let v = crate::extract::coerce(o, src.literal(value)?);
    let meta = o.values.iter().find(|m| {
        std::iter::once(&m.value)
            .chain(m.aliases)
            .any(|l| same(*l, &v))
    })?;
    Some(Hit {
        target: Target::Value(o, meta),
        surface,
        span: lit.byte_range(),
    })
}

fn same(l: cann_config::meta::Lit, v: &Value) -> bool {
    use cann_config::meta::Lit;
    match (l, &v.kind) {
        (Lit::Bool(a), Kind::Bool(b)) => a == *b,
        (Lit::Int(a), Kind::Int(b)) => a == *b,
        (Lit::Str(a), Kind::Str(b)) => a == b,
        _ => false,
    }
}

/// The option a value expression is assigned to or passed as.
fn option_of_value(value: Node<'_>, src: &Source<'_>) -> Option<(&'static OptionMeta, Surface)> {
    let parent = value.parent()?;
    match parent.kind() {
        "keyword_argument" if parent.child_by_field_name("value") == Some(value) => {
            let name = src.text(parent.child_by_field_name("name")?);
            let class = enclosing_class(parent, src)?;
            Some((names::estimator(class, name)?, Surface::Estimator))
        }
        "assignment" if parent.child_by_field_name("right") == Some(value) => {
            let left = parent.child_by_field_name("left")?;
            match left.kind() {
                // `x.parameter_map["k"].s = v`
                "attribute" => {
                    let obj = left.child_by_field_name("object")?;
                    if obj.kind() == "subscript" {
                        let key = obj.child_by_field_name("subscript")?;
                        let map = obj.child_by_field_name("value")?;
                        if last_name(src, map)? != "parameter_map" {
                            return None;
                        }
                        return Some((names::session(&src.string(key)?)?, Surface::Session));
                    }
                    Some((names::tf2(&tf2_path(left, src)?)?, Surface::Tf2))
                }
                // `os.environ["NAME"] = v`
                "subscript" => {
                    let map = left.child_by_field_name("value")?;
                    if last_name(src, map)? != "environ" {
                        return None;
                    }
                    let key = left.child_by_field_name("subscript")?;
                    Some((names::env(&src.string(key)?)?, Surface::Env))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
#[path = "cursor_tests.rs"]
mod tests;
