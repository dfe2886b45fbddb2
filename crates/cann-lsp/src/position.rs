//! Positions as LSP counts them (line, UTF-16 code units) against byte offsets into the
//! text, and the core's (line, column in characters, both 1-based).
//!
//! Every conversion clamps: a position past the end of a line means its end, past the last
//! line the end of the text, so no client position can index out of the text.

use lsp_types::{Position, Range};

/// Byte offset of the start of each line of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(text).map(|i| i + 1));
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// The bytes of line `line` (0-based) without its line break.
    fn line_span(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts.get(line).copied().unwrap_or(self.len);
        let mut end = self.starts.get(line + 1).copied().unwrap_or(self.len);
        let bytes = text.as_bytes();
        while end > start && matches!(bytes.get(end - 1), Some(b'\n' | b'\r')) {
            end -= 1;
        }
        (start, end)
    }

    /// The byte offset of an LSP position.
    pub fn offset(&self, text: &str, p: Position) -> usize {
        let line = p.line as usize;
        if line >= self.starts.len() {
            return self.len;
        }
        let (start, end) = self.line_span(text, line);
        let mut units = 0u32;
        for (i, c) in text.get(start..end).unwrap_or("").char_indices() {
            if units >= p.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        end
    }

    /// The LSP position of a byte offset (rounded down to a character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(self.len);
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let units: usize = text
            .get(start..offset)
            .unwrap_or("")
            .chars()
            .map(char::len_utf16)
            .sum();
        Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(units).unwrap_or(u32::MAX),
        )
    }

    pub fn range(&self, text: &str, span: std::ops::Range<usize>) -> Range {
        Range::new(
            self.position(text, span.start),
            self.position(text, span.end),
        )
    }

    /// The byte offset of the core's 1-based line and character column.
    pub fn offset_of_line_col(&self, text: &str, line: u32, col: u32) -> usize {
        let l = (line.max(1) - 1) as usize;
        if l >= self.starts.len() {
            return self.len;
        }
        let (start, end) = self.line_span(text, l);
        let skip = (col.max(1) - 1) as usize;
        text.get(start..end)
            .unwrap_or("")
            .char_indices()
            .nth(skip)
            .map_or(end, |(i, _)| start + i)
    }
}

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter(|(_, b)| *b == b'\n')
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_on_cjk_and_astral_characters() {
        let text = "a中😀b\nxy\r\n";
        let ix = LineIndex::new(text);
        // 'a' 1 unit, '中' 1 unit, '😀' 2 units.
        assert_eq!(ix.offset(text, Position::new(0, 2)), "a中".len());
        assert_eq!(ix.offset(text, Position::new(0, 4)), "a中😀".len());
        // Inside the surrogate pair: the character's end, never a split byte.
        assert_eq!(ix.offset(text, Position::new(0, 3)), "a中😀".len());
        assert_eq!(ix.position(text, "a中😀".len()), Position::new(0, 4));
        // Past the line's end: its end, before the line break.
        assert_eq!(ix.offset(text, Position::new(1, 99)), "a中😀b\nxy".len());
        assert_eq!(ix.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(ix.offset_of_line_col(text, 1, 4), "a中😀".len());
        assert_eq!(ix.position(text, text.len()), Position::new(2, 0));
    }
}
