//! Human output: rustc-style findings with the source line and a caret.
//! Colour only when writing to a terminal and `NO_COLOR` is unset.

use std::io::IsTerminal;

use anstyle::{AnsiColor, Style};
use cann_config::meta::{Lang, Severity};
use cann_config::Diagnostic;
use cann_i18n::catalog::cli as msg;

use crate::CliError;

fn color_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none()
}

pub fn use_color_stdout() -> bool {
    color_allowed() && std::io::stdout().is_terminal()
}

pub fn use_color_stderr() -> bool {
    color_allowed() && std::io::stderr().is_terminal()
}

fn paint(s: &str, style: Style, color: bool) -> String {
    if color {
        format!("{}{s}{}", style.render(), style.render_reset())
    } else {
        s.to_string()
    }
}

fn severity_style(s: Severity) -> Style {
    let c = match s {
        Severity::Error => AnsiColor::Red,
        Severity::Warning => AnsiColor::Yellow,
        Severity::Note => AnsiColor::Cyan,
    };
    Style::new().bold().fg_color(Some(c.into()))
}

/// "error", "warning", "note" in `lang`.
pub fn severity_label(s: Severity, lang: Lang) -> String {
    match s {
        Severity::Error => msg::label_error(lang),
        Severity::Warning => msg::label_warning(lang),
        Severity::Note => msg::label_note(lang),
    }
}

/// One finding about `file`, with the offending line when its position is known.
pub fn diagnostic(d: &Diagnostic, file: &str, source: &str, color: bool, lang: Lang) -> String {
    let mut out = String::new();
    let head = paint(
        &severity_label(d.severity, lang),
        severity_style(d.severity),
        color,
    );
    out.push_str(&format!("{head}: {}\n", d.message));
    let blue = Style::new().bold().fg_color(Some(AnsiColor::Blue.into()));
    match (d.line, d.column) {
        (Some(line), Some(col)) => {
            out.push_str(&format!(
                "  {} {file}:{line}:{col}\n",
                paint("-->", blue, color)
            ));
            if let Some(text) = source.lines().nth(line.saturating_sub(1) as usize) {
                out.push_str(&snippet(line, col, text, d.severity, color));
            }
        }
        _ => out.push_str(&format!(
            "  {} {file}: {}\n",
            paint("-->", blue, color),
            d.option
        )),
    }
    if !d.option.is_empty() && d.line.is_some() {
        out.push_str(&format!("   = {}: {}\n", msg::label_option(lang), d.option));
    }
    if let Some(e) = &d.expected {
        out.push_str(&format!("   = {}: {e}\n", msg::label_expected(lang)));
    }
    if let Some(h) = &d.hint {
        out.push_str(&format!(
            "   = {}: {h}\n",
            paint(&msg::label_hint(lang), Style::new().bold(), color)
        ));
    }
    out
}

/// The source line with its number and a caret under column `col`, three lines.
fn snippet(line: u32, col: u32, text: &str, severity: Severity, color: bool) -> String {
    let blue = Style::new().bold().fg_color(Some(AnsiColor::Blue.into()));
    let num = line.to_string();
    let pad = " ".repeat(num.len());
    let bar = paint("|", blue, color);
    // Columns count characters; a tab keeps its width in the caret line.
    let lead: String = text
        .chars()
        .take(col.saturating_sub(1) as usize)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    format!(
        " {pad} {bar}\n {} {bar} {text}\n {pad} {bar} {lead}{}\n",
        paint(&num, blue, color),
        paint("^", severity_style(severity), color)
    )
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

/// A problem that stopped the command.
pub fn input_error(e: &CliError, color: bool, lang: Lang) -> String {
    let mut s = format!(
        "{}: {e}",
        paint(
            &severity_label(Severity::Error, lang),
            severity_style(Severity::Error),
            color
        )
    );
    if let CliError::Parse {
        pos: Some(p),
        line: Some(text),
        ..
    } = e
    {
        s.push('\n');
        s.push_str(snippet(p.line, p.col, text, Severity::Error, color).trim_end());
    }
    if let Some(h) = e.hint() {
        s.push_str(&format!(
            "\n   = {}: {h}",
            paint(&msg::label_hint(lang), Style::new().bold(), color)
        ));
    }
    s
}
