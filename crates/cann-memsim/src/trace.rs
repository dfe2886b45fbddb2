//! The trace format: one JSON object per line, `"ev"` saying what happened.
//! `examples/traces/README.md` documents it for users; this module is the one
//! reader and writer.
//!
//! Names (graphs, executions, tensors, variables) are strings or integers and
//! are resolved to dense indices here, with every reference checked, so a
//! replay never meets a dangling name and every problem is reported at its
//! line. Blank lines and lines starting with `#` are skipped.

use std::collections::HashMap;

use serde::Deserialize;

use super::error::MemsimError;
pub use super::trace_error::{Counted, TraceError};
use cann_runtime::memory::{MemsetOutput, StaticGraph};

/// Largest trace file read (a safety limit against feeding a disk image).
pub const MAX_TRACE_BYTES: u64 = 1 << 30;

/// What kind of graph a registration declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphKind {
    /// Static shape: its memory is planned at load.
    Static(StaticGraph),
    /// Dynamic shape: it allocates tensors while it runs.
    Dynamic,
}

/// A registered graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphDef {
    /// The trace's name for it.
    pub name: String,
    /// Static or dynamic.
    pub kind: GraphKind,
}

/// One resolved event. Indices point into the [`Trace`] tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// A graph is registered (loaded) into the session.
    Register { graph: u32 },
    /// An execution of `graph` starts; `concurrent` marks that another
    /// execution of the session is running at that moment.
    Begin {
        exec: u32,
        graph: u32,
        concurrent: bool,
    },
    /// The operator at `step` of a static graph is about to run.
    Step { exec: u32, step: u32 },
    /// A dynamic-shape execution allocates a tensor.
    Alloc { exec: u32, tensor: u32, size: u64 },
    /// A tensor is freed.
    Free { exec: u32, tensor: u32 },
    /// An execution ends.
    End { exec: u32 },
    /// Variable memory is allocated.
    VarAlloc { var: u32, size: u64 },
    /// Variable memory is freed.
    VarFree { var: u32 },
}

/// An event and the line it came from (0 for events made by an importer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// 1-based source line.
    pub line: usize,
    /// What happened.
    pub op: Op,
}

/// A checked trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    /// File name, for messages.
    pub origin: String,
    /// Graphs in registration order.
    pub graphs: Vec<GraphDef>,
    /// Events in order.
    pub events: Vec<Event>,
    /// Name of each execution (an execution name may be reused after it ends).
    pub execs: Vec<String>,
    /// Name of each tensor.
    pub tensors: Vec<String>,
    /// Name of each variable allocation.
    pub vars: Vec<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Name {
    Str(String),
    Int(u64),
}

impl Name {
    fn into_string(self) -> String {
        match self {
            Name::Str(s) => s,
            Name::Int(n) => n.to_string(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMemset {
    size: u64,
    producer: u32,
    end: u32,
}

#[derive(Deserialize)]
#[serde(tag = "ev", rename_all = "snake_case", deny_unknown_fields)]
enum Raw {
    StaticGraph {
        graph: Name,
        feature_map_bytes: u64,
        #[serde(default)]
        memset: Vec<RawMemset>,
    },
    DynamicGraph {
        graph: Name,
    },
    Begin {
        exec: Name,
        graph: Name,
        #[serde(default)]
        concurrent: bool,
    },
    Step {
        exec: Name,
        step: u32,
    },
    Alloc {
        exec: Name,
        tensor: Name,
        size: u64,
    },
    Free {
        #[serde(default)]
        exec: Option<Name>,
        tensor: Name,
    },
    End {
        exec: Name,
    },
    VarAlloc {
        var: Name,
        size: u64,
    },
    VarFree {
        var: Name,
    },
}

/// Builds a [`Trace`] event by event, checking every reference. Used by the
/// JSONL reader and by importers, so both obey the same rules.
#[derive(Debug, Default)]
pub struct TraceBuilder {
    trace: Trace,
    graph_ids: HashMap<String, u32>,
    running: HashMap<String, (u32, u32)>,
    live_tensors: HashMap<String, (u32, u32)>,
    live_vars: HashMap<String, u32>,
}

fn idx(len: usize, what: Counted) -> Result<u32, TraceError> {
    u32::try_from(len).map_err(|_| TraceError::TooMany { what })
}

impl TraceBuilder {
    /// An empty trace named `origin`.
    pub fn new(origin: &str) -> Self {
        Self {
            trace: Trace {
                origin: origin.to_owned(),
                ..Trace::default()
            },
            ..Self::default()
        }
    }

    fn push(&mut self, line: usize, op: Op) {
        self.trace.events.push(Event { line, op });
    }

    /// Registers a graph under a new name.
    pub fn graph(&mut self, line: usize, name: String, kind: GraphKind) -> Result<(), TraceError> {
        if self.graph_ids.contains_key(&name) {
            return Err(TraceError::GraphTwice { graph: name });
        }
        if let GraphKind::Static(g) = &kind {
            if let Some(m) = g.memset_outputs.iter().find(|m| m.end <= m.producer) {
                return Err(TraceError::EmptyMemset {
                    graph: name,
                    producer: m.producer,
                    end: m.end,
                });
            }
        }
        let graph = idx(self.trace.graphs.len(), Counted::Graphs)?;
        self.graph_ids.insert(name.clone(), graph);
        self.trace.graphs.push(GraphDef { name, kind });
        self.push(line, Op::Register { graph });
        Ok(())
    }

    /// Starts execution `name` of graph `graph`.
    pub fn begin(
        &mut self,
        line: usize,
        name: String,
        graph: &str,
        concurrent: bool,
    ) -> Result<(), TraceError> {
        let &g = self
            .graph_ids
            .get(graph)
            .ok_or_else(|| TraceError::GraphUnknown {
                graph: graph.to_owned(),
            })?;
        if self.running.contains_key(&name) {
            return Err(TraceError::ExecRunning { exec: name });
        }
        match (self.running.keys().next(), concurrent) {
            (Some(other), false) => {
                return Err(TraceError::NotMarkedConcurrent {
                    exec: name,
                    other: other.clone(),
                })
            }
            (None, true) => return Err(TraceError::AloneConcurrent { exec: name }),
            _ => {}
        }
        let exec = idx(self.trace.execs.len(), Counted::Executions)?;
        self.trace.execs.push(name.clone());
        self.running.insert(name, (exec, g));
        self.push(
            line,
            Op::Begin {
                exec,
                graph: g,
                concurrent,
            },
        );
        Ok(())
    }

    fn running(&self, name: &str) -> Result<(u32, u32), TraceError> {
        self.running
            .get(name)
            .copied()
            .ok_or_else(|| TraceError::ExecNotRunning {
                exec: name.to_owned(),
            })
    }

    fn is_static(&self, graph: u32) -> bool {
        self.trace
            .graphs
            .get(graph as usize)
            .is_some_and(|g| matches!(g.kind, GraphKind::Static(_)))
    }

    /// Marks a step of a running execution.
    pub fn step(&mut self, line: usize, exec: &str, step: u32) -> Result<(), TraceError> {
        let (e, _) = self.running(exec)?;
        self.push(line, Op::Step { exec: e, step });
        Ok(())
    }

    /// Allocates tensor `name` in a running dynamic-shape execution.
    pub fn alloc(
        &mut self,
        line: usize,
        exec: &str,
        name: String,
        size: u64,
    ) -> Result<(), TraceError> {
        let (e, g) = self.running(exec)?;
        if self.is_static(g) {
            return Err(TraceError::AllocInStatic {
                exec: exec.to_owned(),
            });
        }
        if size == 0 {
            return Err(TraceError::TensorZero { tensor: name });
        }
        if self.live_tensors.contains_key(&name) {
            return Err(TraceError::TensorLive { tensor: name });
        }
        let tensor = idx(self.trace.tensors.len(), Counted::Tensors)?;
        self.trace.tensors.push(name.clone());
        self.live_tensors.insert(name, (tensor, e));
        self.push(
            line,
            Op::Alloc {
                exec: e,
                tensor,
                size,
            },
        );
        Ok(())
    }

    /// Whether tensor `name` is live.
    pub fn is_live(&self, name: &str) -> bool {
        self.live_tensors.contains_key(name)
    }

    /// Frees a live tensor (checking its execution when one is named).
    pub fn free(&mut self, line: usize, exec: Option<&str>, name: &str) -> Result<(), TraceError> {
        let &(tensor, e) =
            self.live_tensors
                .get(name)
                .ok_or_else(|| TraceError::TensorNotLive {
                    tensor: name.to_owned(),
                })?;
        if let Some(x) = exec {
            let (named, _) = self.running(x)?;
            if named != e {
                return Err(TraceError::TensorOtherExec {
                    tensor: name.to_owned(),
                    exec: x.to_owned(),
                });
            }
        }
        self.live_tensors.remove(name);
        self.push(line, Op::Free { exec: e, tensor });
        Ok(())
    }

    /// Ends a running execution; its live tensors die with it.
    pub fn end(&mut self, line: usize, exec: &str) -> Result<(), TraceError> {
        let (e, _) = self.running(exec)?;
        self.running.remove(exec);
        self.live_tensors.retain(|_, (_, owner)| *owner != e);
        self.push(line, Op::End { exec: e });
        Ok(())
    }

    /// Allocates variable memory.
    pub fn var_alloc(&mut self, line: usize, name: String, size: u64) -> Result<(), TraceError> {
        if size == 0 {
            return Err(TraceError::VarZero { var: name });
        }
        if self.live_vars.contains_key(&name) {
            return Err(TraceError::VarAllocated { var: name });
        }
        let var = idx(self.trace.vars.len(), Counted::Variables)?;
        self.trace.vars.push(name.clone());
        self.live_vars.insert(name, var);
        self.push(line, Op::VarAlloc { var, size });
        Ok(())
    }

    /// Frees variable memory.
    pub fn var_free(&mut self, line: usize, name: &str) -> Result<(), TraceError> {
        let var = self
            .live_vars
            .remove(name)
            .ok_or_else(|| TraceError::VarNotAllocated {
                var: name.to_owned(),
            })?;
        self.push(line, Op::VarFree { var });
        Ok(())
    }

    /// The trace so far (executions still running are ended by the replay).
    pub fn finish(self) -> Trace {
        self.trace
    }

    fn apply(&mut self, line: usize, raw: Raw) -> Result<(), TraceError> {
        match raw {
            Raw::StaticGraph {
                graph,
                feature_map_bytes,
                memset,
            } => {
                let name = graph.into_string();
                let g = StaticGraph {
                    name: name.clone(),
                    feature_map_bytes,
                    memset_outputs: memset
                        .into_iter()
                        .map(|m| MemsetOutput {
                            size: m.size,
                            producer: m.producer,
                            end: m.end,
                        })
                        .collect(),
                };
                self.graph(line, name, GraphKind::Static(g))
            }
            Raw::DynamicGraph { graph } => {
                self.graph(line, graph.into_string(), GraphKind::Dynamic)
            }
            Raw::Begin {
                exec,
                graph,
                concurrent,
            } => self.begin(line, exec.into_string(), &graph.into_string(), concurrent),
            Raw::Step { exec, step } => self.step(line, &exec.into_string(), step),
            Raw::Alloc { exec, tensor, size } => {
                self.alloc(line, &exec.into_string(), tensor.into_string(), size)
            }
            Raw::Free { exec, tensor } => {
                let exec = exec.map(Name::into_string);
                self.free(line, exec.as_deref(), &tensor.into_string())
            }
            Raw::End { exec } => self.end(line, &exec.into_string()),
            Raw::VarAlloc { var, size } => self.var_alloc(line, var.into_string(), size),
            Raw::VarFree { var } => self.var_free(line, &var.into_string()),
        }
    }
}

/// Parses JSONL trace text; `origin` names it in errors.
pub fn parse_jsonl(origin: &str, text: &str) -> Result<Trace, MemsimError> {
    let mut b = TraceBuilder::new(origin);
    for (i, raw_line) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw_line.trim();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let at = |error| MemsimError::Trace {
            place: super::Place::line(origin, line),
            error,
        };
        let raw: Raw = serde_json::from_str(body).map_err(|e| at(TraceError::from_json(&e)))?;
        b.apply(line, raw).map_err(at)?;
    }
    let trace = b.finish();
    if trace.events.is_empty() {
        return Err(MemsimError::Trace {
            place: super::Place::file(origin),
            error: TraceError::Empty,
        });
    }
    Ok(trace)
}
