//! What every front end (the `cannctl` command, the Python package, the language server)
//! does with a config the same way: read it, pick its target, and diagnose it.
//!
//! - [`load`], [`load_named`], [`load_text`]: a config file or text, parsed.
//! - [`target`]: the product and release it is checked against (given ids beat the file's).
//! - [`diagnose`]: parse and validation findings together, ordered by position.
//!
//! - [`settings::resolve`]: `[tool.cannctl]` in the nearest `pyproject.toml`, for every
//!   front end.
//!
//! Nothing here renders: the language of messages is passed in, never read from a global.

mod error;
mod pipeline;
pub mod settings;

pub use error::CheckError;
pub use pipeline::{
    diagnose, is_json, load, load_named, load_text, parse_product, parse_release, soc_cores,
    target, target_in, Loaded, CONFIG_LIMITS,
};
