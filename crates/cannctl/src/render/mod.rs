//! Human output: rustc-style findings drawn by `annotate-snippets`, which measures display
//! width, so the underline sits under the right cells after CJK text and tabs. Each file's
//! line index is built once ([`Source`]) and a long line is shown as a window around the
//! finding, so drawing costs the same per finding however long the line.

pub mod progress;
mod source;
pub mod table;

use std::io::{IsTerminal, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use anstyle::{AnsiColor, Style};
use cann_config::meta::{Lang, Severity};
use cann_config::Diagnostic;
use cann_i18n::catalog::cli as msg;

pub use source::Source;

use crate::cli::ColorArg;
use crate::usage::UsageError;
use crate::CliError;

/// Whether each output stream is coloured, decided once per command from its `--color`
/// and the streams, and handed down (no process-wide state: the Python package runs
/// commands on several threads at once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colors {
    pub stdout: bool,
    pub stderr: bool,
}

impl Colors {
    pub fn of(c: ColorArg) -> Self {
        Colors {
            stdout: c.colors(std::io::stdout().is_terminal()),
            stderr: c.colors(std::io::stderr().is_terminal()),
        }
    }
}

fn renderer(color: bool) -> Renderer {
    if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    }
}

/// "error", "warning", "note" in `lang`.
pub fn severity_label(s: Severity, lang: Lang) -> String {
    match s {
        Severity::Error => msg::label_error(lang),
        Severity::Warning => msg::label_warning(lang),
        Severity::Note => msg::label_note(lang),
    }
}

fn level(s: Severity, lang: Lang) -> Level<'static> {
    let l = match s {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    };
    l.with_name(severity_label(s, lang))
}

/// Messages are drawn one line each; a line break inside one (from a file's text) must
/// not break the layout.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// What one finding shows: its title, where it is, the excerpt, notes and a hint.
struct Drawn<'a> {
    severity: Severity,
    message: &'a str,
    /// `file:line:col`, or the file (and option) when there is no position.
    place: String,
    /// The line number and the excerpt of that line.
    at: Option<(u32, source::Excerpt)>,
    notes: Vec<(String, &'a str)>,
    hint: Option<&'a str>,
}

impl Drawn<'_> {
    fn render(&self, color: bool, lang: Lang) -> String {
        let mut g =
            Group::with_title(level(self.severity, lang).primary_title(one_line(self.message)));
        if let Some((line, e)) = &self.at {
            g = g.element(
                Snippet::source(e.text.as_str())
                    .line_start(*line as usize)
                    .annotation(AnnotationKind::Primary.span(e.span.clone())),
            );
        }
        for (label, text) in &self.notes {
            g = g.element(Level::NOTE.with_name(label.clone()).message(one_line(text)));
        }
        if let Some(h) = self.hint {
            g = g.element(
                Level::HELP
                    .with_name(msg::label_hint(lang))
                    .message(one_line(h)),
            );
        }
        let drawn = renderer(color).render(&[g]);
        // The excerpt may be a window of the line, so its columns are not the file's: the
        // location line is ours, aligned as annotate-snippets aligns its own.
        // annotate-snippets keeps a gutter of at least one cell, excerpt or not.
        let pad = self.at.as_ref().map_or(1, |(l, _)| l.to_string().len());
        let arrow = if color {
            let s: Style = AnsiColor::BrightBlue.on_default().bold();
            format!("{}-->{}", s.render(), s.render_reset())
        } else {
            "-->".to_string()
        };
        let loc = format!("{}{arrow} {}", " ".repeat(pad), self.place);
        match drawn.split_once('\n') {
            Some((title, rest)) => format!("{title}\n{loc}\n{rest}"),
            None => format!("{drawn}\n{loc}"),
        }
    }
}

/// One finding about `src`, with the offending part of its line underlined.
pub fn diagnostic(d: &Diagnostic, src: &Source<'_>, color: bool, lang: Lang) -> String {
    let placed = d.line.zip(d.column);
    let at = placed.and_then(|(l, c)| Some((l, src.excerpt(l, c)?)));
    let mut notes = Vec::new();
    if !d.option.is_empty() && placed.is_some() {
        notes.push((msg::label_option(lang), d.option.as_str()));
    }
    if let Some(e) = &d.expected {
        notes.push((msg::label_expected(lang), e.as_str()));
    }
    let place = match placed {
        Some((l, c)) => format!("{}:{l}:{c}", src.name),
        None if d.option.is_empty() => src.name.to_string(),
        None => format!("{}: {}", src.name, d.option),
    };
    Drawn {
        severity: d.severity,
        message: &d.message,
        place,
        at,
        notes,
        hint: d.hint.as_deref(),
    }
    .render(color, lang)
}

/// The findings of one file, at most `max` of them (0: all), each followed by a blank
/// line, then a line saying how many were left out.
pub fn findings(
    out: &mut dyn Write,
    ds: &[Diagnostic],
    src: &Source<'_>,
    max: usize,
    color: bool,
    lang: Lang,
) -> std::io::Result<()> {
    let shown = if max == 0 {
        ds.len()
    } else {
        max.min(ds.len())
    };
    for d in &ds[..shown] {
        writeln!(out, "{}\n", diagnostic(d, src, color, lang))?;
    }
    if shown < ds.len() {
        let left = msg::findings_left_out(lang, src.name, ds.len() - shown, shown);
        writeln!(out, "{left}\n")?;
    }
    Ok(())
}

/// "2 errors, 1 warning, 0 notes"
pub fn summary(ds: &[Diagnostic], lang: Lang) -> String {
    let n = |s| ds.iter().filter(|d| d.severity == s).count();
    let count = |k: usize, one: fn(Lang) -> String, many: fn(Lang, usize) -> String| {
        if k == 1 {
            one(lang)
        } else {
            many(lang, k)
        }
    };
    msg::counts(
        lang,
        &count(n(Severity::Error), msg::errors_one, msg::errors_many),
        &count(n(Severity::Warning), msg::warnings_one, msg::warnings_many),
        &count(n(Severity::Note), msg::notes_one, msg::notes_many),
    )
}

/// A problem that stopped the command, with the offending line when it has one.
pub fn input_error(e: &CliError, color: bool, lang: Lang) -> String {
    let message = e.message(lang);
    let hint = e.hint(lang);
    let (place, at) = match e {
        CliError::Parse {
            path,
            pos: Some(p),
            line,
            ..
        } => (
            format!("{}:{}:{}", path.display(), p.line, p.col),
            line.as_deref()
                .map(|text| (p.line, source::excerpt(text, p.col))),
        ),
        _ => (String::new(), None),
    };
    let drawn = Drawn {
        severity: Severity::Error,
        message: &message,
        place,
        at,
        notes: Vec::new(),
        hint: hint.as_deref(),
    };
    if drawn.place.is_empty() {
        // Nothing to point at: the title and the hint only.
        let mut g =
            Group::with_title(level(Severity::Error, lang).primary_title(one_line(&message)));
        if let Some(h) = &hint {
            g = g.element(
                Level::HELP
                    .with_name(msg::label_hint(lang))
                    .message(one_line(h)),
            );
        }
        return renderer(color).render(&[g]);
    }
    drawn.render(color, lang)
}

/// A usage error: the title, a hint, and the command's usage line.
pub fn usage_error(u: &UsageError, color: bool, lang: Lang) -> String {
    let mut g = Group::with_title(level(Severity::Error, lang).primary_title(one_line(&u.message)));
    if let Some(h) = &u.hint {
        g = g.element(
            Level::HELP
                .with_name(msg::label_hint(lang))
                .message(one_line(h)),
        );
    }
    let mut s = renderer(color).render(&[g]);
    if let Some(usage) = &u.usage {
        s.push_str("\n\n");
        s.push_str(&cann_i18n::catalog::help::usage_line(lang, usage));
    }
    s
}

/// A problem that stopped the command, as the JSON a `--format json` caller reads on stdout.
pub fn error_json(e: &CliError, lang: Lang) -> serde_json::Value {
    let (file, line, column) = match e {
        CliError::Parse { path, pos, .. } => (
            Some(path.display().to_string()),
            pos.map(|p| p.line),
            pos.map(|p| p.col),
        ),
        _ => (None, None, None),
    };
    let kind = match e {
        CliError::Parse { .. } => "parse",
        CliError::Usage(..) => "usage",
        CliError::Input(_) | CliError::Other(_) => "input",
        CliError::Write(_) => "output",
    };
    serde_json::json!({
        "error": {
            "kind": kind,
            "message": e.message(lang),
            "hint": e.hint(lang),
            "file": file,
            "line": line,
            "column": column,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(line: u32, col: u32) -> Diagnostic {
        let mut d = Diagnostic::new(
            Severity::Error,
            "npu_run_config.op_compiler_cache_dir",
            "bad",
        );
        d.line = Some(line);
        d.column = Some(col);
        d
    }

    /// The display column (in terminal cells) of the first `^` on the caret line.
    fn caret_cells(out: &str) -> (usize, usize) {
        let lines: Vec<&str> = out.lines().collect();
        let i = lines.iter().position(|l| l.contains('^')).unwrap_or(0);
        let cells = |s: &str| {
            s.chars()
                .map(|c| if c > '\u{2e80}' { 2 } else { 1 })
                .sum::<usize>()
        };
        let caret = lines[i];
        let start = caret.find('^').unwrap_or(0);
        let len = caret[start..].chars().take_while(|c| *c == '^').count();
        (cells(&caret[..start]), len)
    }

    #[test]
    fn carets_sit_under_the_token_after_chinese_text() {
        // Two Chinese words (4 cells) before the error, as a user writes a comment.
        let text = "npu_run_config:\n  op_compiler_cache_dir: \"/数据/缓存 目录\" # 缓存\n";
        let src = Source::new("c.yaml", text);
        let out = diagnostic(&finding(2, 26), &src, false, Lang::Zh);
        let line = out.lines().find(|l| l.contains("/数据")).unwrap_or("");
        let (cells, len) = caret_cells(&out);
        let quote = line.find('"').unwrap_or(0);
        let cells_before_quote: usize = line[..quote].chars().count();
        assert_eq!(cells, cells_before_quote, "{out}");
        // `"/数据/缓存 目录"`: 2 quotes, 2 slashes, 1 space, 6 CJK characters of 2 cells.
        assert_eq!(len, 2 + 2 + 1 + 12, "{out}");
        assert!(out.contains("--> c.yaml:2:26"), "{out}");
    }

    #[test]
    fn carets_are_right_after_chinese_before_the_column() {
        let text = "env: { 中文: 1, 路径: 2, ASCEND_CACHE_PAHT: x }\n";
        let col = text
            .chars()
            .position(|c| c == 'A')
            .map_or(1, |p| p as u32 + 1);
        let src = Source::new("c.yaml", text);
        let out = diagnostic(&finding(1, col), &src, false, Lang::En);
        let line = out.lines().find(|l| l.contains("ASCEND")).unwrap_or("");
        let prefix = &line[..line.find("ASCEND").unwrap_or(0)];
        let want: usize = prefix
            .chars()
            .map(|c| if c > '\u{2e80}' { 2 } else { 1 })
            .sum();
        let (cells, len) = caret_cells(&out);
        assert_eq!(cells, want, "{out}");
        assert_eq!(len, "ASCEND_CACHE_PAHT".len(), "{out}");
    }

    #[test]
    fn long_lines_show_a_window_and_keep_the_file_column() {
        let mut text = String::from("{");
        for i in 0..5000 {
            text.push_str(&format!("\"k{i:04}\": 1, "));
        }
        text.push_str("}\n");
        let col = text.find("\"k4000\"").map_or(1, |b| b as u32 + 1);
        let src = Source::new("big.json", &text);
        let out = diagnostic(&finding(1, col), &src, false, Lang::En);
        assert!(out.len() < 1000, "{} bytes", out.len());
        assert!(out.contains(&format!("--> big.json:1:{col}")), "{out}");
        assert!(out.contains("\"k4000\""));
    }

    #[test]
    fn findings_past_the_cap_are_counted_not_drawn() {
        let src = Source::new("c.yaml", "a: 1\n");
        let ds: Vec<_> = (0..7).map(|_| finding(1, 1)).collect();
        let mut out = Vec::new();
        findings(&mut out, &ds, &src, 3, false, Lang::En).unwrap_or_default();
        let out = String::from_utf8(out).unwrap_or_default();
        assert_eq!(out.matches("error: bad").count(), 3);
        assert!(out.contains("4 more findings"), "{out}");
        let mut all = Vec::new();
        findings(&mut all, &ds, &src, 0, false, Lang::En).unwrap_or_default();
        assert_eq!(
            String::from_utf8(all)
                .unwrap_or_default()
                .matches("error: bad")
                .count(),
            7
        );
    }
}
