//! Re-measuring during a pass. The walk at the start of a pass is a snapshot; CANN's compiler,
//! CANN's ager (when it does not honour the lock), `clear` or another host may change the
//! cache while we delete. Every candidate is `lstat`-ed (manifest and files) just before it
//! is judged, and the directories are re-listed whenever the bytes still to free halve, so
//! entries that vanished under us leave the running total instead of being freed again.

use std::collections::{BTreeMap, HashSet};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{Dir, FileType};

use crate::cache::entries::manifest::is_manifest_name;
use crate::cache::entries::relpath::RelPath;
use crate::cache::state::index::IndexRec;
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx;

/// An entry as it is on disk right now.
#[derive(Debug, Clone)]
pub struct Seen {
    /// Newest of the manifest's access and modification times and the files' modification
    /// times: a hit, or a writer rewriting the entry in place, both make it young.
    pub activity: Nanos,
    /// The manifest's modification time (a rewrite after a `force` makes the entry current).
    pub manifest_mtime: Nanos,
    pub manifest_bytes: u64,
    /// The entry's other files that exist, with their sizes.
    pub files: Vec<(String, u64)>,
    /// Manifest plus files.
    pub bytes: u64,
}

/// `lstat`s `rel`'s manifest and files through `stat`, updates `rec` (size, access bound) and
/// `total` by the difference with what was known. `None` when the manifest is gone or is not
/// a regular file any more: its bytes leave `total`. `kernel_times` says the kernel's
/// modification stamps share the clock of the pass (false under an injected clock, where only
/// the access stamps we set explicitly are comparable). `read_since`: this pass read the
/// manifest itself, starting at that (kernel) time; a user who does not own a manifest
/// cannot read it with `O_NOATIME`, so an access time from then on may be our own read and
/// is not taken as a use (the atime seen before the read is in `rec`).
pub fn confirm(
    rel: &str,
    rec: &mut IndexRec,
    stat: &mut dyn FnMut(&str) -> std::io::Result<rustix::fs::Stat>,
    total: &mut u64,
    kernel_times: bool,
    read_since: Option<Nanos>,
) -> Option<Seen> {
    let st = match stat(rel) {
        Ok(st) if fsx::kind(&st) == FileType::RegularFile => st,
        _ => {
            *total = total.saturating_sub(rec.bytes);
            return None;
        }
    };
    let (manifest_mtime, written) = if kernel_times {
        (fsx::mtime_ns(&st), fsx::mtime_ns(&st))
    } else {
        (rec.committed_ns, Nanos::MIN)
    };
    let atime = match read_since {
        Some(t) if fsx::atime_ns(&st) >= t => rec.access_ns,
        _ => fsx::atime_ns(&st),
    };
    let mut activity = rec.access_ns.max(atime).max(written);
    let manifest_bytes = fsx::size_of(&st);
    let mut bytes = manifest_bytes;
    let mut files = Vec::with_capacity(rec.files.len());
    for f in &rec.files {
        if let Ok(fs) = stat(&RelPath::new(rel).sibling(f)) {
            if fsx::kind(&fs) == FileType::RegularFile {
                if kernel_times {
                    activity = activity.max(fsx::mtime_ns(&fs));
                }
                bytes += fsx::size_of(&fs);
                files.push((f.clone(), fsx::size_of(&fs)));
            }
        }
    }
    *total = total.saturating_sub(rec.bytes).saturating_add(bytes);
    rec.bytes = bytes;
    rec.access_ns = activity;
    Some(Seen {
        activity,
        manifest_mtime,
        manifest_bytes,
        files,
        bytes,
    })
}

/// When to re-list the directories: once before the first deletion (the walk may be stale by
/// then), then each time the bytes still to free have halved, never more often than every few
/// deletions, so a pass re-lists about log2(deletions) + 2 times.
#[derive(Debug)]
pub struct Recount {
    need_at_last: u64,
    deleted_since: u64,
    ran: bool,
}

const MIN_DELETIONS_BETWEEN: u64 = 8;

impl Recount {
    pub fn new(need: u64) -> Self {
        Recount {
            need_at_last: need,
            deleted_since: 0,
            ran: false,
        }
    }

    pub fn deleted(&mut self) {
        self.deleted_since += 1;
    }

    pub fn due(&self, need: u64) -> bool {
        !self.ran
            || (self.deleted_since >= MIN_DELETIONS_BETWEEN
                && need.saturating_mul(2) <= self.need_at_last)
    }

    /// Re-lists every directory (names only, no `stat`) and drops the entries whose manifest
    /// is gone, subtracting their bytes; returns the new total.
    pub fn run(
        &mut self,
        kc: &OwnedFd,
        dirs: &[String],
        entries: &mut BTreeMap<String, IndexRec>,
        mut total: u64,
        target: u64,
    ) -> u64 {
        let mut present: HashSet<String> = HashSet::with_capacity(entries.len());
        let mut unknown: Vec<&str> = Vec::new();
        for d in dirs {
            match list_manifests(kc.as_fd(), d, &mut present) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                // Not listable now: keep its entries as they are (under-evicting is safe).
                Err(_) => unknown.push(d),
            }
        }
        entries.retain(|rel, rec| {
            let dir = RelPath::new(rel).dir();
            let keep = present.contains(rel) || unknown.contains(&dir);
            if !keep {
                total = total.saturating_sub(rec.bytes);
            }
            keep
        });
        self.need_at_last = total.saturating_sub(target);
        self.deleted_since = 0;
        self.ran = true;
        total
    }
}

fn list_manifests(
    kc: BorrowedFd<'_>,
    dir_rel: &str,
    out: &mut HashSet<String>,
) -> std::io::Result<()> {
    let fd = fsx::open_dir(kc, Path::new(dir_rel))?;
    let mut dir = Dir::read_from(&fd)?;
    while let Some(ent) = dir.read() {
        let ent = ent?;
        let Ok(name) = ent.file_name().to_str() else {
            continue;
        };
        if is_manifest_name(name) {
            out.insert(if dir_rel.is_empty() {
                name.to_owned()
            } else {
                format!("{dir_rel}/{name}")
            });
        }
    }
    Ok(())
}
