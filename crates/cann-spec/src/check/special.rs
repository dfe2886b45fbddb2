//! Values with a special meaning (`-1` turns aging off): inside the range, listed once.

use std::collections::BTreeSet;

use crate::diag::{Diagnostics, Loc};

/// A special value must lie outside the range (inside, it would be an ordinary value) and be
/// listed once.
pub(crate) fn special_values(
    range: Option<&crate::model::IntRange>,
    special: &[(i64, crate::model::Text)],
    loc: &Loc,
    what: &str,
    d: &mut Diagnostics,
) {
    let mut seen = BTreeSet::new();
    for (v, _) in special {
        if !seen.insert(*v) {
            d.error(
                loc.clone(),
                format!("special value {v} of {what} is listed twice"),
            );
        }
        if range.is_some_and(|r| r.min.is_none_or(|m| *v >= m) && r.max.is_none_or(|m| *v <= m)) {
            d.error(
                loc.clone(),
                format!("special value {v} of {what} lies inside its range"),
            )
            .hint("a special value is one the range excludes, such as -1 meaning `off`");
        }
    }
}
