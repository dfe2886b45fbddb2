//! Cheap detection of foreign writes: directory modification times.
//!
//! Creating, renaming or removing a file moves its directory's mtime. CANN's compiler writes
//! entries at any depth of `kernel_cache/` (`<soc>/kernel_meta/…` and deeper), so the state
//! keeps the list of every directory as last accounted for ([`DIRS`]), and the newest mtime of
//! `kernel_cache/` and of each listed directory (one `stat` per directory, whatever the number
//! of entries) says whether anyone changed the set of files since the ledger last accounted
//! for all of them. A new directory anywhere moves its (listed) parent's time; a listed
//! directory that is gone or unreadable counts as moved; a missing list counts as moved. The
//! ledger keeps that time ([`crate::cache::state::ledger::Ledger`]); a newer directory makes the start-up
//! check answer "unknown", never "no".
//!
//! Limits, stated where users read them (DESIGN.md, `cache info`):
//!
//! - A file rewritten in place under the same name moves no directory time, so its new size
//!   is seen by the next gc (which `lstat`s every entry), not by the start-up check.
//! - Our own put, pull commit or remove reads every listed directory's time before and after
//!   its change ([`Snapshot`]); when a directory it did not write moved in between, the
//!   record does not advance (the check answers "unknown"). A foreign create, rename or
//!   unlink **in a directory we wrote** (or, for a new subdirectory, its parent) is not seen
//!   when it lands between those two readings (the few system calls of our commit). Nor is
//!   a foreign write **anywhere** within one coarse clock tick after the second reading
//!   (1/HZ: 4 ms at HZ=250, 10 ms at HZ=100): the kernel stamps directory times from its
//!   coarse clock, so that write carries exactly the time we recorded.
//!   Nothing the file system keeps can tell the two writes apart: `ctime` moves with `mtime`
//!   from the same clock, a directory's `nlink` counts only subdirectories, its `st_size`
//!   on ext4 grows by whole blocks, and the inode change counter (`i_version`) is not
//!   exported to user space (`STATX_CHANGE_COOKIE` is kernel-internal). Since Linux 6.13,
//!   multigrain timestamps (ext4, xfs, btrfs, tmpfs) give a change after a `stat` a strictly
//!   newer fine-grained time, which closes the tick after our reading there; the window of
//!   our own commit stays. Such a write is accounted by the next gc or `info` walk.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{Dir, FileType};

use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx;

/// Timestamps come from the kernel's coarse clock, up to a scheduler tick (10 ms at HZ=100)
/// behind the fine one; two changes within one tick can carry the same time.
const TICK_NS: Nanos = 10_000_000;

/// Parses the directory list; `None` when a line is empty or climbs out (not our file).
pub fn parse_list(text: &[u8]) -> Option<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    for line in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        if line
            .split(|b| *b == b'/')
            .any(|c| c.is_empty() || c == b"." || c == b"..")
        {
            return None;
        }
        out.push(line.to_vec());
    }
    Some(out)
}

/// The list as the state file holds it.
pub fn encode_list(dirs: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(dirs.len() * 32);
    for d in dirs {
        out.extend_from_slice(d);
        out.push(b'\n');
    }
    out
}

/// One `fstatat` (the check runs on every put and pull commit, so no open per directory).
/// The last component is not followed; a symlink swapped in above it can only point the
/// check at another directory's time, which no writer of this cache gains anything from.
fn mtime_of(kc: BorrowedFd<'_>, rel: &[u8]) -> io::Result<Nanos> {
    let st = fsx::lstat_at(kc, OsStr::from_bytes(rel))?;
    if fsx::kind(&st) != FileType::Directory {
        return Err(io::Error::from(io::ErrorKind::NotADirectory));
    }
    Ok(fsx::mtime_ns(&st))
}

/// Newest mtime of `kernel_cache/` and of every directory in `dirs` (the recorded list);
/// [`Nanos::MAX`] ("moved") when the list is unknown or a listed directory cannot be read.
pub fn newest(kc: BorrowedFd<'_>, dirs: Option<&[Vec<u8>]>) -> Nanos {
    let Some(dirs) = dirs else {
        return Nanos::MAX;
    };
    let mut newest = match rustix::fs::fstat(kc) {
        Ok(st) => fsx::mtime_ns(&st),
        Err(_) => return Nanos::MAX,
    };
    for d in dirs {
        match mtime_of(kc, d) {
            Ok(t) => newest = newest.max(t),
            Err(_) => return Nanos::MAX,
        }
    }
    newest
}

/// Directory paths relative to `kernel_cache/`, as raw bytes.
pub type Dirs = Vec<Vec<u8>>;

/// The directories among `kernel_cache/` itself (`""`) and `dirs` (the recorded list) whose
/// time is newer than `since`, and the listed ones that are gone; `None` when one cannot be
/// read otherwise (then nothing vouches for it).
pub fn moved_since(kc: BorrowedFd<'_>, dirs: &[Vec<u8>], since: Nanos) -> Option<(Dirs, Dirs)> {
    let mut moved = Vec::new();
    let mut gone = Vec::new();
    if fsx::mtime_ns(&rustix::fs::fstat(kc).ok()?) > since {
        moved.push(Vec::new());
    }
    for d in dirs {
        match mtime_of(kc, d) {
            Ok(t) if t > since => moved.push(d.clone()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => gone.push(d.clone()),
            Err(_) => return None,
        }
    }
    Some((moved, gone))
}

/// The times of `kernel_cache/` and of every listed directory at one moment, taken before and
/// after one of our own changes: a directory that moved in between and that our change did
/// not write (nor create a child in) was written by someone else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// `None` when the list is unknown or a directory could not be read.
    times: Option<Vec<(Vec<u8>, Nanos)>>,
}

impl Snapshot {
    /// One `fstat` of `kernel_cache/` and one `fstatat` per listed directory.
    pub fn take(kc: BorrowedFd<'_>, dirs: Option<&[Vec<u8>]>) -> Snapshot {
        let times = (|| {
            let dirs = dirs?;
            let mut v = Vec::with_capacity(dirs.len() + 1);
            v.push((Vec::new(), fsx::mtime_ns(&rustix::fs::fstat(kc).ok()?)));
            for d in dirs {
                v.push((d.clone(), mtime_of(kc, d).ok()?));
            }
            Some(v)
        })();
        Snapshot { times }
    }

    /// The newest time ([`Nanos::MAX`], "moved", when unknown), as [`newest`] gives it.
    pub fn newest(&self) -> Nanos {
        self.times
            .as_ref()
            .and_then(|v| v.iter().map(|t| t.1).max())
            .unwrap_or(Nanos::MAX)
    }

    /// True when, between `self` and `later`, a directory moved that none of `ours`
    /// (directories relative to `kernel_cache/`) is or lies below: a foreign write landed
    /// during our change. Unknown either side counts as moved.
    pub fn moved_elsewhere<'a>(
        &self,
        later: &Snapshot,
        ours: impl IntoIterator<Item = &'a Path> + Clone,
    ) -> bool {
        let (Some(a), Some(b)) = (&self.times, &later.times) else {
            return true;
        };
        if a.len() != b.len() {
            return true;
        }
        a.iter().zip(b).any(|((pa, ta), (pb, tb))| {
            if pa != pb {
                return true;
            }
            ta != tb
                && !pa.is_empty()
                && !ours.clone().into_iter().any(|d| {
                    let d = d.as_os_str().as_bytes();
                    d == pa.as_slice() || (d.starts_with(pa) && d.get(pa.len()) == Some(&b'/'))
                })
        })
    }
}

/// The newest mtime of `rel` and each of its ancestors below `kernel_cache/` that `listed`
/// lacks, with those directories (shallowest first): what a put that created them adds to the
/// list. `(Nanos::MIN, [])` when all are listed.
pub fn unlisted(kc: BorrowedFd<'_>, listed: &[Vec<u8>], rel: &Path) -> (Nanos, Vec<Vec<u8>>) {
    let mut t = Nanos::MIN;
    let mut add = Vec::new();
    let mut path: Vec<u8> = Vec::new();
    for comp in rel.components() {
        if !path.is_empty() {
            path.push(b'/');
        }
        path.extend_from_slice(comp.as_os_str().as_bytes());
        if !listed.contains(&path) {
            // Unreadable: the caller's record cannot vouch for it.
            t = t.max(mtime_of(kc, &path).unwrap_or(Nanos::MAX));
            add.push(path.clone());
        }
    }
    (t, add)
}

/// What a settling walk found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The directory time to record; 0 when the pass did not account for everything.
    pub mtime_ns: Nanos,
    /// Every directory below `kernel_cache/` (our state directory excluded).
    pub dirs: Vec<Vec<u8>>,
}

/// The directory time and list to record after a pass that accounted for exactly `known`
/// (paths relative to `kernel_cache/`, directories included): every directory is `fstat`ed
/// before its names are read, and each name must be known. A name the pass did not account
/// for means someone wrote during it: the time is 0, so the start-up check stays "unknown"
/// until the next pass. A change after a directory's `fstat` either shows in its listing or
/// moves its time past the one returned; when a directory changed within the last clock tick
/// (a later change could carry the same time), the walk waits out the tick and runs again.
pub fn settle(kc: BorrowedFd<'_>, known: &HashSet<String>) -> io::Result<Settled> {
    let mut tries = 0;
    loop {
        let s = settle_once(kc, known)?;
        tries += 1;
        let now = crate::cache::sys::clock::system_now();
        if s.mtime_ns == 0 || s.mtime_ns + TICK_NS < now || tries == 3 {
            return Ok(s);
        }
        let wait = (s.mtime_ns + TICK_NS + 1 - now).clamp(0, TICK_NS);
        std::thread::sleep(std::time::Duration::from_nanos(wait as u64 + 1_000_000));
    }
}

fn settle_once(kc: BorrowedFd<'_>, known: &HashSet<String>) -> io::Result<Settled> {
    let mut out = Settled {
        mtime_ns: Nanos::MIN,
        dirs: Vec::new(),
    };
    let mut complete = true;
    let mut stack: Vec<(Vec<u8>, OwnedFd)> = vec![(Vec::new(), fsx::open_dir(kc, Path::new(""))?)];
    while let Some((rel_raw, fd)) = stack.pop() {
        out.mtime_ns = out.mtime_ns.max(fsx::mtime_ns(&rustix::fs::fstat(&fd)?));
        let rel = String::from_utf8_lossy(&rel_raw).into_owned();
        let mut dir = Dir::read_from(&fd)?;
        while let Some(ent) = dir.read() {
            let ent = ent?;
            let raw = ent.file_name().to_bytes();
            if raw == b"." || raw == b".." || crate::cache::state::names::is_bookkeeping(&rel, raw)
            {
                continue;
            }
            let name = String::from_utf8_lossy(raw);
            let path = if rel.is_empty() {
                name.into_owned()
            } else {
                format!("{rel}/{name}")
            };
            if !known.contains(&path) || raw.contains(&b'\n') {
                complete = false;
            }
            let is_dir = match ent.file_type() {
                FileType::Directory => true,
                FileType::Unknown => fsx::lstat_at(fd.as_fd(), OsStr::from_bytes(raw))
                    .is_ok_and(|st| fsx::kind(&st) == FileType::Directory),
                _ => false,
            };
            if is_dir {
                let mut sub_rel = rel_raw.clone();
                if !sub_rel.is_empty() {
                    sub_rel.push(b'/');
                }
                sub_rel.extend_from_slice(raw);
                match fsx::open_dir(fd.as_fd(), Path::new(OsStr::from_bytes(raw))) {
                    Ok(sub) => {
                        out.dirs.push(sub_rel.clone());
                        stack.push((sub_rel, sub));
                    }
                    // A directory we cannot watch cannot be vouched for.
                    Err(_) => complete = false,
                }
            }
        }
    }
    out.dirs.sort();
    if !complete {
        out.mtime_ns = 0;
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn list_round_trips_and_refuses_escapes() {
        let dirs = vec![b"a".to_vec(), b"a/b\xff".to_vec()];
        assert_eq!(parse_list(&encode_list(&dirs)), Some(dirs));
        assert_eq!(parse_list(b"a/../b\n"), None);
        assert_eq!(parse_list(b"/etc\n"), None);
        assert_eq!(parse_list(b""), Some(vec![]));
    }
}
