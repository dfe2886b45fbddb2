//! The files an entry's manifest names on disk: its binary, and for a mixed kernel
//! (`jsonList`) each part's manifest and the part's binary. One function removes them, for
//! a replaced entry (`put`) and a removed one (`remove`).

use std::os::fd::BorrowedFd;

use super::fsx;
use super::manifest::Manifest;

/// Unlinks the files `m` names in `d` (its binary; each part and the part's binary), except
/// `keep`; returns the bytes freed. The parts are read before anything is unlinked.
pub(crate) fn unlink_named(d: BorrowedFd<'_>, m: &Manifest, keep: &str) -> u64 {
    let mut names: Vec<String> = m.bin_name().ok().flatten().into_iter().collect();
    for sub in m.sub_manifests().unwrap_or_default() {
        if let Some(part) = super::store::read_small(d, &sub).and_then(|t| Manifest::parse(&t).ok())
        {
            names.extend(part.bin_name().ok().flatten());
        }
        names.push(sub);
    }
    let mut freed = 0;
    for name in names.iter().filter(|n| n.as_str() != keep) {
        if let Ok(st) = fsx::lstat_at(d, name.as_ref()) {
            if fsx::unlink_at(d, name.as_ref()).unwrap_or(false) {
                freed += fsx::size_of(&st);
            }
        }
    }
    freed
}
