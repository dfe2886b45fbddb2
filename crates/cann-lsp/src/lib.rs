//! The cannctl language server (`cannctl server`): LSP 3.17 over standard input and output,
//! on the same core as `cannctl lint` and `cannctl check`. It maps documents, positions and
//! requests to that core and back, and holds no rule, message or fact of its own.
//!
//! # What it does
//!
//! - **Diagnostics** on open, change and save, for Python scripts (`cannctl lint`) and
//!   cannctl config files, YAML or JSON, that have a top-level `npu_run_config` or
//!   `product` key (`cannctl check`): the command's findings for the same text, with its
//!   severity, its rule id as `code`, its message (its hint as related information), and
//!   the option's docs page as `codeDescription` when a docs URL is set.
//! - **Hover** on an option's name (a `parameter_map` key, a keyword of `NPURunConfig` and
//!   the other config classes, a `global_options()` attribute, an `os.environ` variable, a
//!   config file's key) and on a value.
//! - **Completion** of session keys (with their accessor), keywords, TF2 attributes,
//!   environment variables, values, and config-file keys and values, for the configured
//!   product and release.
//! - **Code actions**: each safe fix as a quick fix on its finding, and `source.fixAll`.
//!
//! # Settings
//!
//! `initializationOptions` and `workspace/didChangeConfiguration` take an object (its
//! keys also read under a `cannctl` key), each key optional:
//!
//! | key | value | default |
//! | --- | --- | --- |
//! | `product` | a product id, e.g. `atlas-a2-training` | `[tool.cannctl]` `product` |
//! | `release` | a release id, e.g. `9.0.0` | `[tool.cannctl]` `release`, else the newest |
//! | `lang` | `en` or `zh` | the client's `locale` (`zh*`: Chinese), else `[tool.cannctl]` `lang` |
//! | `docsUrl` | the docs site's root URL | `[tool.cannctl]` `docs-url` |
//! | `exclude` | globs relative to the workspace root | `[tool.cannctl]` `exclude` |
//!
//! What the client sets beats `[tool.cannctl]` in the nearest `pyproject.toml` above the
//! document ([`cann_check::settings`]), which beats the defaults. A saved or changed
//! `pyproject.toml` (`didSave`, or `workspace/didChangeWatchedFiles`, which the server
//! registers for when the client allows it) is read again.
//!
//! # Robustness
//!
//! Edits are incremental, positions UTF-16. Documents over the command's size limit, or
//! holding NUL bytes, get one diagnostic and no other work. Lints run on their own thread,
//! requests on another, each on a snapshot: results for an older version are dropped (a
//! request then answers `ContentModified`), and `$/cancelRequest` answers `RequestCancelled`.

mod api;
mod config_cursor;
mod diagnose;
mod document;
pub mod fuzzing;
mod hover_text;
mod linted;
mod position;
mod server;
mod session;
mod settings;
mod state;
mod transport;
mod workers;

pub use server::{run, run_stdio, ServerError};

/// Scripts the servers of this process have linted: for tests that check a request
/// reused the lint thread's findings rather than linting again.
#[doc(hidden)]
pub fn lints_run() -> usize {
    diagnose::LINTS.load(std::sync::atomic::Ordering::Relaxed)
}
