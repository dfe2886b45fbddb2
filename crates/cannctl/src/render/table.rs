//! Tables for people (`options`, `products`), drawn by `comfy-table`, which measures cells
//! by display width (a Chinese character is two cells) and wraps the widest columns to fit
//! the terminal. Piped output is not wrapped, so each row stays one line for `grep`.

use std::io::IsTerminal;

use comfy_table::{presets, ContentArrangement, Table};

/// The width to fit: the terminal's, else `$COLUMNS`; none when neither is known.
fn width() -> Option<u16> {
    if std::io::stdout().is_terminal() {
        if let Some((_, w)) = console::Term::stdout().size_checked() {
            return Some(w);
        }
    }
    std::env::var("COLUMNS").ok()?.trim().parse().ok()
}

/// Cells of padding comfy-table puts on each side of a column.
const PADDING: usize = 1;

/// The narrowest the prose column is made, however wide the names beside it are.
const MIN_PROSE: usize = 20;

/// A table with a header row and no borders, fitted to `width` columns when given: only
/// the last column (the prose) wraps, by [`wrap_prose`]; the others are names, which must
/// not break inside.
pub fn draw(header: &[String], rows: &[Vec<String>], width: Option<u16>) -> String {
    let last = header.len().saturating_sub(1);
    let wrapped: Vec<Vec<String>>;
    let rows = match width {
        Some(w) => {
            let names: usize = (0..last)
                .map(|c| column_width(header, rows, c) + 2 * PADDING)
                .sum();
            let room = usize::from(w).saturating_sub(names + 2 * PADDING);
            if room < MIN_PROSE && last > 0 {
                return stacked(header, rows, usize::from(w));
            }
            let prose = room.max(MIN_PROSE);
            wrapped = rows
                .iter()
                .map(|r| {
                    let mut r = r.clone();
                    if let Some(cell) = r.get_mut(last) {
                        *cell = wrap_prose(cell, prose);
                    }
                    r
                })
                .collect();
            &wrapped
        }
        None => rows,
    };
    let mut t = Table::new();
    t.load_style(presets::NOTHING);
    // The lines are laid out above; comfy-table would break an identifier inside a run of
    // Chinese text, where it sees no space to break at.
    t.set_content_arrangement(ContentArrangement::Disabled);
    t.set_header(header);
    for r in rows {
        t.add_row(r);
    }
    trimmed(&t)
}

/// The table's text without trailing blanks: comfy-table pads every line to the table's
/// width, which is noise in a pipe.
fn trimmed(t: &Table) -> String {
    let mut s: String = t
        .to_string()
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    s
}

/// Indent of the prose under its row in the stacked layout.
const STACK_INDENT: &str = "    ";

/// The layout for a terminal too narrow for the names and a readable prose column side by
/// side: the names as a table, each row's prose on the lines below it, indented and wrapped
/// to the full width (as `gh` and `cargo --list` do), so no line is wider than the terminal.
fn stacked(header: &[String], rows: &[Vec<String>], width: usize) -> String {
    let last = header.len() - 1;
    let names: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r[..last.min(r.len())].to_vec())
        .collect();
    let table = draw(&header[..last], &names, None);
    let mut lines = table.lines();
    let mut out = String::new();
    if let Some(h) = lines.next() {
        out.push_str(h);
        out.push('\n');
    }
    let prose_width = width.saturating_sub(STACK_INDENT.len()).max(MIN_PROSE);
    for row in rows {
        // A row is as tall as its tallest name cell (dotted names may be pre-broken).
        let height = row[..last.min(row.len())]
            .iter()
            .map(|c| c.lines().count())
            .max()
            .unwrap_or(1)
            .max(1);
        for line in lines.by_ref().take(height) {
            out.push_str(line);
            out.push('\n');
        }
        let text = row.get(last).map(String::as_str).unwrap_or("");
        if text.trim().is_empty() {
            continue;
        }
        for l in wrap_prose(text, prose_width).lines() {
            out.push_str(STACK_INDENT);
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// The widest line of column `c`, heading included, in display cells.
fn column_width(header: &[String], rows: &[Vec<String>], c: usize) -> usize {
    header
        .get(c)
        .into_iter()
        .chain(rows.iter().filter_map(|r| r.get(c)))
        .flat_map(|cell| cell.lines())
        .map(console::measure_text_width)
        .max()
        .unwrap_or(0)
}

fn wide(c: char) -> bool {
    console::measure_text_width(c.encode_utf8(&mut [0; 4])) > 1
}

/// Punctuation that closes (`，` `。` `）` `,` `)`): it stays on the line of what it follows.
fn closes(c: char) -> bool {
    "，。、；：！？）》」』】,.;:!?)]}".contains(c)
}

/// Punctuation that opens (`（` `《` `(`): it stays on the line of what comes next.
fn opens(c: char) -> bool {
    "（《「『【([{".contains(c)
}

/// Prose laid out in lines of at most `max` display cells. A line may break at a space or
/// beside a Chinese character, never inside a run of other characters: an option name, a
/// `ge.*` key or a path stays whole (on a line of its own when longer than `max`).
pub fn wrap_prose(text: &str, max: usize) -> String {
    // Units that cannot be broken, each with whether a space came before it.
    let mut units: Vec<(bool, String)> = Vec::new();
    let mut space = false;
    let mut glue = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
            glue = false;
            continue;
        }
        let join = match units.last() {
            Some((_, u)) if !space => {
                let prev = u.chars().next_back().unwrap_or(' ');
                glue || closes(c) || (!wide(c) && !wide(prev) && !opens(prev))
            }
            _ => false,
        };
        match units.last_mut() {
            Some((_, u)) if join => u.push(c),
            _ => units.push((space, c.to_string())),
        }
        space = false;
        glue = opens(c);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (spaced, u) in units {
        let sep = if spaced && !cur.is_empty() { " " } else { "" };
        let fits =
            console::measure_text_width(&cur) + sep.len() + console::measure_text_width(&u) <= max;
        if cur.is_empty() || fits {
            cur.push_str(sep);
            cur.push_str(&u);
        } else {
            lines.push(std::mem::take(&mut cur));
            cur = u;
        }
    }
    lines.push(cur);
    lines.join("\n")
}

/// A table of numbers (`mem compare`): every column right-aligned, never wrapped, its
/// headings measured by display width like the cells.
pub fn numbers(header: &[String], rows: &[Vec<String>]) -> String {
    let mut t = Table::new();
    t.load_style(presets::NOTHING);
    t.set_content_arrangement(ContentArrangement::Disabled);
    t.set_header(header);
    for r in rows {
        t.add_row(r);
    }
    for c in t.column_iter_mut() {
        c.set_cell_alignment(comfy_table::CellAlignment::Right);
    }
    trimmed(&t)
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

    /// Display cells of a line, counted independently of the code under test.
    fn cells(l: &str) -> usize {
        l.chars().map(|c| if c > '\u{2e80}' { 2 } else { 1 }).sum()
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
    fn a_terminal_too_narrow_for_prose_beside_names_gets_it_below_each_row() {
        let header = ["选项", "类型", "默认值", "说明"]
            .map(String::from)
            .to_vec();
        let rows = vec![vec![
            "npu_run_config.experimental_config.x".to_string(),
            "string".to_string(),
            "\"default_device_type\"".to_string(),
            "进程间共享文件的根目录；未设置 op_compiler_cache_dir 时，算子编译缓存位于其下"
                .to_string(),
        ]];
        let out = draw(&header, &rows, Some(80));
        for l in out.lines() {
            assert!(cells(l) <= 80, "{} cells: {l}", cells(l));
        }
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[1].contains("npu_run_config.experimental_config.x"),
            "{out}"
        );
        assert!(lines[2].starts_with(STACK_INDENT), "{out}");
        assert!(out.contains("op_compiler_cache_dir"), "{out}");
    }

    #[test]
    fn prose_wraps_around_identifiers() {
        let text = "与 `ge.exec.staticMemoryPolicy` 相同，取值为memory_config.static_memory_policy或 ge.exec.variable_acc（见 HCCL_algorithm）";
        let ids = [
            "`ge.exec.staticMemoryPolicy`",
            "memory_config.static_memory_policy",
            "ge.exec.variable_acc",
            "HCCL_algorithm",
        ];
        for max in 8..60 {
            let out = wrap_prose(text, max);
            for id in ids {
                assert!(out.contains(id), "{max}: {id} broken in\n{out}");
            }
            for l in out.lines() {
                let w = console::measure_text_width(l);
                // Only a name longer than the line goes past it.
                assert!(
                    w <= max || ids.iter().any(|id| l.contains(id)),
                    "{max}: {l}"
                );
                assert!(!l.starts_with(['，', '。', '）']), "{max}: {l}");
            }
            assert_eq!(
                out.replace(['\n', ' '], ""),
                text.replace(' ', ""),
                "{max}: text lost or reordered"
            );
        }
        assert_eq!(
            wrap_prose("the cache mode of op", 9),
            "the cache\nmode of\nop"
        );
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
