//! The buffer CSV of `mem plan`: one row per buffer, columns named by the
//! header in any order.
//!
//! - Ours: `id,lower,upper,size[,memset]`, lifetimes half-open `[lower, upper)`;
//!   the `offset` column of `mem plan --offsets` output is accepted and ignored,
//!   so a written plan can be planned again.
//! - MiniMalloc's (google/minimalloc@9f5cf81:src/converter.cc `FromCsv`):
//!   `buffer` / `buffer_id` for `id`, `start` / `begin` for `lower`, and `end`,
//!   which is inclusive there (its reader adds 1), for an exclusive `upper`.
//!   Its `alignment`, `hint` and `gaps` columns change the problem, so they are
//!   refused rather than silently dropped.
//!
//! Sizes are bounded so that no offset or sum the planner forms can overflow:
//! every offset a plan uses is below the sum of all sizes, kept under
//! [`MAX_TOTAL_BYTES`].

use std::collections::HashSet;

use cann_i18n::{catalog::mem as msg, Lang};

use super::buffers::Buffer;
use super::error::MemsimError;

/// Most buffer rows one file may have (the planner's memory is linear in them).
pub const MAX_ROWS: usize = 4_000_000;

/// Most bytes all buffers together may need: `i64::MAX`, the bound
/// MiniMalloc's signed offsets have too.
pub const MAX_TOTAL_BYTES: u64 = i64::MAX as u64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Id,
    Lower,
    /// Exclusive upper bound.
    Upper,
    /// Inclusive end (MiniMalloc's `end`).
    End,
    Size,
    Memset,
    /// Written by `mem plan --offsets`; ignored on input.
    Offset,
}

impl Col {
    fn parse(name: &str, lang: Lang) -> Result<Self, String> {
        Ok(match name {
            "id" | "buffer" | "buffer_id" => Col::Id,
            "lower" | "start" | "begin" => Col::Lower,
            "upper" => Col::Upper,
            "end" => Col::End,
            "size" => Col::Size,
            "memset" => Col::Memset,
            "offset" => Col::Offset,
            "alignment" | "hint" | "gaps" => return Err(msg::csv_unsupported_column(lang, name)),
            _ => return Err(msg::csv_unknown_column(lang, name)),
        })
    }

    /// The canonical name, for "missing" and "twice" messages.
    fn name(self) -> &'static str {
        match self {
            Col::Id => "id",
            Col::Lower => "lower",
            Col::Upper | Col::End => "upper",
            Col::Size => "size",
            Col::Memset => "memset",
            Col::Offset => "offset",
        }
    }
}

/// Where each column is, from the header.
struct Layout {
    names: Vec<String>,
    cols: Vec<Col>,
    id: usize,
    lower: usize,
    upper: usize,
    inclusive_end: bool,
    size: usize,
    memset: Option<usize>,
}

fn layout(origin: &str, line: usize, header: &str, lang: Lang) -> Result<Layout, MemsimError> {
    let names: Vec<String> = header
        .split(',')
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    let mut cols = Vec::with_capacity(names.len());
    for n in &names {
        let c = Col::parse(n, lang).map_err(|m| MemsimError::at(origin, line, m))?;
        if cols.iter().any(|&k: &Col| k.name() == c.name()) {
            return Err(MemsimError::at(
                origin,
                line,
                msg::csv_duplicate_column(lang, c.name()),
            ));
        }
        cols.push(c);
    }
    let find = |want: &[Col]| cols.iter().position(|c| want.contains(c));
    let need = |want: &[Col]| {
        find(want).ok_or_else(|| {
            MemsimError::at(origin, line, msg::csv_missing_column(lang, want[0].name()))
        })
    };
    let upper = need(&[Col::Upper, Col::End])?;
    Ok(Layout {
        id: need(&[Col::Id])?,
        lower: need(&[Col::Lower])?,
        inclusive_end: cols[upper] == Col::End,
        upper,
        size: need(&[Col::Size])?,
        memset: find(&[Col::Memset]),
        names,
        cols,
    })
}

fn parse_flag(s: &str) -> Option<bool> {
    match s.to_ascii_lowercase().as_str() {
        "" | "0" | "false" | "no" => Some(false),
        "1" | "true" | "yes" => Some(true),
        _ => None,
    }
}

/// Reads buffers from CSV text; `origin` names it in errors (English).
pub fn parse_csv(origin: &str, text: &str) -> Result<Vec<Buffer>, MemsimError> {
    parse_csv_in(origin, text, Lang::En)
}

/// Reads buffers from CSV text, with errors in `lang`.
pub fn parse_csv_in(origin: &str, text: &str, lang: Lang) -> Result<Vec<Buffer>, MemsimError> {
    parse_rows(origin, text, lang, MAX_ROWS)
}

fn parse_rows(
    origin: &str,
    text: &str,
    lang: Lang,
    max_rows: usize,
) -> Result<Vec<Buffer>, MemsimError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let Some((hline, header)) = lines.next() else {
        return Err(MemsimError::in_file(origin, msg::csv_no_buffers(lang)));
    };
    let lay = layout(origin, hline, header, lang)?;
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut total = 0u64;
    for (line, row) in lines {
        if out.len() == max_rows {
            return Err(MemsimError::at(
                origin,
                line,
                msg::csv_too_many_rows(lang, max_rows),
            ));
        }
        let at = |m: String| MemsimError::at(origin, line, m);
        let f: Vec<&str> = row.split(',').map(str::trim).collect();
        if f.len() != lay.cols.len() {
            return Err(at(msg::csv_field_count(lang, f.len(), lay.cols.len())));
        }
        let num = |i: usize| {
            f[i].parse::<u64>()
                .map_err(|_| at(msg::csv_not_integer(lang, &lay.names[i], f[i])))
        };
        let (lower, size) = (num(lay.lower)?, num(lay.size)?);
        let upper = if lay.inclusive_end {
            num(lay.upper)?
                .checked_add(1)
                .ok_or_else(|| at(msg::csv_end_too_large(lang, f[lay.upper])))?
        } else {
            num(lay.upper)?
        };
        let id = f[lay.id];
        if upper <= lower {
            return Err(at(msg::csv_empty_lifetime(lang, id, lower, upper)));
        }
        total = total
            .checked_add(size)
            .filter(|&t| t <= MAX_TOTAL_BYTES)
            .ok_or_else(|| at(msg::csv_sizes_overflow(lang, size, MAX_TOTAL_BYTES)))?;
        let memset = match lay.memset {
            Some(k) => parse_flag(f[k]).ok_or_else(|| at(msg::csv_bad_memset(lang, f[k])))?,
            None => false,
        };
        if !seen.insert(id.to_owned()) {
            return Err(at(msg::csv_duplicate_id(lang, id)));
        }
        out.push(Buffer {
            id: id.to_owned(),
            lower,
            upper,
            size,
            memset,
        });
    }
    if out.is_empty() {
        return Err(MemsimError::in_file(origin, msg::csv_no_rows(lang)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn rows_past_the_budget_are_an_input_error_at_their_line() {
        let text = "id,lower,upper,size\na,0,1,1\nb,0,1,1\nc,0,1,1\n";
        assert_eq!(parse_rows("b.csv", text, Lang::En, 3).unwrap().len(), 3);
        let e = parse_rows("b.csv", text, Lang::En, 2).unwrap_err();
        assert!(matches!(e, MemsimError::Input { .. }));
        assert_eq!(
            e.to_string(),
            "b.csv:4: more than 2 buffer rows; the planner takes at most 2 buffers per graph"
        );
    }
}
