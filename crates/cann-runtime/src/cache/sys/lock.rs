//! Advisory locks. `flock` locks belong to an open file description and vanish when the
//! holder dies (even by SIGKILL), so a crashed ager never wedges the cache.
//!
//! CANN's own ager excludes itself with a POSIX record lock (`fcntl(F_SETLK, F_WRLCK)`, whole
//! file, non-blocking; skip when held) on `kernel_cache/op_cache_file_del.lock`
//! (hicann/ge@ffdcbc9:compiler/opcompiler/op_compile_adapter/source/cache/te_cache_utils.cc,
//! `LockAndOpenCacheFile`; called from `TeCacheSpaceManager::CacheSpaceInitialize`). Every pass
//! of ours that deletes takes that lock too, after our own, so the two agers never run at once.

use std::collections::BTreeSet;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;
use std::sync::{Condvar, Mutex, PoisonError};

use rustix::fs::{fcntl_lock, flock, FlockOperation, OFlags};

use crate::cache::sys::fsx::{self, FILE_MODE};

/// Held while one process ages the cache; dropping it (or dying) releases the lock.
#[derive(Debug)]
pub struct GcLock {
    _fd: OwnedFd,
}

/// Tries to become the ager. `Ok(None)` means another process is aging: skip, don't wait.
pub fn try_gc_lock(state_dir: BorrowedFd<'_>, name: &str) -> io::Result<Option<GcLock>> {
    let fd = fsx::open_beneath(
        state_dir,
        Path::new(name),
        OFlags::RDWR | OFlags::CREATE,
        FILE_MODE,
    )?;
    match flock(&fd, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(Some(GcLock { _fd: fd })),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// CANN's lock, held for the length of a pass. POSIX record locks belong to the process and
/// are released when the process closes *any* descriptor of the file, so this file is opened
/// only here, and only by the holder of our own gc lock (which excludes the other threads and
/// handles of this process first).
#[derive(Debug)]
pub struct CannLock {
    _fd: OwnedFd,
}

/// Takes CANN's lock without waiting. `Ok(None)`: CANN (or another tool using its lock) is
/// aging. Without write permission on the file (CANN makes it 0640, so a group member can
/// read it only) a read lock is taken instead: it blocks CANN's write lock just the same.
pub fn try_cann_lock(kernel_cache: BorrowedFd<'_>, name: &str) -> io::Result<Option<CannLock>> {
    let open = |flags| fsx::open_beneath(kernel_cache, Path::new(name), flags, FILE_MODE);
    let (fd, op) = match open(OFlags::RDWR | OFlags::CREATE) {
        Ok(fd) => (fd, FlockOperation::NonBlockingLockExclusive),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            (open(OFlags::RDONLY)?, FlockOperation::NonBlockingLockShared)
        }
        Err(e) => return Err(e),
    };
    match fcntl_lock(&fd, op) {
        Ok(()) => Ok(Some(CannLock { _fd: fd })),
        Err(rustix::io::Errno::AGAIN | rustix::io::Errno::ACCESS) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Both locks of a deleting pass, ours first.
#[derive(Debug)]
pub struct AgerLocks {
    _cann: CannLock,
    _ours: GcLock,
}

/// Takes our lock, then CANN's; `Ok(None)` when either is held elsewhere (skip, don't wait).
pub fn try_ager_locks(
    (state_dir, ours): (BorrowedFd<'_>, &str),
    (kernel_cache, cann): (BorrowedFd<'_>, &str),
) -> io::Result<Option<AgerLocks>> {
    let Some(ours) = try_gc_lock(state_dir, ours)? else {
        return Ok(None);
    };
    Ok(try_cann_lock(kernel_cache, cann)?.map(|cann| AgerLocks {
        _cann: cann,
        _ours: ours,
    }))
}

/// A short exclusive lock on the ledger file, held for a read-modify-write of the totals and
/// the matching index append. Unlocks on drop.
///
/// Two locks in one: a `flock` excludes other processes (and other handles of this one, which
/// have their own open file descriptions), but threads sharing one [`super::Cache`] share its
/// descriptor, and a `flock` on a descriptor already locked through it succeeds at once. So
/// the threads of this process first take a process-wide lock keyed by the ledger's device
/// and inode (the same file reached by two paths is one key).
#[derive(Debug)]
pub struct LedgerGuard<'a> {
    fd: BorrowedFd<'a>,
    _thread: ThreadLock,
}

impl<'a> LedgerGuard<'a> {
    /// Blocks until the lock is ours; holders keep it for microseconds, never for a gc pass.
    pub fn acquire(fd: &'a OwnedFd) -> io::Result<Self> {
        let st = rustix::fs::fstat(fd)?;
        let thread = ThreadLock::acquire((st.st_dev as u64, st.st_ino as u64));
        flock(fd, FlockOperation::LockExclusive)?;
        Ok(LedgerGuard {
            fd: fd.as_fd(),
            _thread: thread,
        })
    }
}

impl Drop for LedgerGuard<'_> {
    fn drop(&mut self) {
        // Closing the descriptor would also unlock; an explicit unlock keeps the fd reusable.
        // The thread lock is released after this (fields drop after `drop`).
        let _ = flock(self.fd, FlockOperation::Unlock);
    }
}

/// Ledger files (device, inode) some thread of this process holds the lock of.
static HELD: Mutex<BTreeSet<(u64, u64)>> = Mutex::new(BTreeSet::new());
static RELEASED: Condvar = Condvar::new();

/// The process-wide half of [`LedgerGuard`]. A set and a condition variable rather than a
/// mutex per file: the guard owns nothing borrowed, and nothing accumulates per cache.
#[derive(Debug)]
struct ThreadLock {
    key: (u64, u64),
}

impl ThreadLock {
    fn acquire(key: (u64, u64)) -> ThreadLock {
        // A poisoned set only means a holder panicked after its update: the set is intact.
        let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
        while held.contains(&key) {
            held = RELEASED.wait(held).unwrap_or_else(PoisonError::into_inner);
        }
        held.insert(key);
        ThreadLock { key }
    }
}

impl Drop for ThreadLock {
    fn drop(&mut self) {
        HELD.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
        RELEASED.notify_all();
    }
}
