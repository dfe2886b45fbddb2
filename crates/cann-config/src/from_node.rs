//! Reading a config from a [`Node`] tree that a front end built itself, such as the linter,
//! which builds one from the option settings of a Python script. The nodes carry the
//! script's positions, so every finding points back into the script.

use cann_spec::yaml::Node;

use crate::meta::Lang;
use crate::{ConfigFile, ParseError};

/// Reads `doc`, a mapping shaped like a user config file, as [`crate::parse_config`] reads
/// text. Findings and `locations` carry the positions of `doc`'s own nodes.
pub fn config_from_node(doc: &Node) -> Result<ConfigFile, ParseError> {
    config_from_node_in(doc, Lang::En)
}

/// As [`config_from_node`], with findings in `lang`.
pub fn config_from_node_in(doc: &Node, lang: Lang) -> Result<ConfigFile, ParseError> {
    crate::parse::read_document(doc, lang)
}
#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use cann_spec::yaml::{Kind, Pos};

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
