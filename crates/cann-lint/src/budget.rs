//! The syntax-tree budget, checked before the tree is built.
//!
//! tree-sitter holds every node of a tree in memory, about a hundred bytes each, and a tree
//! has one to two nodes per token. One expression of millions of tokens (a generated table
//! pasted into `NPURunConfig(...)`) would cost gigabytes and tens of seconds before the walk
//! could count a node. So the tokens of the text to be parsed are counted first, by a
//! scanner that knows strings and comments, and a text past the budget is refused at the
//! offset where it crossed it. The walk keeps its own count as a second guard.

use std::ops::Range;

/// The offset at which `text` (only `ranges` of it, when given) has more than `max` tokens,
/// if it does. Counting is linear and allocation-free.
pub(crate) fn tokens_over(
    text: &str,
    ranges: Option<&[Range<usize>]>,
    max: usize,
) -> Option<usize> {
    let all = 0..text.len();
    let ranges = ranges.unwrap_or(std::slice::from_ref(&all));
    let b = text.as_bytes();
    let mut count = 0usize;
    for r in ranges {
        let mut i = r.start;
        let end = r.end.min(b.len());
        while i < end {
            let c = b[i];
            if c.is_ascii_whitespace() || c == b'\\' {
                i += 1;
                continue;
            }
            if c == b'#' {
                while i < end && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            count += 1;
            if count > max {
                return Some(i);
            }
            match c {
                b'"' | b'\'' => i = string_end(b, i, end),
                c if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 => {
                    while i < end && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80)
                    {
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
    }
    None
}

/// The offset just past the string literal that opens at `start`.
fn string_end(b: &[u8], start: usize, end: usize) -> usize {
    let q = b[start];
    let triple = b.get(start + 1) == Some(&q) && b.get(start + 2) == Some(&q);
    let mut i = start + if triple { 3 } else { 1 };
    while i < end {
        match b[i] {
            b'\\' => i += 2,
            b'\n' if !triple => return i,
            c if c == q => {
                if !triple {
                    return i + 1;
                }
                if b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q) {
                    return i + 3;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_comments_are_cheap_and_operators_are_not() {
        let text = "x = \"a b c d e f\"  # one two three\ny = 1+2\n";
        // x = "…" y = 1 + 2: eight tokens; the comment counts for none.
        assert_eq!(tokens_over(text, None, 8), None);
        assert_eq!(
            tokens_over(text, None, 7),
            Some(text.rfind('2').unwrap_or(0))
        );
        let long = format!("v = {}1\n", "1+".repeat(1000));
        assert!(tokens_over(&long, None, 1500).is_some());
        // Only the ranges given are counted.
        assert_eq!(
            tokens_over(&long, Some(std::slice::from_ref(&(0..3))), 5),
            None
        );
    }

    #[test]
    fn an_unterminated_triple_quoted_string_ends_at_the_text() {
        assert_eq!(tokens_over("s = '''open\n1 2 3 4", None, 3), None);
    }
}
