//! Integer ranges of options and file keys, and their one rendering in words.

use cann_i18n::catalog::config as msg;
use cann_i18n::Lang;

/// A range with whole-number bounds; `None` is an open end. The loader and the emitted
/// tables share it. It bounds integers, or the numbers of a `float` option (`real`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntRange {
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// `min` itself is outside: the value must be above it (`above: 0`, RunConfig's
    /// `keep_hours > 0`). Only for a float option: for integers, `above n` is `min n + 1`.
    pub min_exclusive: bool,
    /// The range bounds a float option's values, so it is worded as "a number".
    pub real: bool,
    /// The bounds are this project's advice: no upstream code or page states them, so a
    /// value outside them is a warning, not an error.
    pub advice: bool,
}

impl IntRange {
    /// For an advised bound, the words that tell it from an upstream one.
    pub fn advice_note(&self, lang: Lang) -> Option<String> {
        self.advice.then(|| msg::range_advice(lang))
    }

    pub fn contains(&self, v: i64) -> bool {
        self.min
            .is_none_or(|m| if self.min_exclusive { v > m } else { v >= m })
            && self.max.is_none_or(|m| v <= m)
    }

    /// As [`IntRange::contains`], for a float option's value.
    pub fn contains_real(&self, v: f64) -> bool {
        // Bounds are whole numbers within 2^53 in every spec range, so they convert exactly.
        #[allow(clippy::cast_precision_loss)]
        let (min, max) = (self.min.map(|m| m as f64), self.max.map(|m| m as f64));
        min.is_none_or(|m| if self.min_exclusive { v > m } else { v >= m })
            && max.is_none_or(|m| v <= m)
    }

    /// The range in words, with the unit when there is one: "an integer from 1 to 100 MB".
    pub fn describe(&self, unit: Option<&str>, lang: Lang) -> String {
        let unit = unit.map(|u| unit_text(u, lang)).unwrap_or_default();
        if self.real {
            return match (self.min, self.max, self.min_exclusive) {
                (Some(a), Some(b), false) => msg::number_between(lang, a, b, &unit),
                (Some(a), Some(b), true) => msg::number_above_at_most(lang, a, b, &unit),
                (Some(a), None, false) => msg::number_at_least(lang, a, &unit),
                (Some(a), None, true) => msg::number_above(lang, a, &unit),
                (None, Some(b), _) => msg::number_at_most(lang, b, &unit),
                (None, None, _) => msg::any_number(lang),
            };
        }
        match (self.min, self.max) {
            (Some(a), Some(b)) => msg::integer_between(lang, a, b, &unit),
            (Some(a), None) => msg::integer_at_least(lang, a, &unit),
            (None, Some(b)) => msg::integer_at_most(lang, b, &unit),
            (None, None) => msg::any_integer(lang),
        }
    }
}

/// A unit of the spec's `unit:` field after a number, in `lang`: " percent" / "%". A unit
/// with no words of its own (MB) is written as the spec writes it.
pub fn unit_text(unit: &str, lang: Lang) -> String {
    match unit {
        "percent" => msg::unit_percent(lang),
        "bytes" => msg::unit_bytes(lang),
        "h" => msg::unit_hours(lang),
        "s" => msg::unit_seconds(lang),
        "ms" => msg::unit_milliseconds(lang),
        other => format!(" {other}"),
    }
}

/// Compact notation for tables: `1..=100`, `>= 1`, `> 0`.
impl std::fmt::Display for IntRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.min, self.max) {
            (Some(a), Some(b)) if self.min_exclusive => write!(f, "> {a} and <= {b}"),
            (Some(a), None) if self.min_exclusive => write!(f, "> {a}"),
            (Some(a), Some(b)) => write!(f, "{a}..={b}"),
            (Some(a), None) => write!(f, ">= {a}"),
            (None, Some(b)) => write!(f, "<= {b}"),
            (None, None) if self.real => f.write_str("any number"),
            (None, None) => f.write_str("any integer"),
        }
    }
}
