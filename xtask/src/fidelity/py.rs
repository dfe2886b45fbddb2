//! Facts read from the adapter's Python with tree-sitter: constructor signatures of the
//! TF1 config classes, and the `OptionValue` tree behind TF2's `npu.global_options()`.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tree_sitter::{Node, Parser, Tree};

use super::Error;

/// A parsed Python file and its text.
pub struct Source {
    text: String,
    tree: Tree,
}

impl Source {
    pub fn parse(path: String, text: String) -> Result<Self, Error> {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_python::LANGUAGE.into())
            .map_err(|e| Error::Parse(path.clone(), e.to_string()))?;
        let tree = parser
            .parse(&text, None)
            .ok_or_else(|| Error::Parse(path.clone(), "tree-sitter gave no tree".into()))?;
        if tree.root_node().has_error() {
            return Err(Error::Parse(path, "the file has syntax errors".into()));
        }
        Ok(Source { text, tree })
    }

    fn text(&self, n: Node<'_>) -> &str {
        n.utf8_text(self.text.as_bytes()).unwrap_or_default()
    }

    /// `class NAME(...)` definitions at the top of the file, with their `__init__`.
    pub fn classes(&self) -> Vec<(String, Node<'_>)> {
        let root = self.tree.root_node();
        let mut cursor = root.walk();
        root.named_children(&mut cursor)
            .filter(|n| n.kind() == "class_definition")
            .filter_map(|c| {
                let name = self.text(c.child_by_field_name("name")?).to_string();
                let init = init_of(self, c)?;
                Some((name, init))
            })
            .collect()
    }

    /// A literal as JSON; anything else (a call, a name) as `{"expr": "<source>"}`.
    pub fn literal(&self, n: Node<'_>) -> Value {
        match n.kind() {
            "integer" => self
                .text(n)
                .parse::<i64>()
                .map_or_else(|_| json!({ "expr": self.text(n) }), Value::from),
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "none" => Value::Null,
            "string" => match string_value(self, n) {
                Some(s) => Value::from(s),
                None => json!({ "expr": self.text(n) }),
            },
            "unary_operator" => match self.text(n).replace(' ', "").parse::<i64>() {
                Ok(i) => Value::from(i),
                Err(_) => json!({ "expr": self.text(n) }),
            },
            "list" | "tuple" => {
                let mut c = n.walk();
                Value::Array(n.named_children(&mut c).map(|x| self.literal(x)).collect())
            }
            _ => json!({ "expr": self.text(n) }),
        }
    }
}

fn init_of<'t>(src: &Source, class: Node<'t>) -> Option<Node<'t>> {
    let body = class.child_by_field_name("body")?;
    let mut c = body.walk();
    let found = body.named_children(&mut c).find(|f| {
        f.kind() == "function_definition"
            && f.child_by_field_name("name")
                .is_some_and(|n| src.text(n) == "__init__")
    });
    found
}

/// The value of a plain string literal (no f-string, no implicit concatenation).
fn string_value(src: &Source, n: Node<'_>) -> Option<String> {
    let mut c = n.walk();
    let mut out = String::new();
    for part in n.named_children(&mut c) {
        match part.kind() {
            "string_start" | "string_end" => {
                if src.text(part).contains(['f', 'F', 'b', 'B']) {
                    return None;
                }
            }
            "string_content" => out.push_str(src.text(part)),
            _ => return None,
        }
    }
    Some(out)
}

/// `def __init__(self, a, b=1, ...)` of every class: parameters in order, each with its
/// default or `required`.
pub fn constructors(src: &Source) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for (class, init) in src.classes() {
        let Some(params) = init.child_by_field_name("parameters") else {
            continue;
        };
        let mut c = params.walk();
        let list: Vec<Value> = params
            .named_children(&mut c)
            .filter_map(|p| match p.kind() {
                "identifier" if src.text(p) != "self" => {
                    Some(json!({ "name": src.text(p), "required": true }))
                }
                "default_parameter" => Some(json!({
                    "name": src.text(p.child_by_field_name("name")?),
                    "default": src.literal(p.child_by_field_name("value")?),
                })),
                _ => None,
            })
            .collect();
        out.insert(class, Value::Array(list));
    }
    out
}

/// One `self.NAME = CALL(...)` in a TF2 config class.
pub enum Attr {
    /// `OptionValue(default, optional)` or `DeprecatedValue(optional, replacement=...)`.
    Option(Value),
    /// Another config class, instantiated: its options sit below `NAME.`.
    Nested(String),
}

/// The attributes of each TF2 config class, in declaration order.
pub fn tf2_classes(src: &Source) -> BTreeMap<String, Vec<(String, Attr)>> {
    let mut out = BTreeMap::new();
    for (class, init) in src.classes() {
        let Some(body) = init.child_by_field_name("body") else {
            continue;
        };
        let mut attrs = Vec::new();
        let mut c = body.walk();
        for stmt in body.named_children(&mut c) {
            if let Some(a) = self_assignment(src, stmt) {
                attrs.push(a);
            }
        }
        out.insert(class, attrs);
    }
    out
}

fn self_assignment(src: &Source, stmt: Node<'_>) -> Option<(String, Attr)> {
    let assign = stmt.named_child(0).filter(|a| a.kind() == "assignment")?;
    let left = assign.child_by_field_name("left")?;
    let right = assign.child_by_field_name("right")?;
    if left.kind() != "attribute" || right.kind() != "call" {
        return None;
    }
    if src.text(left.child_by_field_name("object")?) != "self" {
        return None;
    }
    let name = src.text(left.child_by_field_name("attribute")?).to_string();
    let func = src.text(right.child_by_field_name("function")?).to_string();
    let args = right.child_by_field_name("arguments")?;
    let mut c = args.walk();
    let mut positional = Vec::new();
    let mut keywords = BTreeMap::new();
    for a in args.named_children(&mut c) {
        if a.kind() == "keyword_argument" {
            let k = src.text(a.child_by_field_name("name")?).to_string();
            keywords.insert(k, src.literal(a.child_by_field_name("value")?));
        } else {
            positional.push(src.literal(a));
        }
    }
    let attr = match func.as_str() {
        "OptionValue" => Attr::Option(json!({
            "default": positional.first().cloned().unwrap_or(Value::Null),
            "values": positional.get(1).cloned().unwrap_or(Value::Null),
        })),
        "DeprecatedValue" => Attr::Option(json!({
            "default": Value::Null,
            "values": positional.first().cloned().unwrap_or(Value::Null),
            "deprecated": { "replacement": keywords.get("replacement").cloned().unwrap_or(Value::Null) },
        })),
        _ if positional.is_empty() && keywords.is_empty() => Attr::Nested(func),
        _ => return None,
    };
    Some((name, attr))
}

/// Flattens the class tree from `root` into `path -> facts`, paths as
/// `npu.global_options()` spells them (`dump_config.enable_dump`).
pub fn tf2_paths(
    classes: &BTreeMap<String, Vec<(String, Attr)>>,
    root: &str,
) -> Result<BTreeMap<String, Value>, Error> {
    fn walk(
        classes: &BTreeMap<String, Vec<(String, Attr)>>,
        class: &str,
        prefix: &str,
        depth: usize,
        out: &mut BTreeMap<String, Value>,
    ) -> Result<(), Error> {
        let attrs = classes
            .get(class)
            .ok_or_else(|| Error::Missing(format!("TF2 config class `{class}`")))?;
        if depth > 8 {
            return Err(Error::Missing(format!(
                "an end to the nesting at `{class}`"
            )));
        }
        for (name, attr) in attrs {
            let path = format!("{prefix}{name}");
            match attr {
                Attr::Option(v) => {
                    out.insert(path, v.clone());
                }
                Attr::Nested(c) => walk(classes, c, &format!("{path}."), depth + 1, out)?,
            }
        }
        Ok(())
    }
    let mut out = BTreeMap::new();
    walk(classes, root, "", 0, &mut out)?;
    Ok(out)
}
