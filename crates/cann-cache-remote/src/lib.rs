//! A shared tier for the operator compile cache on a store a cluster already has: a
//! directory on shared storage, Redis, or an S3-compatible object store (Huawei OBS, MinIO,
//! AWS), all through Apache OpenDAL. Like sccache's or Bazel's remote cache, a node pushes
//! what it compiled and a fresh node pulls what its toolkit and SoC can use, so it starts warm.
//!
//! - [`url`]: the `--remote URL` and why credentials never appear in it.
//! - [`layout`]: content-addressed entry objects, scoped by SoC directory, toolkit version
//!   stamps and binary format, in one object format; the hash check on pull.
//! - [`binfmt`]: what an entry's binaries are (ELF class, byte order and machine, or a
//!   coarse file kind), so a node never pulls another machine's binaries.
//! - [`store`]: the stores, and how each keeps a half-written object invisible.
//! - [`sync`]: push and pull, in parallel, with their reports.
//! - [`gc`]: remote aging by last push or pull, with the local cache's LRU rules.
//!
//! The local side goes only through the local cache's public API: [`Cache::live_entries`],
//! [`Cache::read_exact`] (no access time moves: a copy is not a use) and
//! [`Cache::commit_exact`] (files first, manifest last by a rename that never replaces, as a
//! local put commits), so CANN, which reads the directory, sees whole entries only.
//!
//! [`Cache::live_entries`]: cann_runtime::cache::Cache::live_entries
//! [`Cache::read_exact`]: cann_runtime::cache::Cache::read_exact
//! [`Cache::commit_exact`]: cann_runtime::cache::Cache::commit_exact

pub mod binfmt;
pub mod error;
pub mod gc;
pub mod layout;
mod pull;
pub mod store;
pub mod sync;
pub mod url;

pub use error::RemoteError;
pub use gc::{gc_remote, GcLimits, RemoteGcReport, RemoteRemoval};
pub use layout::{ObjectName, Scope};
pub use store::Remote;
pub use sync::{
    check_binary_format, check_soc, local_socs, pull, push, versions, Options, OtherFormat,
    PullReport, PushReport, Refusal, Skipped,
};
pub use url::{parse as parse_url, Env, ProcessEnv, StoreSpec};
