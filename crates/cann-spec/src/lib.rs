//! The CANN TF Adapter option spec: data model, strict loader and checks.
//!
//! `load_dir` reads a spec directory into a checked [`Spec`] or returns every problem
//! found, each with its file, line and column. Nothing here generates code or writes files.

pub mod behaviour;
pub mod chars;
mod check;
pub mod diag;
pub mod fidelity;
mod fits;
mod history;
pub mod introduced;
pub mod keys;
mod load;
pub mod model;
pub mod names;
pub mod range;
mod read;
pub mod session;
pub mod source;
pub mod yaml;

/// The language the model's texts and sentences are rendered in (`Text::get`,
/// `Gone::sentence`), re-exported so codegen words them without a catalog dependency.
pub use cann_i18n::Lang;
pub use diag::{Diagnostic, Loc, SpecErrors};
pub use load::{load_dir, load_files, SourceFile};
pub use model::*;
pub use range::ReleaseRange;
pub use read::{did_you_mean, DID_YOU_MEAN_SIMILARITY};
