//! Parser errors in the user's words: YAML syntax problems and serde_json's messages become
//! a finding with a 1-based line and column (characters, not bytes) and a hint.

use cann_i18n::catalog::config as msg;
use cann_spec::yaml::{self, Pos};

use super::ParseError;
use crate::meta::Lang;

/// A YAML syntax error in the user's words; the parser's own only for rare kinds.
pub(super) fn syntax_error(e: yaml::ParseError, lang: Lang) -> ParseError {
    use yaml::Problem as P;
    let (message, hint) = match &e.problem {
        P::Unclosed { open } => {
            let close = if *open == '[' { ']' } else { '}' };
            (
                msg::syntax_unclosed(lang, *open),
                Some(msg::syntax_unclosed_hint(lang, close)),
            )
        }
        P::Mismatched { open, close } => (msg::syntax_mismatched(lang, *open, *close), None),
        P::StrayClose => (msg::syntax_stray_close(lang), None),
        P::MissingComma { close } => (msg::syntax_missing_comma(lang, *close), None),
        P::UnclosedQuote => (msg::syntax_unclosed_quote(lang), None),
        P::Indentation => (
            msg::syntax_indentation(lang),
            Some(msg::syntax_indentation_hint(lang)),
        ),
        P::Tab => (msg::syntax_tab(lang), Some(msg::syntax_tab_hint(lang))),
        P::DuplicateKey { key: Some(k) } => (
            msg::syntax_duplicate_key(lang, k),
            Some(msg::duplicate_key_hint(lang)),
        ),
        P::DuplicateKey { key: None } => (
            msg::syntax_duplicate_unnamed(lang),
            Some(msg::duplicate_key_hint(lang)),
        ),
        P::MultipleDocuments => (
            msg::syntax_documents(lang),
            Some(msg::syntax_documents_hint(lang)),
        ),
        P::TooComplex => (msg::syntax_too_complex(lang), None),
        P::TooLarge { what, limit } => {
            use cann_spec::yaml::Budgeted as B;
            let what = match what {
                B::Events => msg::budget_events(lang),
                B::Nodes => msg::budget_nodes(lang),
                B::ScalarBytes => msg::budget_scalar_bytes(lang),
            };
            (
                msg::syntax_too_large(lang, &what, *limit),
                Some(msg::syntax_too_large_hint(lang)),
            )
        }
        P::Other => (msg::syntax_other(lang, &e.message), None),
    };
    ParseError {
        pos: e.pos,
        message,
        hint,
    }
}

/// A JSON error at its line and (character) column; serde_json counts bytes. A trailing
/// comma is shown at the comma, not at the bracket after it.
pub(super) fn json_error(e: &serde_json::Error, text: &str, lang: Lang) -> ParseError {
    let line_start = text
        .match_indices('\n')
        .nth(e.line().saturating_sub(2))
        .map_or(0, |(i, _)| i + 1);
    let line_start = if e.line() <= 1 { 0 } else { line_start };
    let mut at = (line_start + e.column().saturating_sub(1)).min(text.len());
    // serde_json's text ends with its own " at line L column C"; the position is ours.
    let full = e.to_string();
    let detail = full.split(" at line ").next().unwrap_or(&full);
    let (message, hint) = if detail == "trailing comma" {
        if let Some(comma) = text[..at].rfind(',') {
            at = comma;
        }
        (
            msg::json_trailing_comma(lang),
            Some(msg::json_trailing_comma_hint(lang)),
        )
    } else if let Some(close) = detail.strip_prefix("expected `,` or `") {
        let close = close.chars().next().unwrap_or('}');
        (msg::syntax_missing_comma(lang, close), None)
    } else if let Some(what) = detail.strip_prefix("EOF while parsing ") {
        let (open, close) = if what == "a list" {
            ('[', ']')
        } else {
            ('{', '}')
        };
        (
            msg::syntax_unclosed(lang, open),
            Some(msg::syntax_unclosed_hint(lang, close)),
        )
    } else {
        (msg::json_other(lang, detail), None)
    };
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    ParseError {
        pos: u32::try_from(line)
            .ok()
            .zip(u32::try_from(col).ok())
            .map(|(line, col)| Pos { line, col }),
        message,
        hint,
    }
}
