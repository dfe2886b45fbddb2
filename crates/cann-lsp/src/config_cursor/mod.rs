//! What a place in a cannctl config file (YAML or JSON) names, and what may be typed there.
//! Keys are option paths (`npu_run_config.memory_config.static_memory_policy`), so the
//! spec's option table answers both.

use cann_config::meta::{Lit, OptionMeta, ValueMeta};
use cann_config::yaml::{self, Kind as YKind, Node};
use cann_config::{OPTIONS, PRODUCTS};

use crate::position::LineIndex;

pub mod json;

/// The keys of a config file that are not options.
const TARGET_KEYS: [&str; 2] = ["product", "release"];

/// What the cursor is on in a config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Option(&'static OptionMeta),
    Value(&'static OptionMeta, &'static ValueMeta),
}

fn option_at(path: &str) -> Option<&'static OptionMeta> {
    OPTIONS.iter().find(|o| o.path == path)
}

/// The option or value at 1-based `line` and character `col`, with the byte span that
/// names it.
pub fn hit_at(text: &str, offset: usize) -> Option<(Target, std::ops::Range<usize>)> {
    let root = yaml::parse(text).ok()?;
    let ix = LineIndex::new(text);
    let mut found = None;
    walk(&root, "", text, &ix, offset, &mut found, 0);
    found
}

/// The byte span a scalar node's text takes, from its position: a quoted scalar with its
/// quotes, a plain one up to the end of its token.
fn span(n: &Node, text: &str, ix: &LineIndex) -> std::ops::Range<usize> {
    let start = ix.offset_of_line_col(text, n.pos.line, n.pos.col);
    let rest = text.get(start..).unwrap_or("");
    let len = match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].find(q).map_or(rest.len(), |i| i + 2),
        _ => rest
            .find([':', ',', '\n', '#', '}', ']'])
            .unwrap_or(rest.len()),
    };
    start..start + rest[..len].trim_end().len()
}

fn walk(
    n: &Node,
    path: &str,
    text: &str,
    ix: &LineIndex,
    at: usize,
    found: &mut Option<(Target, std::ops::Range<usize>)>,
    depth: u32,
) {
    let Some(entries) = n.as_map() else {
        return;
    };
    if depth > 16 {
        return;
    }
    for (k, v) in entries {
        let Some(key) = k.as_str() else { continue };
        let here = if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        };
        let ks = span(k, text, ix);
        let option = option_at(&here);
        if ks.contains(&at) || ks.end == at {
            if let Some(o) = option {
                *found = Some((Target::Option(o), ks));
            }
            return;
        }
        if let (Some(o), YKind::Str(_) | YKind::Int(_) | YKind::Bool(_)) = (option, &v.kind) {
            let vs = span(v, text, ix);
            if vs.contains(&at) || vs.end == at {
                if let Some(m) = value_meta(o, v) {
                    *found = Some((Target::Value(o, m), vs));
                }
                return;
            }
        }
        walk(v, &here, text, ix, at, found, depth + 1);
        if found.is_some() {
            return;
        }
    }
}

fn value_meta(o: &'static OptionMeta, v: &Node) -> Option<&'static ValueMeta> {
    o.values.iter().find(|m| {
        std::iter::once(&m.value)
            .chain(m.aliases)
            .any(|l| match (*l, &v.kind) {
                (Lit::Bool(a), YKind::Bool(b)) => a == *b,
                (Lit::Int(a), YKind::Int(b)) => a == *b,
                (Lit::Str(a), YKind::Str(b)) => a == b,
                (Lit::Int(a), YKind::Str(b)) => b.trim().parse() == Ok(a),
                _ => false,
            })
    })
}

/// What may be typed at a place of a YAML config: keys under the mapping the line is
/// indented into, or a value after `key:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// A key under `parent` (empty: the top level); the word starts at byte `start`.
    Key { parent: String, start: usize },
    /// The value of the key at `path`.
    Value { path: String, start: usize },
}

/// The parent path of a line indented by `indent`: the keys of the nearest lines above it
/// indented less, each ending in `key:`.
fn parent_path(lines: &[&str], indent: usize) -> String {
    let mut want = indent;
    let mut keys = Vec::new();
    for l in lines.iter().rev() {
        let t = l.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let ind = l.len() - t.len();
        if ind >= want {
            continue;
        }
        let Some((k, rest)) = t.split_once(':') else {
            continue;
        };
        if !rest.trim().is_empty() && !rest.trim_start().starts_with('#') {
            continue;
        }
        keys.push(k.trim().trim_matches(['"', '\'']).to_string());
        want = ind;
        if ind == 0 {
            break;
        }
    }
    keys.reverse();
    keys.join(".")
}

pub fn site_at(text: &str, offset: usize) -> Option<Site> {
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let t = line.trim_start();
    let indent = line.len() - t.len();
    // Lines above, at most a few hundred, for the parent path.
    let above: Vec<&str> = text[..line_start]
        .lines()
        .rev()
        .take(400)
        .collect::<Vec<_>>();
    let above: Vec<&str> = above.into_iter().rev().collect();
    if let Some((k, rest)) = t.split_once(':') {
        let key = k.trim().trim_matches(['"', '\'']);
        let word = rest.trim_start().trim_start_matches(['"', '\'']);
        let parent = parent_path(&above, indent);
        let path = if parent.is_empty() {
            key.to_string()
        } else {
            format!("{parent}.{key}")
        };
        return Some(Site::Value {
            path,
            start: offset - word.len(),
        });
    }
    if t.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Some(Site::Key {
            parent: parent_path(&above, indent),
            start: offset - t.len(),
        });
    }
    None
}

/// Keys that may be written under `parent`: the next segment of every option path below
/// it (with the option when the segment ends the path).
pub fn keys_under(parent: &str) -> Vec<(String, Option<&'static OptionMeta>)> {
    let mut out: Vec<(String, Option<&'static OptionMeta>)> = Vec::new();
    if parent.is_empty() {
        out.extend(TARGET_KEYS.iter().map(|k| (k.to_string(), None)));
    }
    let head = if parent.is_empty() {
        String::new()
    } else {
        format!("{parent}.")
    };
    for o in OPTIONS.iter() {
        let Some(rest) = o.path.strip_prefix(head.as_str()) else {
            continue;
        };
        let (seg, leaf) = match rest.split_once('.') {
            Some((s, _)) => (s, false),
            None => (rest, true),
        };
        if out.iter().any(|(k, _)| k == seg) {
            continue;
        }
        out.push((seg.to_string(), leaf.then_some(o)));
    }
    out
}

/// Values that may follow the key at `path`: an option's values, or product and release
/// ids for the target keys.
pub fn values_of(path: &str) -> Vec<String> {
    match path {
        "product" => PRODUCTS.iter().map(|p| p.id.to_string()).collect(),
        "release" => cann_config::Release::ALL
            .iter()
            .map(|r| r.id().to_string())
            .collect(),
        _ => Vec::new(),
    }
}

pub fn option(path: &str) -> Option<&'static OptionMeta> {
    option_at(path)
}
