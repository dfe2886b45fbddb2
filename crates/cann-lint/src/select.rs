//! Which parts of a script to parse.
//!
//! tree-sitter's Python grammar parses at a few MB/s, several times slower than ruff's
//! parser; a script that sets options usually does so in one function among many. So a
//! script is cut into its top-level statements (a `def`, a `class`, an assignment...) with
//! a small tokenizer that knows strings, comments, brackets and line continuations, and
//! only the statements that mention an option surface are handed to tree-sitter, as
//! included ranges of the one document: positions stay those of the file, and the scopes
//! the extractors look at (the enclosing function) are whole.
//!
//! When the cut is not trustworthy (a string or bracket still open at the end of the file)
//! or would save little, the whole file is parsed.

use std::ops::Range;

use aho_corasick::AhoCorasick;

/// Parsing ranges costs something too; below this share of skipped bytes, parse it all.
const MIN_SKIPPED_PERCENT: usize = 30;

/// Every logical line that holds code: its start and the length of its indentation. A
/// line inside brackets, a string or after a line continuation is part of the one before;
/// blank and comment-only lines are not listed. `None` if the tokenizer ends inside a
/// string or bracket, which means its picture of the file is not reliable.
fn logical_lines(text: &str) -> Option<Vec<(usize, usize)>> {
    let b = text.as_bytes();
    let mut lines = Vec::new();
    let mut line = |at: usize| {
        let indent = b[at..]
            .iter()
            .take_while(|c| matches!(c, b' ' | b'\t'))
            .count();
        if !matches!(
            b.get(at + indent),
            None | Some(b'#' | b'\r' | b'\n' | b'\x0c')
        ) {
            lines.push((at, indent));
        }
    };
    line(0);
    let mut depth = 0usize;
    // (quote byte, triple-quoted)
    let mut string: Option<(u8, bool)> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some((q, triple)) = string {
            match c {
                b'\\' => i += 1,
                b'\n' if !triple => string = None,
                _ if c == q => {
                    if !triple {
                        string = None;
                    } else if b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q) {
                        string = None;
                        i += 2;
                    }
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                let triple = b.get(i + 1) == Some(&c) && b.get(i + 2) == Some(&c);
                string = Some((c, triple));
                i += if triple { 3 } else { 1 };
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            // A line continuation: the next line is not a statement of its own.
            b'\\' if b.get(i + 1) == Some(&b'\n') => {
                i += 2;
                continue;
            }
            b'\n' if depth == 0 && i + 1 < b.len() => line(i + 1),
            _ => {}
        }
        i += 1;
    }
    (string.is_none() && depth == 0).then_some(lines)
}

/// Byte offsets where top-level statements start, or `None` if the tokenizer ends inside a
/// string or bracket. [`ranges`] reads the logical lines once and cuts them itself.
#[cfg(test)]
fn statement_starts(text: &str) -> Option<Vec<usize>> {
    let b = text.as_bytes();
    let lines = logical_lines(text)?;
    Some(top_level(b, &lines))
}

fn top_level(b: &[u8], lines: &[(usize, usize)]) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            lines
                .iter()
                .filter(|(at, indent)| *at > 0 && *indent == 0 && starts_statement(&b[*at..]))
                .map(|(at, _)| *at),
        )
        .collect()
}

/// A line at column 0 that begins a new top-level statement: not blank, not a comment, not
/// the `else`/`elif`/`except`/`finally` of the statement before.
fn starts_statement(line: &[u8]) -> bool {
    match line.first() {
        None | Some(b' ' | b'\t' | b'\r' | b'\n' | b'#' | b'\x0c') => false,
        Some(_) => !["else", "elif", "except", "finally"].iter().any(|kw| {
            line.starts_with(kw.as_bytes())
                && !line
                    .get(kw.len())
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        }),
    }
}

/// How far past `environ[` the closing bracket is looked for; a subscript longer than this
/// counts as written, so that nothing is missed and no scan is long.
const MAX_SUBSCRIPT: usize = 4096;

/// Whether `bytes` may set an option: they name a surface other than the environment, or
/// they write to `environ` (`environ[...] = ...`, `environ.setdefault(...)`), the ways the
/// environment extractor takes a setting. Reading the environment, as most scripts of a
/// tree do (`os.environ["RANK_ID"]`, `os.environ.get(...)`), sets nothing and needs no parse.
pub(crate) fn sets_options(triggers: &AhoCorasick, bytes: &[u8]) -> bool {
    triggers
        .find_iter(bytes)
        .any(|m| &bytes[m.range()] != b"environ" || environ_written(bytes, m.end()))
}

fn skip_space(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'\\'))
        .count();
    &b[n..]
}

/// Whether the `environ` that ends at `end` is assigned to or given a default.
fn environ_written(b: &[u8], end: usize) -> bool {
    let rest = skip_space(b.get(end..).unwrap_or_default());
    if let Some(after) = rest.strip_prefix(b".") {
        return skip_space(after).starts_with(b"setdefault");
    }
    let Some(inner) = rest.strip_prefix(b"[") else {
        return false;
    };
    let (mut depth, mut quote, mut i) = (1usize, None, 0);
    while depth > 0 {
        let Some(&c) = inner.get(i) else { return true };
        if i > MAX_SUBSCRIPT {
            return true;
        }
        match (quote, c) {
            (Some(_), b'\\') => i += 1,
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(c),
            (None, b'[') => depth += 1,
            (None, b']') => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    let after = skip_space(inner.get(i..).unwrap_or_default());
    after.first() == Some(&b'=') && after.get(1) != Some(&b'=')
}

/// `name` in a line `name = ...global_options...`, which the TF2 extractor treats as an alias.
fn alias_on(line: &str) -> Option<&str> {
    let (lhs, rhs) = line.split_once('=')?;
    if rhs.starts_with('=') || !rhs.contains("global_options") {
        return None;
    }
    let name = lhs.trim();
    (!name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
        .then_some(name)
}

/// How deep definitions are cut into their statements: a class, its methods, and what
/// they define inside.
const MAX_NESTING: u32 = 3;

/// `starts` (ascending) as the blocks they begin, up to `end`; a decorator belongs to the
/// definition below it.
fn blocks_of(b: &[u8], starts: &[usize], end: usize) -> Vec<Range<usize>> {
    let starts: Vec<usize> = starts
        .iter()
        .enumerate()
        .filter(|(k, _)| *k == 0 || !first_code(b, starts[k - 1]).starts_with(b"@"))
        .map(|(_, s)| *s)
        .collect();
    starts
        .iter()
        .zip(starts.iter().skip(1).chain(std::iter::once(&end)))
        .map(|(a, z)| *a..*z)
        .collect()
}

/// The line at `at` without its indentation.
fn first_code(b: &[u8], at: usize) -> &[u8] {
    let rest = b.get(at..).unwrap_or_default();
    let n = rest
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    &rest[n..]
}

/// What of the kept block `r` to parse: for a `def` or `class`, its header and, of its body,
/// only the statements that `keep` takes (cut the same way, down to [`MAX_NESTING`]); a
/// training script's `main()` often runs for pages and sets options in one statement. The
/// enclosing definitions stay, so scopes are those of the whole file, and a statement is
/// kept whole, so the branches around a setting are too. Anything unusual keeps all of `r`.
fn refine(
    text: &str,
    r: Range<usize>,
    lines: &[(usize, usize)],
    keep: &dyn Fn(&str) -> bool,
    nesting: u32,
) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let whole = vec![r.clone()];
    if nesting >= MAX_NESTING {
        return whole;
    }
    let from = lines.partition_point(|(at, _)| *at < r.start);
    let to = lines.partition_point(|(at, _)| *at < r.end);
    let inner = &lines[from..to];
    let Some(&(_, base)) = inner.first() else {
        return whole;
    };
    // The `def` or `class` line, after any decorators.
    let Some(def) = inner
        .iter()
        .position(|(at, w)| *w == base && !b[at + w..].starts_with(b"@"))
    else {
        return whole;
    };
    let head = &b[inner[def].0 + base..];
    if !["def ", "async def ", "class "]
        .iter()
        .any(|k| head.starts_with(k.as_bytes()))
    {
        return whole;
    }
    let Some(&(body, width)) = inner.get(def + 1) else {
        return whole;
    };
    if width <= base || keep(text.get(r.start..body).unwrap_or("")) {
        return whole;
    }
    let indent = &b[body..body + width];
    let mut starts = Vec::new();
    for &(at, w) in &inner[def + 1..] {
        if w < width || (w == width && &b[at..at + w] != indent) {
            return whole;
        }
        if w == width && starts_statement(&b[at + w..]) {
            starts.push(at);
        }
    }
    let mut out: Vec<Range<usize>> = Vec::new();
    out.push(r.start..body);
    for s in blocks_of(b, &starts, r.end) {
        if keep(text.get(s.clone()).unwrap_or("")) {
            out.extend(refine(text, s, lines, keep, nesting + 1));
        }
    }
    if out.len() == 1 {
        return whole;
    }
    out
}

/// The top-level statement (with its decorators) that holds byte `at`: all a question
/// about one place (a hover) needs parsed, since what it names is read from the syntax
/// around it. `None` means the whole file (the cut is not trustworthy).
pub(crate) fn block_around(text: &str, at: usize) -> Option<Range<usize>> {
    let lines = logical_lines(text)?;
    let b = text.as_bytes();
    blocks_of(b, &top_level(b, &lines), text.len())
        .into_iter()
        .find(|r| r.contains(&at) || r.end == at)
}

/// The byte ranges worth parsing, in order and disjoint; `None` means the whole file.
pub(crate) fn ranges(text: &str, triggers: &AhoCorasick) -> Option<Vec<Range<usize>>> {
    let lines = logical_lines(text)?;
    let b = text.as_bytes();
    let blocks = blocks_of(b, &top_level(b, &lines), text.len());
    let block_text = |r: &Range<usize>| text.get(r.clone()).unwrap_or("");
    let mut keep: Vec<bool> = blocks
        .iter()
        .map(|r| sets_options(triggers, block_text(r).as_bytes()))
        .collect();
    let aliases: Vec<&str> = blocks
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .flat_map(|(r, _)| block_text(r).lines().filter_map(alias_on))
        .collect();
    if !aliases.is_empty() {
        for (r, k) in blocks.iter().zip(keep.iter_mut()) {
            *k = *k
                || aliases
                    .iter()
                    .any(|a| block_text(r).contains(format!("{a}.").as_str()));
        }
    }
    // Inside a definition, a statement that names an alias at all is kept: it may use it,
    // or bind the name to something else.
    let wanted =
        |t: &str| sets_options(triggers, t.as_bytes()) || aliases.iter().any(|a| t.contains(a));
    let mut out: Vec<Range<usize>> = Vec::new();
    for (r, _) in blocks.into_iter().zip(keep).filter(|(_, k)| *k) {
        for r in refine(text, r, &lines, &wanted, 0) {
            match out.last_mut() {
                Some(last) if last.end == r.start => last.end = r.end,
                _ => out.push(r),
            }
        }
    }
    let kept: usize = out.iter().map(|r| r.len()).sum();
    let skipped = text.len().saturating_sub(kept);
    (skipped * 100 >= text.len() * MIN_SKIPPED_PERCENT).then_some(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn starts(text: &str) -> Vec<&str> {
        statement_starts(text)
            .unwrap()
            .into_iter()
            .map(|s| text[s..].lines().next().unwrap_or(""))
            .collect()
    }

    #[test]
    fn top_level_statements_and_what_is_not_one() {
        let text = "import os\n\
                    x = f(\na=1,\n)\n\
                    s = \"\"\"\nnot = a statement\n\"\"\"\n\
                    if x:\n    pass\nelse:\n    pass\n\
                    # comment\n\
                    y = 1 + \\\n2\n\
                    @dec\ndef g():\n    return 'it''s'\n";
        assert_eq!(
            starts(text),
            vec![
                "import os",
                "x = f(",
                "s = \"\"\"",
                "if x:",
                "y = 1 + \\",
                "@dec",
                "def g():"
            ]
        );
    }

    #[test]
    fn an_open_string_or_bracket_at_the_end_means_parse_everything() {
        assert!(statement_starts("x = (\n1\n").is_none());
        assert!(statement_starts("x = '''\nopen\n").is_none());
        // A single-quoted string ends at the line's end, as a tokenizer recovers.
        assert!(statement_starts("x = 'open\ny = 2\n").is_some());
    }

    #[test]
    fn a_definition_is_cut_to_its_header_and_the_statements_that_set_something() {
        let ac = AhoCorasick::new(["NPURunConfig", "global_options"]).unwrap();
        let pad = "    x = [i for i in range(3)]\n".repeat(40);
        let pad8 = format!("    {pad}").replace("\n    x", "\n        x");
        let text = format!(
            "import os\n\n@decorated\ndef main(argv,\n         flags):\n    \"\"\"Trains.\"\"\"\n{pad}\
             \x20   if flags.npu:\n        cfg = NPURunConfig(\n            a=1)\n    else:\n        cfg = None\n\
             {pad}\x20   opts = npu.global_options()\n{pad}\x20   opts.a = 1\n{pad}\
             class T:\n    def m(self):\n{pad8}        return NPURunConfig()\n{pad}"
        );
        let kept: Vec<&str> = ranges(&text, &ac)
            .unwrap()
            .iter()
            .map(|r| &text[r.clone()])
            .collect();
        assert_eq!(
            kept,
            vec![
                "@decorated\ndef main(argv,\n         flags):\n",
                "    if flags.npu:\n        cfg = NPURunConfig(\n            a=1)\n    else:\n        cfg = None\n",
                "    opts = npu.global_options()\n",
                "    opts.a = 1\n",
                "class T:\n    def m(self):\n",
                "        return NPURunConfig()\n",
            ]
        );
        // A one-line body, or a header that sets something itself, keeps the whole definition.
        let one = format!("{pad}def f(): return NPURunConfig()\n");
        assert_eq!(ranges(&one, &ac).unwrap().len(), 1);
        let head = format!("def f(c=NPURunConfig()):\n{pad}    return c\n{pad}");
        let kept = ranges(&head, &ac);
        assert!(kept.is_none_or(|r| r.iter().any(|r| r.start == 0 && r.len() > 40 * 30)));
    }

    #[test]
    fn reading_the_environment_sets_nothing_and_writing_it_does() {
        let ac = AhoCorasick::new(["environ", "putenv", "NPURunConfig"]).unwrap();
        let sets = |t: &str| sets_options(&ac, t.as_bytes());
        for read in [
            "rank = os.environ['RANK_ID']\n",
            "if os.environ[\"A\"] == '1':\n    pass\n",
            "x = os.environ.get('A', '0')\n",
            "for k in os.environ:\n    print(k)\n",
        ] {
            assert!(!sets(read), "{read}");
        }
        for write in [
            "os.environ['GE_USE_STATIC_MEMORY'] = '1'\n",
            "os.environ [ \"A]\" ]  =  v\n",
            "os.environ[key[0]] = v\n",
            "os.environ.setdefault('A', '1')\n",
            "os.putenv('A', '1')\n",
            "x = os.environ.get('A')\nc = NPURunConfig()\n",
        ] {
            assert!(sets(write), "{write}");
        }
        // Statements that only read the environment are not parsed; none at all: no ranges.
        let filler = "def f():\n    return 1\n".repeat(50);
        let text = format!("{filler}r = os.environ['RANK_ID']\n{filler}os.environ['A'] = r\n");
        let kept: Vec<&str> = ranges(&text, &ac)
            .unwrap()
            .iter()
            .map(|r| &text[r.clone()])
            .collect();
        assert_eq!(kept, vec!["os.environ['A'] = r\n"]);
        assert_eq!(
            ranges(&format!("{filler}r = os.environ['A']\n"), &ac),
            Some(vec![])
        );
    }

    #[test]
    fn only_statements_that_mention_a_surface_are_kept() {
        let ac = AhoCorasick::new(["global_options", "NPURunConfig"]).unwrap();
        let filler = "def f():\n    return 1\n".repeat(50);
        let text = format!(
            "{filler}opts = npu.global_options()\n{filler}@decorated\ndef main():\n    opts.a = 1\n{filler}"
        );
        let r = ranges(&text, &ac).unwrap();
        let kept: Vec<&str> = r.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(
            kept,
            vec![
                "opts = npu.global_options()\n",
                "@decorated\ndef main():\n    opts.a = 1\n"
            ]
        );
        assert!(ranges("opts = npu.global_options()\n", &ac).is_none());
    }
}
