//! Where a buffer goes among the gaps that hold it: the rule both placers follow (the
//! indexed live set of [`super::gaps`] and the neighbour scan of [`super::greedy`]), and
//! the linear scan that defines it.

/// Where a buffer goes among the gaps that hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The smallest gap that fits (least waste).
    BestGap,
    /// The lowest gap that fits.
    FirstGap,
}

/// The offset for `size` bytes among `clashes` (occupied `[start, end)`
/// ranges, sorted by start, possibly overlapping one another): a gap chosen by
/// `placement`, else on top of them all.
pub(crate) fn choose_gap(clashes: &[(u64, u64)], size: u64, placement: Placement) -> u64 {
    let mut cursor = 0u64;
    let mut best: Option<(u64, u64)> = None; // (gap size, offset)
    for &(s, e) in clashes {
        if s > cursor && s - cursor >= size {
            let gap = s - cursor;
            match placement {
                Placement::FirstGap => return cursor,
                Placement::BestGap if best.is_none_or(|(g, _)| gap < g) => {
                    best = Some((gap, cursor))
                }
                Placement::BestGap => {}
            }
        }
        cursor = cursor.max(e);
    }
    best.map_or(cursor, |(_, o)| o)
}
