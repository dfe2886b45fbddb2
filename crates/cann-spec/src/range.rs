//! Release ranges: `"9.0.0.."`, `"8.0.RC2..9.0.0"` (end excluded), `"..9.0.0"`, `".."`.
//!
//! Open ends are what make a new release a spec edit only: a release appended to
//! `releases.yaml` falls inside every range that has no end.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReleaseRange {
    /// First release included; `None` means from the first release in the spec.
    pub from: Option<String>,
    /// First release no longer included; `None` means open-ended.
    pub until: Option<String>,
}

impl ReleaseRange {
    pub const ALL: ReleaseRange = ReleaseRange {
        from: None,
        until: None,
    };

    pub fn parse(text: &str) -> Result<ReleaseRange, String> {
        let text = text.trim();
        let Some((from, until)) = text.split_once("..") else {
            return Err(format!(
                "`{text}` is not a release range; write `FROM..`, `FROM..UNTIL` or `..UNTIL`"
            ));
        };
        let part = |s: &str| {
            let s = s.trim();
            (!s.is_empty()).then(|| s.to_string())
        };
        if until.contains("..") {
            return Err(format!("`{text}` has more than one `..`"));
        }
        Ok(ReleaseRange {
            from: part(from),
            until: part(until),
        })
    }

    /// Whether the release at `index` falls in the range, given an index lookup for ids.
    /// Unknown ids are rejected by the spec checks before this is used.
    pub fn contains_index(&self, index: usize, lookup: impl Fn(&str) -> Option<usize>) -> bool {
        let lo = self.from.as_deref().and_then(&lookup).unwrap_or(0);
        let hi = self
            .until
            .as_deref()
            .and_then(&lookup)
            .unwrap_or(usize::MAX);
        lo <= index && index < hi
    }
}

impl fmt::Display for ReleaseRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}..{}",
            self.from.as_deref().unwrap_or(""),
            self.until.as_deref().unwrap_or("")
        )
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

    #[test]
    fn open_ended_ranges_include_later_releases() {
        let r = ReleaseRange::parse("8.3.RC1..").unwrap();
        assert!(!r.contains_index(0, idx));
        assert!(r.contains_index(1, idx));
        assert!(r.contains_index(2, idx));
        assert!(
            r.contains_index(3, idx),
            "a release appended later is inside"
        );
    }

    #[test]
    fn end_is_excluded() {
        let r = ReleaseRange::parse("8.0.RC2..9.0.0").unwrap();
        assert!(r.contains_index(0, idx));
        assert!(r.contains_index(1, idx));
        assert!(!r.contains_index(2, idx));
    }

    #[test]
    fn malformed_ranges_are_rejected() {
        assert!(ReleaseRange::parse("9.0.0").is_err());
        assert!(ReleaseRange::parse("1..2..3").is_err());
        assert_eq!(ReleaseRange::parse("..").unwrap(), ReleaseRange::ALL);
    }
}
