//! Bytes to text, and byte offsets to lines and columns.

use std::path::Path;

use crate::{InputError, Limits};

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A place in a file: the byte offset from the start of the file as stored, and the
/// 1-based line and column. The column counts characters (a CJK character is one), the
/// way the YAML and JSON parsers count, so carets line up with theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub offset: u64,
    pub line: usize,
    pub column: usize,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Reads `path` under `limits` and decodes it as UTF-8.
pub fn read_text(path: &Path, limits: Limits) -> Result<String, InputError> {
    let bytes = crate::read_bytes(path, limits)?;
    decode_utf8(path, bytes, limits.strip_bom)
}

/// Decodes `bytes` as UTF-8, dropping a leading byte-order mark when `strip_bom`. The first
/// bad byte is reported by its offset in `bytes` (the mark included) and its line:column.
pub fn decode_utf8(path: &Path, mut bytes: Vec<u8>, strip_bom: bool) -> Result<String, InputError> {
    let skip = if strip_bom && bytes.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    bytes.drain(..skip);
    String::from_utf8(bytes).map_err(|e| {
        let at = position_of(e.as_bytes(), e.utf8_error().valid_up_to());
        InputError::NotUtf8 {
            path: path.to_path_buf(),
            at: Position {
                offset: at.offset + skip as u64,
                ..at
            },
        }
    })
}

/// The line and column of byte `offset` in `bytes` (clamped to the end). Lines end at
/// `\n`; the column counts the characters before `offset` on its line, plus one, where
/// bytes that are not valid UTF-8 count one each.
pub fn position_of(bytes: &[u8], offset: usize) -> Position {
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = before[line_start..]
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + c.invalid().len())
        .sum::<usize>()
        + 1;
    Position {
        offset: offset as u64,
        line,
        column,
    }
}
