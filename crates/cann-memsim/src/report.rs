//! Reading inputs and the serializable summaries `cannctl mem` prints. The
//! JSON keys here are a contract with scripts: add keys, never rename them.

use std::path::Path;

use serde::Serialize;

use super::buffers::Buffer;
use super::clean::{CleanComparison, PolicyPlan};
use super::error::MemsimError;
use super::planner::Strategy;
use super::replay::Replay;
use super::torch::{import_snapshot, is_pickle, is_snapshot_json, ImportOptions, ImportReport};
use super::trace::{parse_jsonl, Trace, MAX_TRACE_BYTES};
use cann_runtime::memory::{GrowthMode, StaticMemoryPolicy};

/// Reads a file (`-` is standard input) of at most [`MAX_TRACE_BYTES`] through the input
/// layer: a FIFO, device or directory is refused, not read.
pub fn read_limited(path: &Path) -> Result<Vec<u8>, MemsimError> {
    Ok(cann_input::read_bytes(
        path,
        cann_input::Limits::new(MAX_TRACE_BYTES).keep_bom(),
    )?)
}

/// Reads a trace: a JSONL trace, or a torch memory snapshot (pickle or JSON),
/// told apart by content, not by name.
pub fn load_trace(
    path: &Path,
    opts: ImportOptions,
) -> Result<(Trace, Option<ImportReport>), MemsimError> {
    let origin = cann_input::display_name(path);
    let bytes = read_limited(path)?;
    if is_pickle(&bytes) {
        let (t, r) = import_snapshot(&origin, &bytes, opts)?;
        return Ok((t, Some(r)));
    }
    let text = cann_input::decode_utf8(path, bytes, true)?;
    if is_snapshot_json(&text) {
        let (t, r) = import_snapshot(&origin, text.as_bytes(), opts)?;
        return Ok((t, Some(r)));
    }
    Ok((parse_jsonl(&origin, &text)?, None))
}

/// Reads a buffer CSV.
pub fn load_buffers(path: &Path) -> Result<Vec<Buffer>, MemsimError> {
    load_buffers_in(path, cann_i18n::Lang::En)
}

/// Reads a buffer CSV, with errors in `lang`.
pub fn load_buffers_in(path: &Path, lang: cann_i18n::Lang) -> Result<Vec<Buffer>, MemsimError> {
    let origin = cann_input::display_name(path);
    let bytes = read_limited(path)?;
    let text = cann_input::decode_utf8(path, bytes, true)?;
    super::csv::parse_csv_in(&origin, &text, lang)
}

/// A refused execution, for JSON.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RefusalOut {
    /// Line of its `begin` (0 when imported).
    pub line: usize,
    /// Execution name.
    pub exec: String,
    /// Graph name.
    pub graph: String,
}

/// One policy's outcome: the object `mem simulate` prints and `mem compare`
/// prints an array of.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SimSummary {
    /// The `static_memory_policy` code simulated.
    pub policy: i64,
    /// What it runs as (1 runs as 2).
    pub effective_policy: i64,
    /// The `atomic_clean_policy` code.
    pub atomic_clean: i64,
    /// How a policy-2 pool grows: `documented` or `engine-code`.
    pub growth: &'static str,
    /// Highest bytes held from the backend.
    pub peak_reserved_bytes: u64,
    /// Highest bytes live.
    pub peak_live_bytes: u64,
    /// Their ratio.
    pub reserved_to_live: f64,
    /// Backend calls that obtained memory.
    pub backend_alloc_calls: u64,
    /// Backend calls that gave memory back.
    pub backend_free_calls: u64,
    /// Clean (memset) operations.
    pub clean_ops: u64,
    /// Bytes cleaned.
    pub clean_bytes: u64,
    /// Executions refused because another was running.
    pub refused_concurrent: u64,
    /// Executions run.
    pub executions: u64,
    /// The refused executions.
    pub refused: Vec<RefusalOut>,
}

/// The name of a growth mode on the command line and in JSON.
pub fn growth_name(g: GrowthMode) -> &'static str {
    match g {
        GrowthMode::Documented => "documented",
        GrowthMode::EngineCode => "engine-code",
    }
}

impl SimSummary {
    /// The summary of `r`, reporting `requested` as the policy asked for.
    pub fn new(requested: StaticMemoryPolicy, r: &Replay) -> Self {
        let s = &r.stats;
        Self {
            policy: requested.code(),
            effective_policy: s.policy.code(),
            atomic_clean: s.atomic_clean.code(),
            growth: growth_name(r.config.growth),
            peak_reserved_bytes: s.peak_reserved_bytes,
            peak_live_bytes: s.peak_live_bytes,
            reserved_to_live: s.reserved_to_live(),
            backend_alloc_calls: s.backend_alloc_calls,
            backend_free_calls: s.backend_free_calls,
            clean_ops: s.clean_ops,
            clean_bytes: s.clean_bytes,
            refused_concurrent: s.refused_concurrent,
            executions: s.executions,
            refused: r
                .refusals
                .iter()
                .map(|x| RefusalOut {
                    line: x.line,
                    exec: x.exec.clone(),
                    graph: x.graph.clone(),
                })
                .collect(),
        }
    }
}

/// One clean policy's plan, for JSON.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PolicyPlanOut {
    /// The `atomic_clean_policy` code.
    pub atomic_clean: i64,
    /// Arena bytes.
    pub arena_bytes: u64,
    /// LOAD of the buffers as this policy makes them live.
    pub load_bytes: u64,
    /// Arena over LOAD.
    pub ratio: f64,
    /// Clean operations per run.
    pub clean_ops: u64,
    /// Bytes zeroed per run.
    pub clean_bytes: u64,
    /// Which planner pass found it.
    pub found_by: Strategy,
    /// The best lower bound on the arena known (LOAD or better).
    pub lower_bound_bytes: u64,
    /// Whether no smaller arena exists.
    pub proven_optimal: bool,
    /// Whether the time limit cut the search short.
    pub timed_out: bool,
}

impl From<&PolicyPlan> for PolicyPlanOut {
    fn from(p: &PolicyPlan) -> Self {
        Self {
            atomic_clean: p.policy.code(),
            arena_bytes: p.plan.arena,
            load_bytes: p.plan.load,
            ratio: p.plan.ratio(),
            clean_ops: p.clean_ops,
            clean_bytes: p.clean_bytes,
            found_by: p.plan.found_by.clone(),
            lower_bound_bytes: p.plan.lower_bound,
            proven_optimal: p.plan.proven_optimal,
            timed_out: p.plan.timed_out,
        }
    }
}

/// What `mem plan` prints.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlanSummary {
    /// Buffers planned.
    pub buffers: usize,
    /// Of which memset outputs.
    pub memset_buffers: usize,
    /// The plan under the requested policy (its numbers also at top level).
    pub atomic_clean: i64,
    /// Arena bytes under the requested policy.
    pub arena_bytes: u64,
    /// LOAD under the requested policy.
    pub load_bytes: u64,
    /// Arena over LOAD.
    pub ratio: f64,
    /// Whether the plan passed verification (always true when printed).
    pub verified: bool,
    /// The best lower bound on the arena under the requested policy.
    pub lower_bound_bytes: u64,
    /// Whether no smaller arena exists under the requested policy.
    pub proven_optimal: bool,
    /// Whether the time limit cut the search short.
    pub timed_out: bool,
    /// Both policies.
    pub policies: [PolicyPlanOut; 2],
    /// Arena bytes policy 0 costs over 1.
    pub centralized_extra_arena_bytes: i128,
    /// LOAD bytes policy 0 costs over 1.
    pub centralized_extra_load_bytes: u64,
    /// Clean operations policy 1 needs beyond policy 0's one.
    pub separate_extra_clean_ops: i64,
}

impl PlanSummary {
    /// The summary for the requested policy code (0 or 1).
    pub fn new(bufs: &[Buffer], cmp: &CleanComparison, requested: i64) -> Self {
        let chosen = if requested == 1 {
            &cmp.separate
        } else {
            &cmp.centralized
        };
        Self {
            buffers: bufs.len(),
            memset_buffers: bufs.iter().filter(|b| b.memset).count(),
            atomic_clean: chosen.policy.code(),
            arena_bytes: chosen.plan.arena,
            load_bytes: chosen.plan.load,
            ratio: chosen.plan.ratio(),
            verified: true,
            lower_bound_bytes: chosen.plan.lower_bound,
            proven_optimal: chosen.plan.proven_optimal,
            timed_out: chosen.plan.timed_out,
            policies: [(&cmp.centralized).into(), (&cmp.separate).into()],
            centralized_extra_arena_bytes: cmp.extra_arena_bytes(),
            centralized_extra_load_bytes: cmp.extra_load_bytes(),
            separate_extra_clean_ops: cmp.separate.clean_ops as i64
                - cmp.centralized.clean_ops as i64,
        }
    }
}

/// `id,lower,upper,size,memset,offset` for every buffer.
pub fn offsets_csv(bufs: &[Buffer], offsets: &[u64]) -> String {
    let mut s = String::from("id,lower,upper,size,memset,offset\n");
    for (b, o) in bufs.iter().zip(offsets) {
        s.push_str(&format!(
            "{},{},{},{},{},{o}\n",
            b.id,
            b.lower,
            b.upper,
            b.size,
            u8::from(b.memset)
        ));
    }
    s
}

/// Bytes for people: `1.50 GiB`, the workspace's one formatter.
pub use cann_i18n::bytes::human as human_bytes;
