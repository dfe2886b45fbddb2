//! What can be wrong inside a trace, as values: the reader says which rule a line breaks,
//! and the front ends word it in the user's language (`message`).

use cann_i18n::catalog::mem as msg;
use cann_i18n::Lang;

/// A line of a trace that breaks the format or refers to what is not there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceError {
    /// The line is not JSON (or stops inside a value); `column` when the parser knows it.
    Syntax {
        column: Option<usize>,
        eof: bool,
    },
    /// The event lacks a field it needs.
    MissingField {
        field: String,
    },
    /// The event has a field its kind does not take; `expected` lists the ones it does.
    UnknownField {
        field: String,
        expected: String,
    },
    /// `"ev"` names no event; `expected` lists the events.
    UnknownEvent {
        event: String,
        expected: String,
    },
    /// Another mismatch with the format (a value of the wrong type, say), in the JSON
    /// parser's words.
    Shape {
        column: Option<usize>,
        detail: String,
    },
    /// The trace has no events at all.
    Empty,
    /// More graphs, executions, tensors or variables than a `u32` counts.
    TooMany {
        what: Counted,
    },
    GraphTwice {
        graph: String,
    },
    /// A memset output whose lifetime `[producer, end)` is empty.
    EmptyMemset {
        graph: String,
        producer: u32,
        end: u32,
    },
    GraphUnknown {
        graph: String,
    },
    ExecRunning {
        exec: String,
    },
    /// An execution begins while another runs, without `"concurrent": true`.
    NotMarkedConcurrent {
        exec: String,
        other: String,
    },
    /// `"concurrent": true` with nothing else running.
    AloneConcurrent {
        exec: String,
    },
    ExecNotRunning {
        exec: String,
    },
    /// A dynamic-shape allocation in an execution of a static-shape graph.
    AllocInStatic {
        exec: String,
    },
    TensorZero {
        tensor: String,
    },
    TensorLive {
        tensor: String,
    },
    TensorNotLive {
        tensor: String,
    },
    TensorOtherExec {
        tensor: String,
        exec: String,
    },
    VarZero {
        var: String,
    },
    VarAllocated {
        var: String,
    },
    VarNotAllocated {
        var: String,
    },
}

/// What [`TraceError::TooMany`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    Graphs,
    Executions,
    Tensors,
    Variables,
}

impl TraceError {
    /// A JSON parser's error, by its category; the names it quotes are kept.
    pub(crate) fn from_json(e: &serde_json::Error) -> Self {
        let column = (e.column() > 0).then(|| e.column());
        if e.is_syntax() || e.is_eof() {
            return TraceError::Syntax {
                column,
                eof: e.is_eof(),
            };
        }
        let detail = super::error::without_position(e);
        // serde's data errors are `missing field `x``, `unknown field `x`, expected ...`
        // and `unknown variant `x`, expected ...`: the names are kept, the words are ours.
        let quoted = |rest: &str| -> Option<(String, String)> {
            let rest = rest.strip_prefix('`')?;
            let (name, tail) = rest.split_once('`')?;
            let expected = tail
                .strip_prefix(", expected one of ")
                .or_else(|| tail.strip_prefix(", expected "))
                .unwrap_or("")
                .to_owned();
            Some((name.to_owned(), expected))
        };
        if let Some((field, _)) = detail.strip_prefix("missing field ").and_then(quoted) {
            return TraceError::MissingField { field };
        }
        if let Some((field, expected)) = detail.strip_prefix("unknown field ").and_then(quoted) {
            return TraceError::UnknownField { field, expected };
        }
        if let Some((event, expected)) = detail.strip_prefix("unknown variant ").and_then(quoted) {
            return TraceError::UnknownEvent { event, expected };
        }
        TraceError::Shape { column, detail }
    }

    /// What is wrong, and what would be valid, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        let l = lang;
        let at = |column: &Option<usize>, text: String| match column {
            Some(c) => msg::trace_at_column(l, *c, &text),
            None => text,
        };
        match self {
            TraceError::Syntax { column, eof: true } => at(column, msg::trace_json_eof(l)),
            TraceError::Syntax { column, eof: false } => at(column, msg::trace_json_syntax(l)),
            TraceError::MissingField { field } => msg::trace_missing_field(l, field),
            TraceError::UnknownField { field, expected } => {
                msg::trace_unknown_field(l, field, expected)
            }
            TraceError::UnknownEvent { event, expected } => {
                msg::trace_unknown_event(l, event, expected)
            }
            TraceError::Shape { column, detail } => at(column, msg::trace_shape(l, detail)),
            TraceError::Empty => msg::trace_empty(l),
            TraceError::TooMany { what } => {
                let what = match what {
                    Counted::Graphs => msg::trace_count_graphs(l),
                    Counted::Executions => msg::trace_count_executions(l),
                    Counted::Tensors => msg::trace_count_tensors(l),
                    Counted::Variables => msg::trace_count_variables(l),
                };
                msg::trace_too_many(l, &what, u32::MAX)
            }
            TraceError::GraphTwice { graph } => msg::trace_graph_twice(l, graph),
            TraceError::EmptyMemset {
                graph,
                producer,
                end,
            } => msg::trace_empty_memset(l, graph, *producer, *end),
            TraceError::GraphUnknown { graph } => msg::trace_graph_unknown(l, graph),
            TraceError::ExecRunning { exec } => msg::trace_exec_running(l, exec),
            TraceError::NotMarkedConcurrent { exec, other } => {
                msg::trace_not_marked_concurrent(l, exec, other)
            }
            TraceError::AloneConcurrent { exec } => msg::trace_alone_concurrent(l, exec),
            TraceError::ExecNotRunning { exec } => msg::trace_exec_not_running(l, exec),
            TraceError::AllocInStatic { exec } => msg::trace_alloc_in_static(l, exec),
            TraceError::TensorZero { tensor } => msg::trace_tensor_zero(l, tensor),
            TraceError::TensorLive { tensor } => msg::trace_tensor_live(l, tensor),
            TraceError::TensorNotLive { tensor } => msg::trace_tensor_not_live(l, tensor),
            TraceError::TensorOtherExec { tensor, exec } => {
                msg::trace_tensor_other_exec(l, tensor, exec)
            }
            TraceError::VarZero { var } => msg::trace_var_zero(l, var),
            TraceError::VarAllocated { var } => msg::trace_var_allocated(l, var),
            TraceError::VarNotAllocated { var } => msg::trace_var_not_allocated(l, var),
        }
    }
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}
