//! The Python side: positions of tree-sitter nodes, and literal values as config nodes.
//!
//! Only literals are read. A name, a flag or any other call is not guessed at: the value of
//! such an expression is known only when the script runs.

use cann_config::yaml::{Kind, Node as Value, Pos};
use tree_sitter::Node;

/// Deeper nesting than this is not a config value anyone writes; it bounds recursion.
const MAX_DEPTH: u32 = 32;

/// List and tuple literals longer than this are data, not a config value; they are not read.
const MAX_ITEMS: usize = 10_000;

/// A script's text with what is needed to turn byte offsets into 1-based line:column.
pub(crate) struct Source<'a> {
    pub text: &'a str,
    /// The last position computed: (line start, byte offset, characters from line start).
    /// Positions are asked for in source order, so counting on from the last one keeps a
    /// long line linear rather than quadratic.
    last: std::cell::Cell<(usize, usize, usize)>,
}

impl<'a> Source<'a> {
    pub fn new(text: &'a str) -> Self {
        Source {
            text,
            last: std::cell::Cell::new((0, 0, 0)),
        }
    }

    pub fn text(&self, n: Node<'_>) -> &'a str {
        self.text.get(n.byte_range()).unwrap_or("")
    }

    /// Line and column (in characters, as editors count them) where `n` starts.
    pub fn pos(&self, n: Node<'_>) -> Pos {
        let p = n.start_position();
        let start = n.start_byte();
        let line_start = start.saturating_sub(p.column);
        let (last_line, last_byte, last_chars) = self.last.get();
        let (from, base) = if last_line == line_start && last_byte <= start {
            (last_byte, last_chars)
        } else {
            (line_start, 0)
        };
        let col = self
            .text
            .get(from..start)
            .map_or(p.column, |s| base + s.chars().count());
        self.last.set((line_start, start, col));
        Pos {
            line: u32::try_from(p.row + 1).unwrap_or(u32::MAX),
            col: u32::try_from(col + 1).unwrap_or(u32::MAX),
        }
    }

    /// The value of a literal expression, or `None` when it is not a literal.
    pub fn literal(&self, n: Node<'_>) -> Option<Value> {
        self.literal_at(n, 0)
    }

    fn literal_at(&self, n: Node<'_>, depth: u32) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let kind = match n.kind() {
            "integer" => Kind::Int(int(self.text(n))?),
            "float" => Kind::Float(float(self.text(n))?),
            "true" => Kind::Bool(true),
            "false" => Kind::Bool(false),
            "none" => Kind::Null,
            "string" | "concatenated_string" => Kind::Str(self.string(n)?),
            "unary_operator" => {
                let arg = self.literal_at(n.child_by_field_name("argument")?, depth + 1)?;
                let op = self.text(n.child_by_field_name("operator")?);
                match (op, arg.kind) {
                    ("-", Kind::Int(i)) => Kind::Int(i.checked_neg()?),
                    ("-", Kind::Float(f)) => Kind::Float(-f),
                    ("+", k @ (Kind::Int(_) | Kind::Float(_))) => k,
                    _ => return None,
                }
            }
            "parenthesized_expression" => {
                let inner = n.named_child(0)?;
                return self.literal_at(inner, depth + 1).map(|v| Value {
                    pos: self.pos(n),
                    kind: v.kind,
                });
            }
            "list" | "tuple" => {
                if n.named_child_count() > MAX_ITEMS {
                    return None;
                }
                let mut items = Vec::new();
                let mut c = n.walk();
                for child in n.named_children(&mut c) {
                    if child.kind() == "comment" {
                        continue;
                    }
                    items.push(self.literal_at(child, depth + 1)?);
                }
                Kind::Seq(items)
            }
            "call" => return self.wrapper(n, depth),
            _ => return None,
        };
        Some(Value {
            pos: self.pos(n),
            kind,
        })
    }

    /// The documented ways of writing a string for `parameter_map[...].s`:
    /// `tf.compat.as_bytes("x")` (and `as_text`, `as_str`), `str(x)`, `bytes("x", ...)`,
    /// `"x".encode(...)`. The value is the literal inside, positioned at the call.
    fn wrapper(&self, call: Node<'_>, depth: u32) -> Option<Value> {
        let func = call.child_by_field_name("function")?;
        let args = call.child_by_field_name("arguments")?;
        let first = {
            let mut c = args.walk();
            let found = args
                .named_children(&mut c)
                .find(|a| a.kind() != "comment" && a.kind() != "keyword_argument");
            found
        };
        let pos = self.pos(call);
        let str_of = |v: Value| -> Option<Value> {
            let s = match v.kind {
                Kind::Str(s) => s,
                Kind::Int(i) => i.to_string(),
                Kind::Bool(true) => "True".into(),
                Kind::Bool(false) => "False".into(),
                _ => return None,
            };
            Some(Value {
                pos,
                kind: Kind::Str(s),
            })
        };
        let name = last_name(self, func)?;
        match (func.kind(), name) {
            (_, "as_bytes" | "as_text" | "as_str" | "as_str_any" | "bytes") => {
                let v = self.literal_at(first?, depth + 1)?;
                matches!(v.kind, Kind::Str(_)).then_some(Value { pos, kind: v.kind })
            }
            ("identifier", "str") => str_of(self.literal_at(first?, depth + 1)?),
            ("attribute", "encode") => {
                let object = func.child_by_field_name("object")?;
                let v = self.literal_at(object, depth + 1)?;
                matches!(v.kind, Kind::Str(_)).then_some(Value { pos, kind: v.kind })
            }
            _ => None,
        }
    }

    /// The value of a string literal, or of adjacent literals `"a" "b"`; `None` for an
    /// f-string with a replacement field.
    pub fn string(&self, n: Node<'_>) -> Option<String> {
        if n.kind() == "concatenated_string" {
            let mut out = String::new();
            let mut c = n.walk();
            for part in n.named_children(&mut c) {
                if part.kind() == "string" {
                    out.push_str(&self.string(part)?);
                }
            }
            return Some(out);
        }
        let mut c = n.walk();
        if n.named_children(&mut c)
            .any(|x| x.kind() == "interpolation")
        {
            return None;
        }
        string_value(self.text(n))
    }
}

/// The bytes between the quotes of a plain string literal (`"key"` -> `key`), which a fix
/// may replace; `None` for concatenated strings and f-strings.
pub(crate) fn string_content(n: Node<'_>) -> Option<std::ops::Range<usize>> {
    if n.kind() != "string" {
        return None;
    }
    let mut c = n.walk();
    let mut contents = n
        .named_children(&mut c)
        .filter(|k| k.kind() != "string_start" && k.kind() != "string_end");
    let only = contents.next()?;
    (only.kind() == "string_content" && contents.next().is_none()).then(|| only.byte_range())
}

/// The last name of a callee or attribute chain: `NPURunConfig` in `npu.NPURunConfig`.
pub(crate) fn last_name<'a>(src: &Source<'a>, n: Node<'_>) -> Option<&'a str> {
    match n.kind() {
        "identifier" => Some(src.text(n)),
        "attribute" => Some(src.text(n.child_by_field_name("attribute")?)),
        _ => None,
    }
}

/// Python 3 integer literals, and Python 2's `10L` and `017` (octal).
fn int(text: &str) -> Option<i64> {
    let t: String = text.chars().filter(|c| *c != '_').collect();
    let t = t.trim_end_matches(['l', 'L']);
    let lower = t.to_ascii_lowercase();
    let (digits, radix) = if let Some(d) = lower.strip_prefix("0x") {
        (d, 16)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (d, 8)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (d, 2)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8)
    } else {
        (lower.as_str(), 10)
    };
    i64::from_str_radix(digits, radix).ok()
}

fn float(text: &str) -> Option<f64> {
    if text.ends_with(['j', 'J']) {
        return None;
    }
    let t: String = text.chars().filter(|c| *c != '_').collect();
    t.parse().ok()
}

/// Decodes one string literal as written, prefix and quotes included.
fn string_value(lit: &str) -> Option<String> {
    let quote_at = lit.find(['"', '\''])?;
    let prefix = lit.get(..quote_at)?.to_ascii_lowercase();
    let rest = lit.get(quote_at..)?;
    let q = if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
        3
    } else {
        1
    };
    // A string cut off by a syntax error has no closing quote; read what is there.
    let closer = rest.get(..q)?;
    let end = if rest.len() >= 2 * q && rest.ends_with(closer) {
        rest.len() - q
    } else {
        rest.len()
    };
    let body = rest.get(q..end)?;
    if prefix.contains('r') {
        return Some(body.to_string());
    }
    unescape(body)
}

fn unescape(body: &str) -> Option<String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\n' => {}
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v)?);
            }
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = (0..n).filter_map(|_| chars.next()).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            // `\N{NAME}` needs the Unicode name table; such a value is not guessed at.
            'N' => return None,
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '\\' | '\'' | '"' => out.push(e),
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn integers_in_every_spelling() {
        for (t, v) in [
            ("2", 2),
            ("0x1F", 31),
            ("0o17", 15),
            ("0b101", 5),
            ("1_000", 1000),
            ("10L", 10),
            ("017", 15),
            ("0", 0),
        ] {
            assert_eq!(int(t), Some(v), "{t}");
        }
        assert_eq!(int("99999999999999999999"), None);
    }

    #[test]
    fn strings_decode_like_python() {
        assert_eq!(string_value(r#""a\tb""#).unwrap(), "a\tb");
        assert_eq!(string_value(r#"r"a\tb""#).unwrap(), "a\\tb");
        assert_eq!(string_value(r#"b'enable'"#).unwrap(), "enable");
        assert_eq!(string_value(r#""""x""""#).unwrap(), "x");
        assert_eq!(string_value(r#"u"\u7f13\x41\101""#).unwrap(), "缓AA");
        assert_eq!(string_value(r#""\N{BULLET}""#), None);
        assert_eq!(string_value("\"cut").unwrap(), "cut");
    }
}
