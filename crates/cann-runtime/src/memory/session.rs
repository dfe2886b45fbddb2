//! The session memory manager: graphs of one session running under one
//! effective `static_memory_policy`, `atomic_clean_policy` and
//! `variable_use_1g_huge_page`.
//!
//! | graph   | 0 / 3 (no static expansion) | 2 (static expansion) | 4 (both)           |
//! |---------|-----------------------------|----------------------|--------------------|
//! | static  | exact block per execution   | shared [`StaticPool`]| pages of the arena |
//!
//! | graph   | 0 / 2 (no dynamic expansion)| 3 / 4 (dynamic expansion)        |
//! |---------|-----------------------------|----------------------------------|
//! | dynamic | exact block per tensor      | [`ExpandableArena`], page commit |
//!
//! Under 2 and 4 a second execution while one is running is refused with
//! [`SessionError::ConcurrentExecution`] before anything is touched.
//!
//! The calls map one to one onto trace events (register, begin, step, alloc,
//! free, end), so a replay drives a session on a [`super::CountingBackend`] and
//! reads [`MemoryStats`] at the end.

use std::collections::BTreeMap;

pub use super::session_types::{
    ExecId, GraphId, SessionConfig, SessionError, TensorId, VariableId,
};

use super::atomic_clean::{plan, CleanPlan, StaticGraph};
use super::backend::{BackendUsage, Block, CleanTarget, MemoryBackend, PageSize};
use super::error::MemoryError;
use super::expandable::{ArenaAlloc, ExpandableArena};
use super::huge_pages::VariableMemory;
use super::policy::{AtomicClean, Expansion, MemoryExpansion, StaticMemoryPolicy};
use super::static_pool::StaticPool;
use super::stats::MemoryStats;

#[derive(Debug)]
enum Held {
    Block(Block),
    Arena(ArenaAlloc),
    Pool,
}

#[derive(Debug)]
struct GraphRec {
    static_plan: Option<CleanPlan>,
}

#[derive(Debug)]
struct Running {
    graph: GraphId,
    held: Option<Held>,
    need: u64,
    cleaned: usize,
    tensors: BTreeMap<u64, (Held, u64)>,
}

/// See the module docs.
#[derive(Debug)]
pub struct SessionMemory<B: MemoryBackend> {
    backend: B,
    cfg: SessionConfig,
    policy: StaticMemoryPolicy,
    graphs: Vec<GraphRec>,
    running: BTreeMap<u64, Running>,
    pool: Option<StaticPool>,
    arena: Option<ExpandableArena>,
    variables: VariableMemory,
    var_blocks: BTreeMap<u64, (Block, u64)>,
    next_id: u64,
    base: BackendUsage,
    live: u64,
    peak_live: u64,
    clean_ops: u64,
    clean_bytes: u64,
    refused: u64,
    executions: u64,
}

/// Frees one holding. A free function so callers can borrow fields apart.
fn release<B: MemoryBackend>(
    backend: &mut B,
    arena: &mut Option<ExpandableArena>,
    held: Held,
) -> Result<(), MemoryError> {
    match held {
        Held::Block(b) => backend.free(b).map_err(Into::into),
        Held::Arena(a) => match arena {
            Some(arena) => arena.free(backend, a),
            None => Err(MemoryError::UnknownAllocation { offset: a.offset() }),
        },
        Held::Pool => Ok(()),
    }
}

impl<B: MemoryBackend> SessionMemory<B> {
    /// A session on `backend`; reserves the arena when dynamic expansion is on.
    pub fn new(mut backend: B, cfg: SessionConfig) -> Result<Self, SessionError> {
        let policy = cfg.policy;
        let arena = if policy.dynamic_expansion() {
            Some(ExpandableArena::new(&mut backend, cfg.arena)?)
        } else {
            None
        };
        // Static-shape graphs share a pool under 2 only; under 4 they take arena pages.
        let pool = match policy.behaviour() {
            MemoryExpansion::StaticShape => {
                Some(StaticPool::new(cfg.growth, cfg.pool_reserve_bytes))
            }
            MemoryExpansion::None | MemoryExpansion::DynamicShape | MemoryExpansion::AllShapes => {
                None
            }
        };
        Ok(Self {
            base: backend.usage(),
            backend,
            cfg,
            policy,
            graphs: Vec::new(),
            running: BTreeMap::new(),
            pool,
            arena,
            variables: VariableMemory::new(cfg.huge_pages),
            var_blocks: BTreeMap::new(),
            next_id: 1,
            live: 0,
            peak_live: 0,
            clean_ops: 0,
            clean_bytes: 0,
            refused: 0,
            executions: 0,
        })
    }

    /// The configuration (policy as given).
    pub fn config(&self) -> &SessionConfig {
        &self.cfg
    }

    /// The backend, e.g. to read its usage.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The arena of policies 3 and 4.
    pub fn arena(&self) -> Option<&ExpandableArena> {
        self.arena.as_ref()
    }

    /// The pool of policy 2.
    pub fn pool(&self) -> Option<&StaticPool> {
        self.pool.as_ref()
    }

    /// The variable-memory ladder (its events and downgrade state).
    pub fn variables(&self) -> &VariableMemory {
        &self.variables
    }

    fn fresh(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn add_live(&mut self, bytes: u64) {
        self.live += bytes;
        self.peak_live = self.peak_live.max(self.live);
    }

    /// Registers a static-shape graph; its clean plan is fixed now.
    pub fn register_static(&mut self, graph: &StaticGraph) -> GraphId {
        let id = GraphId(self.graphs.len() as u32);
        self.graphs.push(GraphRec {
            static_plan: Some(plan(graph, self.cfg.atomic_clean)),
        });
        id
    }

    /// Registers a dynamic-shape graph.
    pub fn register_dynamic(&mut self) -> GraphId {
        let id = GraphId(self.graphs.len() as u32);
        self.graphs.push(GraphRec { static_plan: None });
        id
    }

    /// The clean plan of a static graph.
    pub fn plan(&self, graph: GraphId) -> Option<&CleanPlan> {
        self.graphs
            .get(graph.0 as usize)
            .and_then(|g| g.static_plan.as_ref())
    }

    /// Starts an execution: a static graph gets its memory (and, under clean
    /// policy 0, its one clean); a dynamic graph allocates as it runs.
    pub fn begin(&mut self, graph: GraphId) -> Result<ExecId, SessionError> {
        let rec = self
            .graphs
            .get(graph.0 as usize)
            .ok_or(SessionError::UnknownGraph(graph))?;
        if !self.policy.allows_concurrent_graphs() {
            if let Some(r) = self.running.values().next() {
                self.refused += 1;
                return Err(SessionError::ConcurrentExecution {
                    policy: self.policy.code(),
                    running: r.graph,
                    requested: graph,
                });
            }
        }
        let need = rec.static_plan.as_ref().map_or(0, |p| p.memory_bytes);
        let held = if need == 0 {
            None
        } else if let Some(pool) = self.pool.as_mut() {
            pool.ensure(&mut self.backend, need)?;
            Some(Held::Pool)
        } else if let (MemoryExpansion::AllShapes, Some(arena)) =
            (self.policy.behaviour(), self.arena.as_mut())
        {
            // Policy 4: the static graph's pages are committed now and
            // decommitted at its end, so dynamic graphs reuse them in between.
            Some(Held::Arena(arena.alloc(&mut self.backend, need)?))
        } else {
            Some(Held::Block(
                self.backend
                    .allocate(need, PageSize::Base)
                    .map_err(MemoryError::from)?,
            ))
        };
        let id = self.fresh();
        self.running.insert(
            id,
            Running {
                graph,
                held,
                need,
                cleaned: 0,
                tensors: BTreeMap::new(),
            },
        );
        self.executions += 1;
        self.add_live(need);
        let clean_at_start = match self.cfg.atomic_clean.behaviour() {
            AtomicClean::Centralized => true,
            AtomicClean::Separate => false,
        };
        if clean_at_start {
            if let Err(e) = self.clean_until(id, None) {
                // Undo the start so a failed begin leaves the session as it was.
                let _ = self.end(ExecId(id));
                self.executions -= 1;
                return Err(e);
            }
        }
        Ok(ExecId(id))
    }

    /// Runs the clean ops of `exec` due before `step` (all remaining if `None`).
    fn clean_until(&mut self, exec: u64, step: Option<u32>) -> Result<(), SessionError> {
        let run = self
            .running
            .get_mut(&exec)
            .ok_or(SessionError::UnknownExecution(ExecId(exec)))?;
        let Some(plan) = self
            .graphs
            .get(run.graph.0 as usize)
            .and_then(|g| g.static_plan.as_ref())
        else {
            return Ok(());
        };
        while let Some(op) = plan.ops.get(run.cleaned) {
            if step.is_some_and(|s| op.before_step > s) {
                break;
            }
            let (target, base) = match &run.held {
                Some(Held::Block(b)) => (CleanTarget::Block(b), 0),
                Some(Held::Arena(a)) => match &self.arena {
                    Some(arena) => (CleanTarget::Reservation(arena.reservation()), a.offset()),
                    None => {
                        return Err(MemoryError::UnknownAllocation { offset: a.offset() }.into())
                    }
                },
                Some(Held::Pool) => match self.pool.as_ref().and_then(StaticPool::target) {
                    Some(t) => (t, 0),
                    None => return Err(MemoryError::UnknownAllocation { offset: 0 }.into()),
                },
                None => break,
            };
            self.backend
                .fill_zero(target, base + op.offset, op.len)
                .map_err(MemoryError::from)?;
            run.cleaned += 1;
            self.clean_ops += 1;
            self.clean_bytes += op.len;
        }
        Ok(())
    }

    /// Marks that the operator at `step` is about to run; under clean policy 1
    /// the memset outputs it produces (and any earlier ones) are cleaned now.
    pub fn step(&mut self, exec: ExecId, step: u32) -> Result<(), SessionError> {
        self.clean_until(exec.0, Some(step))
    }

    /// Allocates a tensor for a running dynamic-shape graph.
    pub fn alloc(&mut self, exec: ExecId, size: u64) -> Result<TensorId, SessionError> {
        let run = self
            .running
            .get(&exec.0)
            .ok_or(SessionError::UnknownExecution(exec))?;
        let is_static = self
            .graphs
            .get(run.graph.0 as usize)
            .is_some_and(|g| g.static_plan.is_some());
        if is_static {
            return Err(SessionError::NotDynamic(run.graph));
        }
        if size == 0 {
            return Err(MemoryError::ZeroSize.into());
        }
        let held = match self.arena.as_mut() {
            Some(arena) => Held::Arena(arena.alloc(&mut self.backend, size)?),
            None => Held::Block(
                self.backend
                    .allocate(size, PageSize::Base)
                    .map_err(MemoryError::from)?,
            ),
        };
        let id = self.fresh();
        if let Some(run) = self.running.get_mut(&exec.0) {
            run.tensors.insert(id, (held, size));
        }
        self.add_live(size);
        Ok(TensorId(id))
    }

    /// Frees a tensor of a running execution.
    pub fn free(&mut self, exec: ExecId, tensor: TensorId) -> Result<(), SessionError> {
        let run = self
            .running
            .get_mut(&exec.0)
            .ok_or(SessionError::UnknownExecution(exec))?;
        let (held, size) = run
            .tensors
            .remove(&tensor.0)
            .ok_or(SessionError::UnknownTensor(tensor))?;
        self.live -= size;
        release(&mut self.backend, &mut self.arena, held).map_err(Into::into)
    }

    /// Ends an execution: remaining cleans run (the graph ran to completion),
    /// its tensors are freed and its static memory given back (a pool is kept).
    /// The execution is gone even when an error is returned.
    pub fn end(&mut self, exec: ExecId) -> Result<(), SessionError> {
        let cleaned = self.clean_until(exec.0, None);
        let run = self
            .running
            .remove(&exec.0)
            .ok_or(SessionError::UnknownExecution(exec))?;
        let mut first_err = cleaned.err();
        let holdings = run
            .tensors
            .into_values()
            .chain(run.held.map(|h| (h, run.need)));
        for (held, size) in holdings {
            self.live -= size;
            if let Err(e) = release(&mut self.backend, &mut self.arena, held) {
                first_err.get_or_insert(e.into());
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    /// Allocates variable memory down the huge-page ladder.
    pub fn alloc_variable(&mut self, size: u64) -> Result<VariableId, SessionError> {
        let block = self.variables.allocate(&mut self.backend, size)?;
        let id = self.fresh();
        self.var_blocks.insert(id, (block, size));
        self.add_live(size);
        Ok(VariableId(id))
    }

    /// Frees variable memory.
    pub fn free_variable(&mut self, var: VariableId) -> Result<(), SessionError> {
        let (block, size) = self
            .var_blocks
            .remove(&var.0)
            .ok_or(SessionError::UnknownVariable(var))?;
        self.live -= size;
        self.variables
            .free(&mut self.backend, block)
            .map_err(Into::into)
    }

    /// Executions running now.
    pub fn running(&self) -> usize {
        self.running.len()
    }

    /// The numbers so far.
    pub fn stats(&self) -> MemoryStats {
        let u = self.backend.usage();
        MemoryStats {
            policy: self.policy,
            atomic_clean: self.cfg.atomic_clean,
            live_bytes: self.live,
            peak_live_bytes: self.peak_live,
            reserved_bytes: u.resident_bytes(),
            peak_reserved_bytes: u.peak_resident_bytes,
            backend_alloc_calls: u.acquire_calls() - self.base.acquire_calls(),
            backend_free_calls: u.return_calls() - self.base.return_calls(),
            clean_ops: self.clean_ops,
            clean_bytes: self.clean_bytes,
            refused_concurrent: self.refused,
            executions: self.executions,
        }
    }

    /// Ends everything still running, frees variables, gives the pool and the
    /// arena back, and returns the backend. Everything is released even when
    /// an error is returned; the first error is reported.
    pub fn close(mut self) -> Result<B, (B, SessionError)> {
        let mut first_err: Option<SessionError> = None;
        let execs: Vec<u64> = self.running.keys().copied().collect();
        for e in execs {
            if let Err(err) = self.end(ExecId(e)) {
                first_err.get_or_insert(err);
            }
        }
        let vars: Vec<u64> = self.var_blocks.keys().copied().collect();
        for v in vars {
            if let Err(err) = self.free_variable(VariableId(v)) {
                first_err.get_or_insert(err);
            }
        }
        if let Some(pool) = self.pool.take() {
            if let Err(err) = pool.release(&mut self.backend) {
                first_err.get_or_insert(err.into());
            }
        }
        if let Some(arena) = self.arena.take() {
            if let Err(err) = arena.release(&mut self.backend) {
                first_err.get_or_insert(err.into());
            }
        }
        match first_err {
            None => Ok(self.backend),
            Some(e) => Err((self.backend, e)),
        }
    }
}
