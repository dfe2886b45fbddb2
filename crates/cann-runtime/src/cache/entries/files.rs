//! The files an entry's manifest names on disk: its binary, and for a mixed kernel
//! (`jsonList`) each part's manifest and the part's binary. One function lists them and one
//! reclaims them, for every way an entry leaves: replaced by a `put`, replaced by a batch
//! commit (a stale or torn entry), and `remove`.

use std::os::fd::BorrowedFd;

use crate::cache::entries::manifest::{read_small, Manifest};
use crate::cache::sys::fsx;

/// The files `m` names in `d` that exist now, with their sizes: its binary, each part's
/// manifest and the binary that part names. A part that cannot be read is still listed (its
/// own binary is then unknown); the others are not lost with it.
pub(crate) fn named_present(d: BorrowedFd<'_>, m: &Manifest) -> Vec<(String, u64)> {
    let mut names: Vec<String> = m.bin_name().ok().flatten().into_iter().collect();
    for sub in m.sub_manifests().unwrap_or_default() {
        if let Some(part) = read_small(d, &sub).and_then(|t| Manifest::parse(&t).ok()) {
            names.extend(part.bin_name().ok().flatten());
        }
        names.push(sub);
    }
    names
        .into_iter()
        .filter_map(|n| {
            let st = fsx::lstat_at(d, n.as_ref()).ok()?;
            Some((n, fsx::size_of(&st)))
        })
        .collect()
}

/// Unlinks `files` (as [`named_present`] listed them) from `d`, except those `keep`
/// accepts (names a new entry reuses); returns the bytes freed.
pub(crate) fn reclaim(
    d: BorrowedFd<'_>,
    files: &[(String, u64)],
    keep: &dyn Fn(&str) -> bool,
) -> u64 {
    let mut freed = 0;
    for (name, bytes) in files.iter().filter(|(n, _)| !keep(n)) {
        if fsx::unlink_at(d, name.as_ref()).unwrap_or(false) {
            freed += bytes;
        }
    }
    freed
}
