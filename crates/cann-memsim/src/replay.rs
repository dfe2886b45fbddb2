//! Replays a [`Trace`] on the issue-6 engine: a real [`SessionMemory`] on a fresh
//! [`CountingBackend`], so the numbers are the engine's own, not a model of it.

use super::error::{MemsimError, Place};
use super::trace::{GraphKind, Op, Trace};
use cann_runtime::memory::{
    AtomicCleanPolicy, CountingBackend, ExecId, GraphId, GrowthMode, MemoryStats, SessionConfig,
    SessionError, SessionMemory, StaticMemoryPolicy, TensorId, VariableId,
};

/// What to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayConfig {
    /// `static_memory_policy` (1 runs as 2).
    pub policy: StaticMemoryPolicy,
    /// `atomic_clean_policy`.
    pub atomic_clean: AtomicCleanPolicy,
    /// How a policy-2 pool grows.
    pub growth: GrowthMode,
}

impl ReplayConfig {
    /// Defaults (documented growth, the spec's clean policy default) for `policy`.
    pub fn new(policy: StaticMemoryPolicy) -> Self {
        Self {
            policy,
            atomic_clean: SessionConfig::new(policy).atomic_clean,
            growth: GrowthMode::default(),
        }
    }
}

/// Reserved and live bytes after one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// Index of the event in the trace (0-based).
    pub event: usize,
    /// Bytes held from the backend.
    pub reserved: u64,
    /// Bytes live.
    pub live: u64,
}

/// An execution the engine refused because another one was running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Line of its `begin`.
    pub line: usize,
    /// The execution's name.
    pub exec: String,
    /// Its graph's name.
    pub graph: String,
}

/// The outcome of one replay.
#[derive(Debug, Clone)]
pub struct Replay {
    /// What was simulated.
    pub config: ReplayConfig,
    /// The session's numbers at the end of the trace.
    pub stats: MemoryStats,
    /// Reserved and live bytes over the trace; a sample where either changed.
    pub timeline: Vec<Sample>,
    /// Refused executions, in order.
    pub refusals: Vec<Refusal>,
}

#[derive(Clone, Copy)]
enum ExecState {
    Unstarted,
    Running(ExecId),
    Refused,
    Ended,
}

/// Replays `trace` under `cfg`.
///
/// Events of a refused execution are skipped, as the engine never ran it.
/// Executions still running at the end are ended when the session closes.
pub fn replay(trace: &Trace, cfg: ReplayConfig) -> Result<Replay, MemsimError> {
    let mut scfg = SessionConfig::new(cfg.policy);
    scfg.atomic_clean = cfg.atomic_clean;
    scfg.growth = cfg.growth;
    let place = |line: usize| {
        if line == 0 {
            Place::file(&trace.origin)
        } else {
            Place::line(&trace.origin, line)
        }
    };
    let mut session =
        SessionMemory::new(CountingBackend::new(), scfg).map_err(|source| MemsimError::Replay {
            place: place(0),
            source,
        })?;
    let mut graphs: Vec<Option<GraphId>> = vec![None; trace.graphs.len()];
    let mut execs = vec![ExecState::Unstarted; trace.execs.len()];
    let mut tensors: Vec<Option<TensorId>> = vec![None; trace.tensors.len()];
    let mut vars: Vec<Option<VariableId>> = vec![None; trace.vars.len()];
    let mut timeline = Vec::new();
    let mut refusals = Vec::new();
    let running = |execs: &[ExecState], e: u32| match execs.get(e as usize) {
        Some(ExecState::Running(id)) => Some(*id),
        _ => None,
    };
    for (i, ev) in trace.events.iter().enumerate() {
        let fail = |source: SessionError| MemsimError::Replay {
            place: place(ev.line),
            source,
        };
        match ev.op {
            Op::Register { graph } => {
                let id = match trace.graphs.get(graph as usize).map(|g| &g.kind) {
                    Some(GraphKind::Static(g)) => session.register_static(g),
                    _ => session.register_dynamic(),
                };
                if let Some(slot) = graphs.get_mut(graph as usize) {
                    *slot = Some(id);
                }
            }
            Op::Begin { exec, graph, .. } => {
                let Some(gid) = graphs.get(graph as usize).copied().flatten() else {
                    return Err(MemsimError::at(
                        &trace.origin,
                        ev.line,
                        "graph used before registration",
                    ));
                };
                let state = match session.begin(gid) {
                    Ok(id) => ExecState::Running(id),
                    Err(SessionError::ConcurrentExecution { .. }) => {
                        refusals.push(Refusal {
                            line: ev.line,
                            exec: trace.execs.get(exec as usize).cloned().unwrap_or_default(),
                            graph: trace
                                .graphs
                                .get(graph as usize)
                                .map(|g| g.name.clone())
                                .unwrap_or_default(),
                        });
                        ExecState::Refused
                    }
                    Err(e) => return Err(fail(e)),
                };
                if let Some(slot) = execs.get_mut(exec as usize) {
                    *slot = state;
                }
            }
            Op::Step { exec, step } => {
                if let Some(id) = running(&execs, exec) {
                    session.step(id, step).map_err(fail)?;
                }
            }
            Op::Alloc { exec, tensor, size } => {
                if let Some(id) = running(&execs, exec) {
                    let t = session.alloc(id, size).map_err(fail)?;
                    if let Some(slot) = tensors.get_mut(tensor as usize) {
                        *slot = Some(t);
                    }
                }
            }
            Op::Free { exec, tensor } => {
                let t = tensors.get_mut(tensor as usize).and_then(Option::take);
                if let (Some(id), Some(t)) = (running(&execs, exec), t) {
                    session.free(id, t).map_err(fail)?;
                }
            }
            Op::End { exec } => {
                if let Some(id) = running(&execs, exec) {
                    session.end(id).map_err(fail)?;
                }
                if let Some(slot) = execs.get_mut(exec as usize) {
                    *slot = ExecState::Ended;
                }
            }
            Op::VarAlloc { var, size } => {
                let v = session.alloc_variable(size).map_err(fail)?;
                if let Some(slot) = vars.get_mut(var as usize) {
                    *slot = Some(v);
                }
            }
            Op::VarFree { var } => {
                if let Some(v) = vars.get_mut(var as usize).and_then(Option::take) {
                    session.free_variable(v).map_err(fail)?;
                }
            }
        }
        let s = session.stats();
        let changed = timeline
            .last()
            .is_none_or(|p: &Sample| p.reserved != s.reserved_bytes || p.live != s.live_bytes);
        if changed || i + 1 == trace.events.len() {
            timeline.push(Sample {
                event: i,
                reserved: s.reserved_bytes,
                live: s.live_bytes,
            });
        }
    }
    let stats = session.stats();
    session.close().map_err(|(_, source)| MemsimError::Replay {
        place: place(0),
        source,
    })?;
    Ok(Replay {
        config: cfg,
        stats,
        timeline,
        refusals,
    })
}

/// The policies `cannctl mem compare` shows: every value the spec lists (1 is a legacy
/// spelling of 2, not a value of its own).
pub const COMPARED_POLICIES: &[StaticMemoryPolicy] = StaticMemoryPolicy::ALL;

/// Replays `trace` under every policy of [`COMPARED_POLICIES`].
pub fn compare(
    trace: &Trace,
    atomic_clean: AtomicCleanPolicy,
    growth: GrowthMode,
) -> Result<Vec<Replay>, MemsimError> {
    COMPARED_POLICIES
        .iter()
        .map(|&policy| {
            replay(
                trace,
                ReplayConfig {
                    policy,
                    atomic_clean,
                    growth,
                },
            )
        })
        .collect()
}
