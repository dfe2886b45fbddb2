//! The JSONL writer of [`super::trace`]: what [`super::trace::parse_jsonl`]
//! reads back to an equal trace. Importers use it to save what they made.

use std::fmt::Write as _;

use super::trace::{GraphKind, Op, Trace};

fn name_json(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// Writes `trace` as JSONL that [`super::trace::parse_jsonl`] reads back to an equal trace
/// (apart from line numbers).
pub fn write_jsonl(trace: &Trace) -> String {
    let mut out = String::new();
    let n = |v: &Vec<String>, i: u32| name_json(v.get(i as usize).map_or("?", String::as_str));
    let graph_name = |i: u32| {
        name_json(
            trace
                .graphs
                .get(i as usize)
                .map_or("?", |g| g.name.as_str()),
        )
    };
    for ev in &trace.events {
        // `write!` to a String cannot fail.
        let _ = match ev.op {
            Op::Register { graph } => match trace.graphs.get(graph as usize).map(|g| &g.kind) {
                Some(GraphKind::Static(g)) => {
                    let memset: Vec<String> = g
                        .memset_outputs
                        .iter()
                        .map(|m| {
                            format!(
                                r#"{{"size":{},"producer":{},"end":{}}}"#,
                                m.size, m.producer, m.end
                            )
                        })
                        .collect();
                    writeln!(
                        out,
                        r#"{{"ev":"static_graph","graph":{},"feature_map_bytes":{},"memset":[{}]}}"#,
                        graph_name(graph),
                        g.feature_map_bytes,
                        memset.join(",")
                    )
                }
                _ => writeln!(
                    out,
                    r#"{{"ev":"dynamic_graph","graph":{}}}"#,
                    graph_name(graph)
                ),
            },
            Op::Begin {
                exec,
                graph,
                concurrent,
            } => writeln!(
                out,
                r#"{{"ev":"begin","exec":{},"graph":{}{}}}"#,
                n(&trace.execs, exec),
                graph_name(graph),
                if concurrent {
                    r#","concurrent":true"#
                } else {
                    ""
                }
            ),
            Op::Step { exec, step } => {
                writeln!(
                    out,
                    r#"{{"ev":"step","exec":{},"step":{step}}}"#,
                    n(&trace.execs, exec)
                )
            }
            Op::Alloc { exec, tensor, size } => writeln!(
                out,
                r#"{{"ev":"alloc","exec":{},"tensor":{},"size":{size}}}"#,
                n(&trace.execs, exec),
                n(&trace.tensors, tensor)
            ),
            Op::Free { exec, tensor } => writeln!(
                out,
                r#"{{"ev":"free","exec":{},"tensor":{}}}"#,
                n(&trace.execs, exec),
                n(&trace.tensors, tensor)
            ),
            Op::End { exec } => writeln!(out, r#"{{"ev":"end","exec":{}}}"#, n(&trace.execs, exec)),
            Op::VarAlloc { var, size } => {
                writeln!(
                    out,
                    r#"{{"ev":"var_alloc","var":{},"size":{size}}}"#,
                    n(&trace.vars, var)
                )
            }
            Op::VarFree { var } => {
                writeln!(out, r#"{{"ev":"var_free","var":{}}}"#, n(&trace.vars, var))
            }
        };
    }
    out
}
