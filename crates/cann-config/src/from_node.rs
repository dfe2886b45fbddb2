//! Reading a config from a [`Node`] tree that a front end built itself, such as the linter,
//! which builds one from the option settings of a Python script and wants every finding to
//! point back into that script.
//!
//! The tree is written out as one line of flow YAML, read with [`parse_config`] so that every
//! rule of reading a config stays in `parse.rs`, and each position in the result is mapped
//! back to the position the tree carried. Going through text costs one short line per config
//! object; it keeps this module on `parse.rs`'s public surface (its findings sink is private
//! to it). A `pub(crate)` way to take the findings out of a `ParseCx` would let this call the
//! root loop directly; the output would not change.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cann_spec::yaml::{Kind, Node, Pos};

use crate::{parse_config, ConfigFile, ParseError};

/// Reads `doc`, a mapping shaped like a user config file, as [`parse_config`] reads text.
/// Findings and `locations` carry the positions of `doc`'s own nodes.
pub fn config_from_node(doc: &Node) -> Result<ConfigFile, ParseError> {
    let mut w = Writer::default();
    w.node(doc);
    let mut file = match parse_config(&w.text) {
        Ok(f) => f,
        Err(mut e) => {
            e.pos = e.pos.map(|p| w.original(p));
            return Err(e);
        }
    };
    for d in &mut file.diagnostics {
        if let (Some(line), Some(col)) = (d.line, d.column) {
            let p = w.original(Pos { line, col });
            d.line = Some(p.line);
            d.column = Some(p.col);
        }
    }
    for p in file.locations.values_mut() {
        *p = w.original(*p);
    }
    Ok(file)
}

/// One line of flow YAML, ASCII only so that columns count bytes and characters alike,
/// and the original position of the node that starts at each column.
#[derive(Default)]
struct Writer {
    text: String,
    at: BTreeMap<u32, Pos>,
}

impl Writer {
    fn mark(&mut self, pos: Pos) {
        let col = u32::try_from(self.text.len() + 1).unwrap_or(u32::MAX);
        self.at.insert(col, pos);
    }

    /// The position of the node starting at or last before `p`'s column.
    fn original(&self, p: Pos) -> Pos {
        if p.line != 1 {
            return self.at.get(&1).copied().unwrap_or_default();
        }
        self.at
            .range(..=p.col)
            .next_back()
            .map(|(_, pos)| *pos)
            .unwrap_or_default()
    }

    fn node(&mut self, n: &Node) {
        self.mark(n.pos);
        match &n.kind {
            Kind::Null => self.text.push_str("null"),
            Kind::Bool(b) => self.text.push_str(if *b { "true" } else { "false" }),
            Kind::Int(i) => {
                let _ = write!(self.text, "{i}");
            }
            Kind::Float(f) => self.float(*f),
            Kind::Str(s) => self.string(s),
            Kind::Seq(items) => {
                self.text.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.text.push_str(", ");
                    }
                    self.node(item);
                }
                self.text.push(']');
            }
            Kind::Map(entries) => {
                self.text.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.text.push_str(", ");
                    }
                    self.node(k);
                    self.text.push_str(": ");
                    self.node(v);
                }
                self.text.push('}');
            }
        }
    }

    fn float(&mut self, f: f64) {
        if f.is_nan() {
            self.text.push_str(".nan");
        } else if f.is_infinite() {
            self.text.push_str(if f > 0.0 { ".inf" } else { "-.inf" });
        } else {
            // `{:?}` keeps a `.0` on whole numbers, so the value stays a float.
            let _ = write!(self.text, "{f:?}");
        }
    }

    /// A double-quoted YAML string; everything outside printable ASCII is escaped.
    fn string(&mut self, s: &str) {
        self.text.push('"');
        for c in s.chars() {
            match c {
                '"' => self.text.push_str("\\\""),
                '\\' => self.text.push_str("\\\\"),
                ' '..='~' => self.text.push(c),
                c if (c as u32) <= 0xFFFF => {
                    let _ = write!(self.text, "\\u{:04X}", c as u32);
                }
                c => {
                    let _ = write!(self.text, "\\U{:08X}", c as u32);
                }
            }
        }
        self.text.push('"');
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn n(line: u32, col: u32, kind: Kind) -> Node {
        Node {
            pos: Pos { line, col },
            kind,
        }
    }

    fn s(line: u32, col: u32, v: &str) -> Node {
        n(line, col, Kind::Str(v.into()))
    }

    #[test]
    fn findings_point_at_the_nodes_of_the_tree() {
        let memory = n(
            7,
            30,
            Kind::Map(vec![
                (
                    s(7, 40, "static_memory_policy"),
                    n(7, 61, Kind::Str("2".into())),
                ),
                (s(8, 5, "atomic_clean_polcy"), n(8, 25, Kind::Int(1))),
            ]),
        );
        let doc = n(
            1,
            1,
            Kind::Map(vec![(
                s(3, 9, "npu_run_config"),
                n(
                    3,
                    9,
                    Kind::Map(vec![
                        (s(4, 5, "op_compiler_cache_mode"), s(4, 28, "enabel")),
                        (s(7, 5, "memory_config"), memory),
                    ]),
                ),
            )]),
        );
        let file = config_from_node(&doc).unwrap();
        let at: Vec<(Option<u32>, Option<u32>, &str)> = file
            .diagnostics
            .iter()
            .map(|d| (d.line, d.column, d.option.as_str()))
            .collect();
        assert_eq!(
            at,
            vec![
                (Some(4), Some(28), "npu_run_config.op_compiler_cache_mode"),
                (
                    Some(7),
                    Some(61),
                    "npu_run_config.memory_config.static_memory_policy"
                ),
                (
                    Some(8),
                    Some(5),
                    "npu_run_config.memory_config.atomic_clean_polcy"
                ),
            ]
        );
        assert_eq!(
            file.locations.get("npu_run_config.memory_config"),
            Some(&Pos { line: 7, col: 5 })
        );
    }

    #[test]
    fn strings_survive_escaping() {
        let doc = n(
            1,
            1,
            Kind::Map(vec![(
                s(2, 1, "npu_run_config"),
                n(
                    2,
                    20,
                    Kind::Map(vec![(
                        s(3, 1, "op_compiler_cache_dir"),
                        s(3, 30, "/data/缓存/\"q\"\\\u{1F600}"),
                    )]),
                ),
            )]),
        );
        let file = config_from_node(&doc).unwrap();
        let dir = file
            .config
            .npu_run_config
            .as_ref()
            .and_then(|c| c.op_compiler_cache_dir.clone());
        assert_eq!(dir.as_deref(), Some("/data/缓存/\"q\"\\\u{1F600}"));
    }

    #[test]
    fn a_document_that_is_not_a_mapping_is_an_error_at_its_position() {
        let e = config_from_node(&n(5, 6, Kind::Seq(vec![]))).unwrap_err();
        assert_eq!(e.pos, Some(Pos { line: 5, col: 6 }));
    }
}
