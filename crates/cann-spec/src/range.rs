//! Release ranges, both ends included: `"9.0.0.."` (9.0.0 and every later release),
//! `"8.0.RC2..=8.1.RC1"` (8.0.RC2 through 8.1.RC1), `"..=8.0.0"`, `".."` (every release).
//!
//! Open ends are what make a new release a spec edit only: a release appended to
//! `releases.yaml` falls inside every range that has no end. A closed end names the last
//! release that is included, as release pages state it ("up to 8.1.RC1"). The half-open
//! form `A..B` is refused: it reads as if `B` were included.

use std::fmt;

use cann_i18n::catalog::config as msg;
use cann_i18n::Lang;

use crate::diag::Loc;
use crate::model::{At, Ordered, Owned, Store};

/// One type for the loader (releases by id, with the position of the range) and the tables
/// (`ReleaseRange<Tables>`, cann-config's `meta::Span`, over the generated `Release`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReleaseRange<S: Store = Owned> {
    /// First release included; `None` means from the first release in the spec.
    pub from: Option<S::Release>,
    /// Last release included; `None` means open-ended.
    pub last: Option<S::Release>,
    /// Where the range is written (the owning item when it is implied).
    pub loc: S::Pos<Loc>,
}

/// A range that cannot be read, with what to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeError {
    pub message: String,
    pub hint: String,
}

impl<S: Store> ReleaseRange<S> {
    /// Whether the range covers every release.
    pub fn is_all(&self) -> bool {
        self.from.is_none() && self.last.is_none()
    }

    /// Whether the range is open-ended, so releases appended later fall in it.
    pub fn is_open(&self) -> bool {
        self.last.is_none()
    }

    /// Whether `release` falls in the range. A range naming a release `release` cannot
    /// place (not in the spec) holds nothing.
    pub fn contains(&self, release: impl At<S::Release>) -> bool {
        let after_from = self.from.as_ref().is_none_or(|f| release.reached(f));
        let before_last = self.last.as_ref().is_none_or(|l| {
            matches!(
                release.cmp_to(l),
                Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
            )
        });
        after_from && before_last
    }
}

impl<S: Store> ReleaseRange<S>
where
    S::Release: Ordered,
{
    /// Releases in this range, oldest first.
    pub fn releases(&self) -> impl Iterator<Item = S::Release> + '_ {
        S::Release::ALL
            .iter()
            .copied()
            .filter(|r| self.contains(*r))
    }

    /// The releases in words: "release 9.0.0 or later".
    pub fn describe(&self, lang: Lang) -> String {
        describe_range(lang, self.from.map(|r| r.id()), self.last.map(|r| r.id()))
    }
}

/// A release range in words, from the ids of its ends (both included; `None` is open).
/// The one rendering of ranges for people: messages, `explain` and the docs pages.
pub fn describe_range(lang: Lang, from: Option<&str>, last: Option<&str>) -> String {
    match (from, last) {
        (None, None) => msg::any_release(lang),
        (Some(a), None) => msg::releases_from(lang, a),
        (None, Some(b)) => msg::releases_through(lang, b),
        (Some(a), Some(b)) if a == b => msg::release_only(lang, a),
        (Some(a), Some(b)) => msg::releases_from_to(lang, a, b),
    }
}

/// The releases in words, in English (the tables' ranges).
impl<S: Store> fmt::Display for ReleaseRange<S>
where
    S::Release: Ordered,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Lang::En))
    }
}

impl ReleaseRange {
    /// Every release; the range of an item that states none.
    pub fn all(loc: Loc) -> ReleaseRange {
        ReleaseRange {
            from: None,
            last: None,
            loc,
        }
    }

    pub fn parse(text: &str, loc: Loc) -> Result<ReleaseRange, RangeError> {
        let text = text.trim();
        let forms = "write `FROM..` (FROM and later), `FROM..=LAST` (FROM through LAST), \
                     `..=LAST` or `..`";
        let Some((from, end)) = text.split_once("..") else {
            return Err(RangeError {
                message: format!("`{text}` is not a release range"),
                hint: forms.into(),
            });
        };
        let part = |s: &str| {
            let s = s.trim();
            (!s.is_empty()).then(|| s.to_string())
        };
        let (inclusive, end) = match end.strip_prefix('=') {
            Some(rest) => (true, rest),
            None => (false, end),
        };
        if end.contains("..") {
            return Err(RangeError {
                message: format!("`{text}` has more than one `..`"),
                hint: forms.into(),
            });
        }
        let (from, last) = (part(from), part(end));
        match (inclusive, &last) {
            (false, Some(until)) => Err(RangeError {
                message: format!(
                    "`{text}` is ambiguous: it does not say whether {until} is included"
                ),
                hint: format!(
                    "name the last release the range includes after `..=`, e.g. `{}..=LAST` \
                     with LAST the release before {until} in releases.yaml, or `{}..=\
                     {until}` if {until} is included",
                    from.as_deref().unwrap_or(""),
                    from.as_deref().unwrap_or("")
                ),
            }),
            (true, None) => Err(RangeError {
                message: format!("`{text}` has `..=` but no last release"),
                hint: format!(
                    "write `{}..` for an open-ended range",
                    from.as_deref().unwrap_or("")
                ),
            }),
            _ => Ok(ReleaseRange { from, last, loc }),
        }
    }

    /// Whether the release at `index` falls in the range, given an index lookup for ids.
    /// Unknown ids are rejected by the spec checks before this is used.
    pub fn contains_index(&self, index: usize, lookup: impl Fn(&str) -> Option<usize>) -> bool {
        let lo = self.from.as_deref().and_then(&lookup).unwrap_or(0);
        let hi = self.last.as_deref().and_then(&lookup).unwrap_or(usize::MAX);
        lo <= index && index <= hi
    }

    /// Whether no release falls in the range (an option removed before the first release
    /// the spec models, or never read, ends up so).
    pub fn is_empty_with(&self, lookup: impl Fn(&str) -> Option<usize>) -> bool {
        let lo = self.from.as_deref().and_then(&lookup).unwrap_or(0);
        let hi = self.last.as_deref().and_then(&lookup).unwrap_or(usize::MAX);
        lo > hi
    }
}

/// The range as the spec writes it: `9.0.0..`, `..=8.0.0`.
impl fmt::Display for ReleaseRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let from = self.from.as_deref().unwrap_or("");
        match &self.last {
            Some(last) => write!(f, "{from}..={last}"),
            None => write!(f, "{from}.."),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn idx(id: &str) -> Option<usize> {
        ["8.0.RC2", "8.3.RC1", "9.0.0"]
            .iter()
            .position(|r| *r == id)
    }

    fn parse(text: &str) -> Result<ReleaseRange, RangeError> {
        ReleaseRange::parse(text, Loc::default())
    }

    #[test]
    fn open_ended_ranges_include_later_releases() {
        let r = parse("8.3.RC1..").unwrap();
        assert!(!r.contains_index(0, idx));
        assert!(r.contains_index(1, idx));
        assert!(r.contains_index(2, idx));
        assert!(
            r.contains_index(3, idx),
            "a release appended later is inside"
        );
    }

    #[test]
    fn both_ends_are_included() {
        let r = parse("8.0.RC2..=8.3.RC1").unwrap();
        assert!(r.contains_index(0, idx));
        assert!(r.contains_index(1, idx));
        assert!(!r.contains_index(2, idx));
        let r = parse("..=8.0.RC2").unwrap();
        assert!(r.contains_index(0, idx) && !r.contains_index(1, idx));
    }

    #[test]
    fn the_half_open_form_is_refused_with_the_inclusive_one_as_hint() {
        let e = parse("8.0.RC2..9.0.0").unwrap_err();
        assert!(e.message.contains("ambiguous"), "{}", e.message);
        assert!(e.hint.contains("8.0.RC2..=LAST"), "{}", e.hint);
        assert!(parse("..9.0.0").is_err());
    }

    #[test]
    fn malformed_ranges_are_rejected() {
        assert!(parse("9.0.0").is_err());
        assert!(parse("1..=2..3").is_err());
        assert!(parse("9.0.0..=").is_err());
        assert_eq!(parse("..").unwrap(), ReleaseRange::all(Loc::default()));
    }

    #[test]
    fn display_reads_back() {
        for t in ["8.0.RC2..", "8.0.RC2..=9.0.0", "..=9.0.0", ".."] {
            assert_eq!(parse(t).unwrap().to_string(), t);
        }
    }
}
