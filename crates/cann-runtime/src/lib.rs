//! Runtime behaviours that CANN TF Adapter options control.
//!
//! - [`cache`]: the on-disk operator compile cache (`op_compiler_cache_mode`,
//!   `op_compiler_cache_dir`, `op_cache.ini`) with aging.
//! - [`memory`]: the memory policies behind `MemoryConfig`.
//!
//! What-if simulation over the memory engine (traces, planning, plots) is the
//! `cann-memsim` crate, so the runtime carries no plotting or pickle reader.

pub mod cache;
pub mod from_config;
pub mod memory;
