//! One entry on disk: its key, its manifest, the files the manifest names, and the relative
//! paths they live at. Knows nothing of the state files or of any operation.

pub(crate) mod files;
pub(crate) mod key;
pub mod manifest;
pub(crate) mod relpath;
