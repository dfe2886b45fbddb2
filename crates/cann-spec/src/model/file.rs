//! On-disk file formats that options rely on.

use super::{IntRange, Sources, Text};
use crate::diag::Loc;

/// An on-disk file format that options rely on (e.g. `op_cache.ini`).
#[derive(Debug, Clone, PartialEq)]
pub struct FileFormat {
    pub name: String,
    pub location: Text,
    pub sections: Vec<FileSection>,
    /// What happens when the file or its values are invalid.
    pub invalid: Text,
    pub doc: Text,
    pub source: Sources,
    pub loc: Loc,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileSection {
    pub name: String,
    pub keys: Vec<FileKey>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileKey {
    pub name: String,
    pub range: Option<IntRange>,
    pub unit: Option<String>,
    pub default: Option<i64>,
    /// Environment variable consulted when the file does not take effect.
    pub env: Option<String>,
    /// Values with a special meaning, e.g. `-1` turns aging off.
    pub special: Vec<(i64, Text)>,
    pub doc: Text,
    pub loc: Loc,
}
