//! Half-typed code. A bracket left open (`x = foo(1,` being typed) makes tree-sitter's
//! recovery swallow everything after it into one broken expression, so a setting below it
//! would go unseen until the bracket is closed; where tree-sitter puts the error is then
//! not where the bracket is. So the broken statement is found as Python's tokenizer would
//! see it: a bracket still open when a line at its statement's indentation begins a new
//! statement (a keyword, an assignment), else the line of the first error. Those lines are
//! blanked to `pass` (same bytes, so every position stays the file's) and the text parsed
//! again, incrementally; while that moves the first error forward, the next broken
//! statement is blanked too, within a bound. The settings are then read from the last
//! tree; the first tree still speaks for the blanked lines themselves.

use std::ops::Range;

use tree_sitter::{InputEdit, Node, Point, Tree};

use crate::LintError;

/// Broken lines blanked at most, each costing one incremental parse.
pub(crate) const MAX_ROUNDS: usize = 8;

/// A parse of the text with its broken lines blanked.
pub(crate) struct Recovered {
    /// The text as parsed: the original with each blanked line's code replaced.
    pub text: String,
    pub tree: Tree,
    /// The byte ranges blanked (whole lines), ascending.
    pub blanked: Vec<Range<usize>>,
}

impl Recovered {
    /// Whether 1-based `line` of `text` was blanked.
    pub fn blanks_line(&self, text: &str, line: u32) -> bool {
        let start = if line <= 1 {
            0
        } else {
            memchr::memchr_iter(b'\n', text.as_bytes())
                .nth(line as usize - 2)
                .map_or(text.len(), |i| i + 1)
        };
        self.blanked.iter().any(|b| b.contains(&start))
    }
}

/// Where the first syntax error of `root` starts: the first ERROR or MISSING node in
/// source order. Iterative: one path down the tree, never recursion.
pub(crate) fn first_error(root: Node<'_>) -> Option<usize> {
    if !root.has_error() {
        return None;
    }
    // Down the first child that holds an error, to the innermost: an ERROR node can wrap
    // whole statements that parsed, the error being deeper.
    let mut n = root;
    loop {
        if n.is_missing() {
            return Some(n.start_byte());
        }
        let mut c = n.walk();
        let next = n.children(&mut c).find(|c| c.has_error() || c.is_missing());
        match next {
            Some(child) => n = child,
            None => return Some(n.start_byte()),
        }
    }
}

/// Statement keywords: a line starting with one, at or left of the indentation of a
/// statement whose bracket is open, starts a new statement.
const KEYWORDS: [&str; 24] = [
    "def", "class", "if", "elif", "else", "for", "while", "with", "try", "except", "finally",
    "return", "import", "from", "raise", "pass", "break", "continue", "global", "nonlocal",
    "assert", "del", "async", "@",
];

/// Whether a line (after its indentation) begins a statement no bracket can hold: a
/// statement keyword, or an assignment `a.b[c] = ...` (one `=`, not `==`). A line that
/// ends in `,` or closes a bracket it did not open is an argument of the open call.
fn begins_statement(line: &[u8]) -> bool {
    let code = line
        .split(|c| *c == b'#')
        .next()
        .unwrap_or(line)
        .trim_ascii_end();
    if code.ends_with(b",") {
        return false;
    }
    let mut net = 0i32;
    for c in code {
        match c {
            b'(' | b'[' | b'{' => net += 1,
            b')' | b']' | b'}' => net -= 1,
            _ => {}
        }
        if net < 0 {
            return false;
        }
    }
    let word_end = line
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .unwrap_or(line.len());
    let word = &line[..word_end];
    if line.starts_with(b"@")
        || KEYWORDS
            .iter()
            .any(|k| k.as_bytes() == word && k.as_bytes() != b"@")
    {
        return true;
    }
    if word.is_empty() || word[0].is_ascii_digit() {
        return false;
    }
    // A target: names, dots and subscripts, then `=` or an augmented assignment.
    let mut i = word_end;
    let mut depth = 0usize;
    while i < line.len() {
        match line[i] {
            b'[' => depth += 1,
            b']' => depth = depth.saturating_sub(1),
            b'=' if depth == 0 => return line.get(i + 1) != Some(&b'='),
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' if depth == 0 => {
                return line.get(i + 1) == Some(&b'=');
            }
            c if depth == 0 && !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b' ')) => {
                return false;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

fn indent_of(line: &[u8]) -> usize {
    line.iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count()
}

/// The first statement whose bracket is never closed: from the start of the line it opens
/// on to the start of the line where a new statement begins while it is open (or the end
/// of the text). `None` when every bracket closes, or a string runs to the end.
fn unclosed_bracket(text: &str) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let (mut i, mut depth, mut line_start) = (0usize, 0usize, 0usize);
    // The line where the outermost open bracket was opened, and its indentation.
    let (mut open_line, mut open_indent) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'#' => {
                i = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n);
                continue;
            }
            q @ (b'"' | b'\'') => {
                let triple = b[i..].starts_with(&[q, q, q]);
                let mut j = i + if triple { 3 } else { 1 };
                loop {
                    match b.get(j) {
                        None if triple => return None,
                        None => break,
                        Some(b'\\') => j += 2,
                        Some(&c) if c == q && (!triple || b[j..].starts_with(&[q, q, q])) => {
                            j += if triple { 3 } else { 1 };
                            break;
                        }
                        // A one-line string ends at the line's end, closed or not.
                        Some(b'\n') if !triple => break,
                        Some(_) => j += 1,
                    }
                }
                i = j;
                continue;
            }
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    open_line = line_start;
                    open_indent = indent_of(&b[line_start..]);
                }
                depth += 1;
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\\' => i += 1,
            b'\n' => {
                line_start = i + 1;
                let line = &b[line_start..];
                let line = &line[..memchr::memchr(b'\n', line).unwrap_or(line.len())];
                let code = &line[indent_of(line)..];
                if depth > 0
                    && !code.is_empty()
                    && !code.starts_with(b"#")
                    && indent_of(line) <= open_indent
                    && begins_statement(code)
                {
                    return Some(open_line..line_start);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (depth > 0).then_some(open_line..b.len())
}

/// The line holding byte `at`, with the lines after it indented deeper (its continuation,
/// or a block it opened) and blank lines between them.
fn broken_lines(text: &str, at: usize) -> Range<usize> {
    let b = text.as_bytes();
    let start = b[..at.min(b.len())]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    let indent = |line: &[u8]| {
        line.iter()
            .take_while(|c| matches!(c, b' ' | b'\t'))
            .count()
    };
    let own = indent(&b[start..]);
    let mut end = b[start..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |i| start + i + 1);
    while end < b.len() {
        let line_end = b[end..]
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |i| end + i + 1);
        let line = &b[end..line_end];
        let blank = line.iter().all(|c| c.is_ascii_whitespace());
        if !blank && indent(line) <= own {
            break;
        }
        end = line_end;
    }
    // Trailing blank lines stay: they end nothing.
    start..end
}

/// `text[range]` written as `pass` at the first line's indentation and spaces after it,
/// newlines kept: the same number of bytes, so offsets and rows do not move.
fn blank(text: &mut String, range: Range<usize>) {
    let mut out: Vec<u8> = text.as_bytes()[range.clone()].to_vec();
    let own = out.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    // The first line's indentation stays as written (tabs are indentation too).
    for c in out[own..]
        .iter_mut()
        .filter(|c| !matches!(c, b'\n' | b'\r'))
    {
        *c = b' ';
    }
    // `pass` keeps a block the line was alone in a block; it fits wherever the first line
    // had four bytes of code after its indentation.
    let line_len = out.iter().position(|&c| c == b'\n').unwrap_or(out.len());
    if line_len >= own + 4 {
        out[own..own + 4].copy_from_slice(b"pass");
    }
    // Only ASCII was written, over whole lines, so the bytes are still UTF-8.
    text.replace_range(range, &String::from_utf8_lossy(&out));
}

fn point(text: &str, at: usize) -> Point {
    let before = &text.as_bytes()[..at];
    let row = before.iter().filter(|&&c| c == b'\n').count();
    let col = at
        - before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
    Point::new(row, col)
}

/// The text with its broken lines blanked and parsed again, when that moved the first
/// error forward at least once; `None` when the tree has no error or blanking did not help.
pub(crate) fn reparse(
    text: &str,
    ranges: Option<&[Range<usize>]>,
    tree: &Tree,
) -> Result<Option<Recovered>, LintError> {
    let Some(mut err) = first_error(tree.root_node()) else {
        return Ok(None);
    };
    let mut work = text.to_string();
    let mut last = tree.clone();
    let mut blanked: Vec<Range<usize>> = Vec::new();
    let mut best: Option<Recovered> = None;
    for _ in 0..MAX_ROUNDS {
        let cut = unclosed_bracket(&work).unwrap_or_else(|| broken_lines(&work, err));
        if cut.is_empty() {
            break;
        }
        blank(&mut work, cut.clone());
        blanked.push(cut.clone());
        last.edit(&InputEdit {
            start_byte: cut.start,
            old_end_byte: cut.end,
            new_end_byte: cut.end,
            start_position: point(&work, cut.start),
            old_end_position: point(&work, cut.end),
            new_end_position: point(&work, cut.end),
        });
        let Some(t) = crate::parse_again(&work, ranges, &last)? else {
            break;
        };
        let next = first_error(t.root_node());
        // Progress: the first error is gone, or later than it was.
        if next.is_some_and(|e| e <= err) {
            break;
        }
        blanked.sort_by_key(|r| r.start);
        best = Some(Recovered {
            text: work.clone(),
            tree: t.clone(),
            blanked: blanked.clone(),
        });
        match next {
            Some(e) => {
                err = e;
                last = t;
            }
            None => break,
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn broken_lines_take_the_continuation_and_stop_at_the_next_statement() {
        let t = "def f():\n    y = g(1,\n          2\n\n    z = 3\n";
        let at = t.find("y =").unwrap();
        let r = broken_lines(t, at);
        assert_eq!(&t[r], "    y = g(1,\n          2\n\n");
        let mut w = t.to_string();
        blank(&mut w, broken_lines(t, at));
        assert_eq!(w, "def f():\n    pass    \n           \n\n    z = 3\n");
        assert_eq!(w.len(), t.len());
        // Non-ASCII code on a blanked line: byte for byte, still UTF-8.
        let t = "x = f(\"é\n";
        let mut w = t.to_string();
        blank(&mut w, 0..t.len());
        assert_eq!(w.len(), t.len());
        assert!(w.starts_with("pass "));
    }

    const SCRIPT: &str = "import tensorflow as tf\n\
from npu_bridge.npu_init import *\n\
\n\
def build():\n\
    BROKEN\n\
    config = tf.ConfigProto()\n\
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n\
    custom_op.name = \"NpuOptimizer\"\n\
    custom_op.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"allow_mix_precison\")\n\
    if True:\n\
        custom_op.parameter_map[\"op_compiler_cache_mod\"].s = tf.compat.as_bytes(\"enable\")\n\
    return config\n\
\n\
def other():\n\
    run = NPURunConfig(precision_mode=\"force_fp16\", op_compiler_cache_mode=\"forse\")\n";

    fn found(text: &str) -> Vec<(u32, String)> {
        let r = crate::lint_source(text, &crate::LintOptions::default()).unwrap();
        r.findings
            .iter()
            .map(|f| (f.line(), f.diagnostic.option.clone()))
            .collect()
    }

    /// An unclosed bracket, list or string above the settings, in the same function or
    /// in a block: every setting below it is still checked, as if the line were complete.
    #[test]
    fn settings_below_a_half_typed_line_keep_their_findings() {
        let whole = found(&SCRIPT.replace("BROKEN", "x = 1"));
        assert_eq!(whole.len(), 3, "{whole:?}");
        for broken in [
            "x = foo(1, 2",
            "x = [1, 2",
            "x = {\"a\": (1,",
            "x = foo(1,\n            2,",
            "x = 'abc",
            "custom_op.parameter_map[\"",
            "if x:\n        y = g(1,",
        ] {
            let text = SCRIPT.replace("BROKEN", broken);
            // Lines below move by the lines the broken text adds.
            let shift = broken.matches('\n').count() as u32;
            let want: Vec<(u32, String)> =
                whole.iter().map(|(l, o)| (l + shift, o.clone())).collect();
            assert_eq!(found(&text), want, "{broken}");
        }
    }

    /// Two broken lines: both are passed over. One at the very end: nothing to recover,
    /// everything above is found as before.
    #[test]
    fn several_broken_lines_and_one_at_the_end() {
        let text = SCRIPT
            .replace("BROKEN", "x = foo(1,")
            .replace("    return config\n", "    y = [2,\n    return config\n");
        assert_eq!(found(&text).len(), 3, "{:?}", found(&text));
        let text = format!("{}x = foo(\n", SCRIPT.replace("BROKEN", "x = 1"));
        assert_eq!(found(&text).len(), 3);
    }

    #[test]
    fn the_unclosed_bracket_is_where_python_would_say() {
        let t = "def f():\n    c = g()\n    x = foo(1,\n            2\n    y = h(\"(\")\n";
        let r = unclosed_bracket(t).unwrap();
        assert_eq!(&t[r], "    x = foo(1,\n            2\n");
        // Brackets in strings and comments do not count; closed ones end nothing.
        assert_eq!(
            unclosed_bracket("a = f(\")\",  # (\n      2)\nb = 1\n"),
            None
        );
        // A keyword argument on a line of its own is not a new statement, nor is a line
        // closing the call; `==` is no assignment.
        let t = "run = NPURunConfig(\nprecision_mode=1,\nx == 2\n";
        assert_eq!(unclosed_bracket(t), Some(0..t.len()));
        assert_eq!(unclosed_bracket("run = f(\na=1)\nb = 2\n"), None);
        let t = "a = [1,\nif x:\n    pass\n";
        assert_eq!(unclosed_bracket(t), Some(0..8));
        // An unterminated triple-quoted string: not a bracket's doing.
        assert_eq!(unclosed_bracket("a = (\"\"\"x\n"), None);
    }
}
