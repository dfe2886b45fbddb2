//! A source file as findings are drawn on it: its lines indexed once, and the part of a line
//! around a column that is shown, so a long line costs the same as a short one.

use std::ops::Range;

/// Characters shown on each side of a finding on a long line.
const CONTEXT: usize = 60;
/// Lines up to this many characters are shown whole.
const SHORT_LINE: usize = 2 * CONTEXT + 40;
/// Characters of a token that are underlined at most.
const MAX_TOKEN: usize = 80;

/// A file's text with the byte offset of every line start, built once per file.
pub struct Source<'a> {
    pub name: &'a str,
    text: &'a str,
    starts: Vec<usize>,
}

/// The part of one line shown for a finding, with the underlined byte range in it.
#[derive(Debug, PartialEq, Eq)]
pub struct Excerpt {
    pub text: String,
    pub span: Range<usize>,
}

impl<'a> Source<'a> {
    pub fn new(name: &'a str, text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source { name, text, starts }
    }

    /// Line `n` (1-based) without its line break.
    pub fn line(&self, n: u32) -> Option<&'a str> {
        let i = (n as usize).checked_sub(1)?;
        let start = *self.starts.get(i)?;
        let end = self.starts.get(i + 1).copied().unwrap_or(self.text.len());
        let line = self.text.get(start..end)?;
        Some(line.trim_end_matches('\n').trim_end_matches('\r'))
    }

    /// The excerpt of line `line` for a finding at character column `col` (1-based).
    pub fn excerpt(&self, line: u32, col: u32) -> Option<Excerpt> {
        self.line(line).map(|l| excerpt(l, col))
    }
}

/// The token at `col` underlined, and the line cut to a window around it when it is long.
pub fn excerpt(line: &str, col: u32) -> Excerpt {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let at = (col.max(1) as usize - 1).min(chars.len());
    let len = token_len(&chars[at..]);
    let (from, to) = if chars.len() <= SHORT_LINE {
        (0, chars.len())
    } else {
        (
            at.saturating_sub(CONTEXT),
            (at + len + CONTEXT).min(chars.len()),
        )
    };
    let byte = |i: usize| chars.get(i).map_or(line.len(), |c| c.0);
    let mut text = String::new();
    if from > 0 {
        text.push('…');
    }
    let offset = text.len();
    text.push_str(&line[byte(from)..byte(to)]);
    if to < chars.len() {
        text.push('…');
    }
    let start = offset + byte(at) - byte(from);
    let end = offset + byte(at + len) - byte(from);
    Excerpt {
        text,
        span: start..end,
    }
}

/// Characters of the YAML/JSON token a finding points at: a quoted string to its closing
/// quote, else a plain scalar or key up to the `:`, `,`, `]`, `}` or comment after it.
fn token_len(rest: &[(usize, char)]) -> usize {
    let Some(&(_, first)) = rest.first() else {
        return 0;
    };
    // An opening bracket stands for the whole collection: point at it alone.
    if matches!(first, '[' | '{') {
        return 1;
    }
    let mut n = if first == '"' || first == '\'' {
        let mut escaped = false;
        let close = rest[1..].iter().position(|&(_, c)| {
            let end = c == first && !escaped;
            escaped = first == '"' && c == '\\' && !escaped;
            end
        });
        close.map_or(rest.len(), |i| i + 2)
    } else {
        let stop = rest.iter().enumerate().position(|(i, &(_, c))| {
            let next = rest.get(i + 1).map(|x| x.1);
            matches!(c, ',' | ']' | '}')
                || (c == ':' && next.is_none_or(char::is_whitespace))
                || (c == '#' && i > 0 && rest[i - 1].1.is_whitespace())
        });
        let mut n = stop.unwrap_or(rest.len());
        while n > 1 && rest[n - 1].1.is_whitespace() {
            n -= 1;
        }
        n
    };
    n = n.clamp(1, MAX_TOKEN.min(rest.len()));
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn underlined(line: &str, col: u32) -> String {
        let e = excerpt(line, col);
        e.text[e.span].to_string()
    }

    #[test]
    fn tokens_are_keys_plain_values_or_quoted_strings() {
        assert_eq!(underlined("  op_debug_levl: 3", 3), "op_debug_levl");
        assert_eq!(underlined("  mode: enable   # note", 9), "enable");
        assert_eq!(underlined(r#"{"a": "x\"y", "b": 1}"#, 7), r#""x\"y""#);
        assert_eq!(underlined("{ a: 1, b: 2 }", 6), "1");
        assert_eq!(underlined("  dump_path: /数据/a b", 14), "/数据/a b");
        assert_eq!(underlined("url: http://x", 6), "http://x");
    }

    #[test]
    fn a_column_past_the_end_points_after_the_line() {
        let e = excerpt("abc", 9);
        assert_eq!(e.span, 3..3);
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line: String = (0..5000).map(|i| format!("\"k{i:04}\": 1, ")).collect();
        let col = line.find("\"k2500\"").map(|b| b as u32 + 1).unwrap_or(1);
        let e = excerpt(&line, col);
        assert!(
            e.text.chars().count() <= 2 * CONTEXT + MAX_TOKEN + 2,
            "{}",
            e.text
        );
        assert!(e.text.starts_with('…') && e.text.ends_with('…'));
        assert_eq!(&e.text[e.span], "\"k2500\"");
    }

    #[test]
    fn lines_are_indexed_once_and_found_by_number() {
        let s = Source::new("f", "a\r\nbb\n\nccc");
        assert_eq!(s.line(1), Some("a"));
        assert_eq!(s.line(2), Some("bb"));
        assert_eq!(s.line(3), Some(""));
        assert_eq!(s.line(4), Some("ccc"));
        assert_eq!(s.line(5), None);
        assert_eq!(s.line(0), None);
    }
}
