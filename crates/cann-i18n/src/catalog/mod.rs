//! The catalog, one file per area. Each helper adds its area's messages to its own file.

pub mod cache;
pub mod cli;
pub mod config;
pub mod docs;
pub mod emit;
pub mod explain;
pub mod help;
pub mod input;
pub mod lint;
pub mod mem;
pub mod python;
pub mod remote;
pub mod server;
pub mod settings;
pub mod spec;

use crate::Entry;

/// Every area's entries, for the completeness tests.
pub const AREAS: &[(&str, &[Entry])] = &[
    ("cache", cache::ENTRIES),
    ("cli", cli::ENTRIES),
    ("config", config::ENTRIES),
    ("docs", docs::ENTRIES),
    ("emit", emit::ENTRIES),
    ("explain", explain::ENTRIES),
    ("help", help::ENTRIES),
    ("input", input::ENTRIES),
    ("lint", lint::ENTRIES),
    ("mem", mem::ENTRIES),
    ("python", python::ENTRIES),
    ("remote", remote::ENTRIES),
    ("server", server::ENTRIES),
    ("settings", settings::ENTRIES),
    ("spec", spec::ENTRIES),
];
