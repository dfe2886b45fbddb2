//! Cheap detection of foreign writes: directory modification times.
//!
//! Creating, renaming or removing a file moves its directory's mtime. CANN's compiler writes
//! entries into `kernel_cache/<soc>/`, so the newest mtime of `kernel_cache/` and its
//! subdirectories (a `readdir` of the top directory and one `stat` per subdirectory, whatever
//! the number of entries) says whether anyone changed the set of files since the ledger last
//! accounted for all of them. The ledger keeps that time ([`super::ledger::Ledger`]); a newer
//! directory makes the start-up check answer "unknown", never "no".
//!
//! Limits, stated where users read them (DESIGN.md, `cache info`): a file rewritten in place
//! under the same name moves no directory time, so its new size is seen by the next gc (which
//! `lstat`s every entry), not by the start-up check; directories deeper than
//! `kernel_cache/<soc>/` are seen by gc only.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{Dir, FileType};

use super::clock::Nanos;
use super::fsx;

/// True for names in `kernel_cache/` that are bookkeeping, not cache content.
pub fn is_bookkeeping(dir_rel: &str, name: &[u8]) -> bool {
    dir_rel.is_empty()
        && (name == super::dir::STATE_DIR.as_bytes() || name == super::lock::CANN_LOCK.as_bytes())
}

/// Newest mtime of `kernel_cache/` and of each directory directly in it (our state directory
/// excluded: our own bookkeeping is not a foreign write).
pub fn newest(kc: BorrowedFd<'_>) -> io::Result<Nanos> {
    let mut newest = fsx::mtime_ns(&rustix::fs::fstat(kc)?);
    let fd = fsx::open_dir(kc, Path::new(""))?;
    let mut dir = Dir::read_from(&fd)?;
    while let Some(ent) = dir.read() {
        let ent = ent?;
        let name = ent.file_name().to_bytes();
        if name == b"." || name == b".." || is_bookkeeping("", name) {
            continue;
        }
        if matches!(ent.file_type(), FileType::Directory | FileType::Unknown) {
            if let Ok(st) = fsx::lstat_at(fd.as_fd(), OsStr::from_bytes(name)) {
                if fsx::kind(&st) == FileType::Directory {
                    newest = newest.max(fsx::mtime_ns(&st));
                }
            }
        }
    }
    Ok(newest)
}

/// The directory time to record after a pass that accounted for exactly `known` (paths
/// relative to `kernel_cache/`, directories included): [`newest`] taken first, then every
/// directory listed (names only, no `stat`). A name the pass did not account for means
/// someone wrote during it: 0 is returned, so the start-up check stays "unknown" until the
/// next pass. Anything written after the first step moves a time past the one returned.
pub fn settle(kc: BorrowedFd<'_>, known: &HashSet<String>) -> io::Result<Nanos> {
    let t = newest(kc)?;
    let mut stack: Vec<(String, OwnedFd)> =
        vec![(String::new(), fsx::open_dir(kc, Path::new(""))?)];
    while let Some((rel, fd)) = stack.pop() {
        let mut dir = Dir::read_from(&fd)?;
        while let Some(ent) = dir.read() {
            let ent = ent?;
            let raw = ent.file_name().to_bytes();
            if raw == b"." || raw == b".." || is_bookkeeping(&rel, raw) {
                continue;
            }
            let name = String::from_utf8_lossy(raw);
            let path = if rel.is_empty() {
                name.into_owned()
            } else {
                format!("{rel}/{name}")
            };
            if !known.contains(&path) {
                return Ok(0);
            }
            if ent.file_type() == FileType::Directory {
                if let Ok(sub) = fsx::open_dir(fd.as_fd(), Path::new(OsStr::from_bytes(raw))) {
                    stack.push((path, sub));
                }
            }
        }
    }
    Ok(t)
}
