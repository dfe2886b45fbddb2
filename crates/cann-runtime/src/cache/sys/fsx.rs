//! File-system primitives that never leave the cache root and never follow a symlink.
//!
//! Every path inside the cache is opened relative to a directory descriptor with
//! `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`, so a symlink planted anywhere in a shared
//! cache (a file or a directory pointing elsewhere) makes the open fail instead of redirecting
//! it. Deletions are `unlinkat` on a descriptor opened that way: at most the link itself goes.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{
    self as rfs, AtFlags, FileType, Mode, OFlags, ResolveFlags, Stat, Timespec, Timestamps,
};

use crate::cache::sys::clock::Nanos;

/// Mode for files we create: the umask decides (never a forced 0644), so with `umask 002`
/// a group-shared cache stays writable by the group; a setgid directory gives the group.
pub const FILE_MODE: Mode = Mode::from_raw_mode(0o666);
/// Mode for directories we create, under the umask likewise.
pub const DIR_MODE: Mode = Mode::from_raw_mode(0o777);

/// Flags for every open inside the cache.
const RESOLVE: ResolveFlags = ResolveFlags::BENEATH
    .union(ResolveFlags::NO_SYMLINKS)
    .union(ResolveFlags::NO_MAGICLINKS);

/// Opens `rel` beneath `root` without following any symlink on the way.
pub fn open_beneath(
    root: BorrowedFd<'_>,
    rel: &Path,
    flags: OFlags,
    mode: Mode,
) -> io::Result<OwnedFd> {
    // NONBLOCK: a FIFO planted in a shared cache must not make an open (or a read) wait.
    let flags = flags | OFlags::CLOEXEC | OFlags::NOFOLLOW | OFlags::NONBLOCK;
    match rfs::openat2(root, rel, flags, mode, RESOLVE) {
        Err(rustix::io::Errno::NOSYS) => open_walk(root, rel, flags, mode),
        other => other.map_err(io::Error::from),
    }
}

/// Fallback for kernels without `openat2` (before 5.6): walk component by component with
/// `O_NOFOLLOW`, refusing `..` and absolute paths, which gives the same guarantee.
fn open_walk(root: BorrowedFd<'_>, rel: &Path, flags: OFlags, mode: Mode) -> io::Result<OwnedFd> {
    let comps: Vec<&std::ffi::OsStr> = rel
        .components()
        .map(|c| match c {
            Component::Normal(s) => Ok(s),
            _ => Err(io::Error::from(io::ErrorKind::InvalidInput)),
        })
        .collect::<io::Result<_>>()?;
    let Some((last, dirs)) = comps.split_last() else {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    };
    let mut cur: Option<OwnedFd> = None;
    for d in dirs {
        let base = cur.as_ref().map_or(root, |f| f.as_fd());
        let next = rfs::openat(
            base,
            *d,
            OFlags::DIRECTORY | OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        cur = Some(next);
    }
    let base = cur.as_ref().map_or(root, |f| f.as_fd());
    Ok(rfs::openat(base, *last, flags, mode)?)
}

/// Opens the directory `rel` beneath `root` (`rel` empty means `root` itself).
pub fn open_dir(root: BorrowedFd<'_>, rel: &Path) -> io::Result<OwnedFd> {
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    open_beneath(root, rel, OFlags::DIRECTORY | OFlags::RDONLY, Mode::empty())
}

/// Creates every directory of `rel` beneath `root` (no symlinks followed) and opens the last.
pub fn make_dirs(root: BorrowedFd<'_>, rel: &Path) -> io::Result<OwnedFd> {
    let mut cur = open_dir(root, Path::new(""))?;
    for comp in rel.components() {
        let Component::Normal(name) = comp else {
            return Err(io::Error::from(io::ErrorKind::InvalidInput));
        };
        match rfs::mkdirat(cur.as_fd(), name, DIR_MODE) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(e.into()),
        }
        cur = open_beneath(
            cur.as_fd(),
            Path::new(name),
            OFlags::DIRECTORY | OFlags::RDONLY,
            Mode::empty(),
        )?;
    }
    Ok(cur)
}

/// Opens a file for reading without moving its access time when the kernel allows it
/// (`O_NOATIME` needs ownership); our own reads must never look like a user's access.
pub fn open_read_noatime(dir: BorrowedFd<'_>, rel: &Path) -> io::Result<OwnedFd> {
    match open_beneath(dir, rel, OFlags::RDONLY | OFlags::NOATIME, Mode::empty()) {
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::PERM.raw_os_error()) => {
            open_beneath(dir, rel, OFlags::RDONLY, Mode::empty())
        }
        other => other,
    }
}

/// Writes all of `data` to `fd`.
pub fn write_all(fd: &OwnedFd, mut data: &[u8]) -> io::Result<()> {
    while !data.is_empty() {
        let n = rustix::io::write(fd, data)?;
        if n == 0 {
            return Err(io::Error::from(io::ErrorKind::WriteZero));
        }
        data = &data[n..];
    }
    Ok(())
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Prefix of every temporary file we create; `verify` and `gc` recognise leftovers by it.
pub const TMP_PREFIX: &str = ".tmp-";

/// A fresh temporary name in the same directory (same file system, so `rename` is atomic).
pub fn tmp_name(for_name: &str) -> String {
    let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{TMP_PREFIX}{for_name}.{}.{n}", std::process::id())
}

/// Writes `data` to a new temporary file in `dir` and returns its name. The caller renames it.
pub fn write_tmp(
    dir: BorrowedFd<'_>,
    for_name: &str,
    data: &[u8],
    durable: bool,
) -> io::Result<String> {
    let (name, fd) = write_tmp_open(dir, for_name, data)?;
    if durable {
        if let Err(e) = rfs::fsync(&fd) {
            let _ = rfs::unlinkat(dir, name.as_str(), AtFlags::empty());
            return Err(e.into());
        }
    }
    Ok(name)
}

/// Writes `data` to a fresh temporary file in `dir`, unflushed, and returns its name and the
/// open descriptor (for a caller that flushes it later, see `flush`).
pub fn write_tmp_open(
    dir: BorrowedFd<'_>,
    for_name: &str,
    data: &[u8],
) -> io::Result<(String, OwnedFd)> {
    let name = tmp_name(for_name);
    let fd = rfs::openat(
        dir,
        name.as_str(),
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        FILE_MODE,
    )?;
    if let Err(e) = write_all(&fd, data) {
        let _ = rfs::unlinkat(dir, name.as_str(), AtFlags::empty());
        return Err(e);
    }
    Ok((name, fd))
}

/// Atomically replaces `name` in `dir` by a file holding `data`: readers see the old or the
/// new content, never a mix, and a crash leaves the old file intact.
pub fn replace_file(dir: BorrowedFd<'_>, name: &str, data: &[u8], durable: bool) -> io::Result<()> {
    let tmp = write_tmp(dir, name, data, durable)?;
    if let Err(e) = rfs::renameat(dir, tmp.as_str(), dir, name) {
        let _ = rfs::unlinkat(dir, tmp.as_str(), AtFlags::empty());
        return Err(e.into());
    }
    if durable {
        rfs::fsync(dir)?;
    }
    Ok(())
}

/// `lstat` of `name` in `dir`.
pub fn lstat_at(dir: BorrowedFd<'_>, name: &std::ffi::OsStr) -> io::Result<Stat> {
    Ok(rfs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)?)
}

/// Removes the file (or symlink) `name` from `dir`. Missing is fine: someone else removed it.
pub fn unlink_at(dir: BorrowedFd<'_>, name: &std::ffi::OsStr) -> io::Result<bool> {
    match rfs::unlinkat(dir, name, AtFlags::empty()) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::NOENT) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Removes the empty directory `name` from `dir`; a non-empty one is left alone.
pub fn rmdir_at(dir: BorrowedFd<'_>, name: &std::ffi::OsStr) -> io::Result<bool> {
    match rfs::unlinkat(dir, name, AtFlags::REMOVEDIR) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTEMPTY | rustix::io::Errno::EXIST) => {
            Ok(false)
        }
        Err(e) => Err(e.into()),
    }
}

/// Access time of a stat result, in nanoseconds. (The casts are no-ops on 64-bit targets
/// but not on 32-bit ones, where the fields are narrower.)
#[allow(clippy::unnecessary_cast)]
pub fn atime_ns(st: &Stat) -> Nanos {
    (st.st_atime as i64)
        .saturating_mul(1_000_000_000)
        .saturating_add(st.st_atime_nsec as i64)
}

/// Modification time of a stat result, in nanoseconds.
#[allow(clippy::unnecessary_cast)]
pub fn mtime_ns(st: &Stat) -> Nanos {
    (st.st_mtime as i64)
        .saturating_mul(1_000_000_000)
        .saturating_add(st.st_mtime_nsec as i64)
}

/// Status-change time of a stat result, in nanoseconds.
#[allow(clippy::unnecessary_cast)]
pub fn ctime_ns(st: &Stat) -> Nanos {
    (st.st_ctime as i64)
        .saturating_mul(1_000_000_000)
        .saturating_add(st.st_ctime_nsec as i64)
}

/// Bytes a file counts for against the limit: its size, or the blocks it really has
/// allocated when those are fewer. For every dense file this is `st_size`, what CANN's ager
/// sums, so both agers measure a normal cache alike; a sparse (or compressed) file counts
/// for the disk it occupies, so a 1 GB file of holes does not flush every other entry.
/// Counting blocks always would make each 350-byte manifest a 4 KiB one, eleven times what
/// CANN counts, and aging would start far below the size CANN ages at.
pub fn size_of(st: &Stat) -> u64 {
    apparent_size(st).min(allocated_size(st))
}

/// `st_size`.
pub fn apparent_size(st: &Stat) -> u64 {
    u64::try_from(st.st_size).unwrap_or(0)
}

/// Bytes allocated (`st_blocks` counts 512-byte units whatever the file system's block).
pub fn allocated_size(st: &Stat) -> u64 {
    u64::try_from(st.st_blocks).unwrap_or(0).saturating_mul(512)
}

/// The file type of a stat result.
pub fn kind(st: &Stat) -> FileType {
    FileType::from_raw_mode(st.st_mode)
}

/// Stamps the access time of an open file. With `at = None` the kernel's own clock is used
/// (`UTIME_NOW`, allowed to anyone who may write the file); an explicit time needs
/// ownership. The modification time is left alone. An explicit stamp works on `noatime` and
/// `relatime` mounts alike: those policies only govern the implicit updates made by reads.
pub fn stamp_atime(fd: BorrowedFd<'_>, at: Option<Nanos>) -> io::Result<()> {
    let last_access = match at {
        None => Timespec {
            tv_sec: 0,
            tv_nsec: rfs::UTIME_NOW,
        },
        Some(ns) => Timespec {
            tv_sec: ns.div_euclid(1_000_000_000),
            tv_nsec: ns.rem_euclid(1_000_000_000) as _,
        },
    };
    let ts = Timestamps {
        last_access,
        last_modification: Timespec {
            tv_sec: 0,
            tv_nsec: rfs::UTIME_OMIT,
        },
    };
    Ok(rfs::futimens(fd, &ts)?)
}

/// Sets both times of `name` in `dir` without following a symlink (tests and imports use it).
pub fn set_times(
    dir: BorrowedFd<'_>,
    name: &std::ffi::OsStr,
    atime: Nanos,
    mtime: Nanos,
) -> io::Result<()> {
    let ts = |ns: Nanos| Timespec {
        tv_sec: ns.div_euclid(1_000_000_000),
        tv_nsec: ns.rem_euclid(1_000_000_000) as _,
    };
    let times = Timestamps {
        last_access: ts(atime),
        last_modification: ts(mtime),
    };
    Ok(rfs::utimensat(
        dir,
        name,
        &times,
        AtFlags::SYMLINK_NOFOLLOW,
    )?)
}
