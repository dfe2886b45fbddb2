//! Tables for people (`options`, `products`), drawn by `comfy-table`, which measures cells
//! by display width (a Chinese character is two cells) and wraps the widest columns to fit
//! the terminal. Piped output is not wrapped, so each row stays one line for `grep`.

use std::io::IsTerminal;

use comfy_table::{presets, ColumnConstraint, ContentArrangement, Table};

/// The width to fit: the terminal's, else `$COLUMNS`; none when neither is known.
fn width() -> Option<u16> {
    if std::io::stdout().is_terminal() {
        if let Some((_, w)) = console::Term::stdout().size_checked() {
            return Some(w);
        }
    }
    std::env::var("COLUMNS").ok()?.trim().parse().ok()
}

/// A table with a header row and no borders, fitted to `width` columns when given: only
/// the last column (the prose) wraps; the others are names, which must not break inside.
pub fn draw(header: &[String], rows: &[Vec<String>], width: Option<u16>) -> String {
    let mut t = Table::new();
    t.load_style(presets::NOTHING);
    t.set_header(header);
    for r in rows {
        t.add_row(r);
    }
    match width {
        Some(w) => {
            t.set_content_arrangement(ContentArrangement::Dynamic);
            t.set_width(w);
            let names = header.len().saturating_sub(1);
            t.set_constraints((0..names).map(|_| ColumnConstraint::ContentWidth));
        }
        None => {
            t.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    // comfy-table pads every line to the table's width; trailing blanks are noise in a pipe.
    let mut s: String = t
        .to_string()
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    s
}

/// The width a table on stdout is fitted to, if any.
pub fn stdout_width() -> Option<u16> {
    width()
}

/// A table fitted to where stdout goes.
pub fn for_stdout(header: &[String], rows: &[Vec<String>]) -> String {
    draw(header, rows, width())
}

/// A dotted name laid out in lines of at most `max` cells, broken after dots only
/// (`npu_run_config.memory_config.` / `static_memory_policy`); a segment longer than
/// `max` keeps its own line.
pub fn break_at_dots(name: &str, max: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for (i, seg) in name.split_inclusive('.').enumerate() {
        let cur = lines.last_mut();
        match cur {
            Some(l) if i == 0 || l.chars().count() + seg.chars().count() <= max => l.push_str(seg),
            _ => lines.push(seg.to_string()),
        }
    }
    lines.join("\n")
}

/// Abbreviations a sentence does not end at.
const ABBREVIATIONS: &[&str] = &["e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "no"];

/// The first sentence of a description: up to the first `。`, or the first `.` that ends a
/// word (not one inside `tf.compat` or `1.5`) and is not an abbreviation's (`e.g.`).
pub fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '。' | '！' | '？' => return &text[..i],
            '.' | '!' | '?' => {
                let next = text[i + c.len_utf8()..].chars().next();
                if !next.is_none_or(char::is_whitespace) {
                    continue;
                }
                let word = text[start..i]
                    .rsplit(char::is_whitespace)
                    .next()
                    .unwrap_or("");
                let word = word.trim_start_matches(['(', '"', '`']);
                if c == '.' && ABBREVIATIONS.iter().any(|a| word.eq_ignore_ascii_case(a)) {
                    continue;
                }
                return &text[..i];
            }
            _ => {}
        }
        if c.is_whitespace() {
            start = i;
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_end_where_sentences_end() {
        assert_eq!(
            first_sentence("Cores to use, e.g. \"24|48\". Others idle."),
            "Cores to use, e.g. \"24|48\""
        );
        assert_eq!(
            first_sentence("Set through tf.compat.v1.ConfigProto. Then more."),
            "Set through tf.compat.v1.ConfigProto"
        );
        assert_eq!(
            first_sentence("Ratio 1.5 of memory (i.e. more). X"),
            "Ratio 1.5 of memory (i.e. more)"
        );
        assert_eq!(
            first_sentence("算子编译缓存的模式。其他说明。"),
            "算子编译缓存的模式"
        );
        assert_eq!(first_sentence("No full stop"), "No full stop");
    }

    #[test]
    fn tables_fit_the_width_by_display_cells() {
        let header = vec!["选项".to_string(), "说明".to_string()];
        let rows = vec![vec![
            "op_compiler_cache_mode".to_string(),
            "算子编译缓存的模式：enable 表示启用缓存，disable 表示禁用，force 表示强制刷新缓存"
                .to_string(),
        ]];
        let out = draw(&header, &rows, Some(60));
        let cells = |l: &str| {
            l.chars()
                .map(|c| if c > '\u{2e80}' { 2 } else { 1 })
                .sum::<usize>()
        };
        assert!(out.lines().count() > 2, "{out}");
        for l in out.lines() {
            assert!(cells(l) <= 60, "{} cells: {l}", cells(l));
        }
        // Unfitted, a row is one line.
        assert_eq!(draw(&header, &rows, None).lines().count(), 2);
        // Names never break inside.
        assert!(out.contains("op_compiler_cache_mode"), "{out}");
    }

    #[test]
    fn dotted_names_break_after_dots() {
        let p = "npu_run_config.experimental_config.graph_memory_optimize_config.graph_slice";
        let b = break_at_dots(p, 40);
        assert_eq!(
            b,
            "npu_run_config.experimental_config.\ngraph_memory_optimize_config.graph_slice"
        );
        assert_eq!(b.replace('\n', ""), p);
        assert_eq!(
            break_at_dots("env.ASCEND_CACHE_PATH", 40),
            "env.ASCEND_CACHE_PATH"
        );
    }
}
