#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

/// Opens an indented block: a line of code that starts with one of these and ends in `:`.
const OPENERS: [&str; 9] = [
    "def ", "class ", "if ", "else", "elif ", "for ", "with ", "try", "except",
];

/// `text` with statements that set nothing at the start of every block that `OPENERS`
/// open, at the block's own indentation: inside functions, the selection then has
/// statements to leave out.
fn padded_blocks(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        out.push('\n');
        let code = line.trim();
        if !(code.ends_with(':') && OPENERS.iter().any(|k| code.starts_with(k))) {
            continue;
        }
        let Some(next) = lines[i + 1..].iter().find(|l| !l.trim().is_empty()) else {
            continue;
        };
        let indent = &next[..next.len() - next.trim_start().len()];
        for k in 0..40 {
            out.push_str(&format!("{indent}pad_{k} = [j * 2 for j in range({k})]\n"));
        }
    }
    out
}

/// Parsing only the statements that mention a surface finds what parsing it all finds.
#[test]
fn selected_ranges_find_what_the_whole_file_finds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let filler = "def helper(x):\n    return [i * 2 for i in range(x)]\n\n".repeat(80);
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            files.extend(std::fs::read_dir(p).unwrap().map(|e| e.unwrap().path()));
        } else {
            files.push(p);
        }
    }
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // Filler between the statements and inside blocks makes the selection worth using.
        let between = text.replace("\ndef ", &format!("\n{filler}def "));
        for text in [padded_blocks(&between), between] {
            let opts = LintOptions::default();
            let whole = lint_text(&text, &opts, false).unwrap();
            let some = lint_text(&text, &opts, true).unwrap();
            assert_eq!(some.findings, whole.findings, "{}", path.display());
        }
    }
}
