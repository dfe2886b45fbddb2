//! What-if simulation and static planning for the memory policies
//! (`cannctl mem`), on the engine of [`cann_runtime::memory`].
//!
//! - [`trace`]: the JSONL trace format (reader, checker, writer).
//! - [`torch`]: import of PyTorch / torch_npu memory snapshots
//!   (`_dump_snapshot`, pickle or JSON) into a trace; [`pickle`] decodes the pickle form.
//! - [`replay`]: drives a [`cann_runtime::memory::SessionMemory`] on a fresh
//!   [`cann_runtime::memory::CountingBackend`] per policy and records the curves.
//! - [`buffers`], [`planner`], [`clean`]: static offset planning against the
//!   LOAD lower bound, verified, with the cost of `atomic_clean_policy` 0.
//! - [`plot`]: the SVG chart of `cannctl mem compare --plot`.
//! - [`report`]: the serializable summaries the CLI prints.

pub mod buffers;
pub mod clean;
pub mod csv;
pub mod error;
pub mod pickle;
pub mod planner;
pub mod plot;
pub mod replay;
pub mod report;
pub mod torch;
mod torch_pickle;
mod torch_snapshot;
pub mod trace;
mod trace_error;
mod trace_write;

pub use buffers::{load, verify, Buffer};
pub use clean::{as_live, plan_policy, CleanComparison, PolicyPlan};
pub use csv::{parse_csv, parse_csv_in};
pub use error::{MemsimError, Place};
pub use planner::{
    generate, greedy, plan, plan_observed, plan_with, Observer, Overlaps, Placement, Plan,
    PlanOptions, Progress, Strategy,
};
pub use plot::render_svg;
pub use replay::{compare, replay, Refusal, Replay, ReplayConfig, Sample, COMPARED_POLICIES};
pub use report::{load_buffers, load_buffers_in, load_trace, PlanSummary, SimSummary};
pub use torch::{import_snapshot, ImportOptions, ImportReport};
pub use trace::{
    parse_jsonl, Counted, Event, GraphDef, GraphKind, Op, Trace, TraceBuilder, TraceError,
};
pub use trace_write::write_jsonl;
