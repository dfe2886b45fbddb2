//! Advisory locks. `flock` locks belong to an open file description and vanish when the
//! holder dies (even by SIGKILL), so a crashed ager never wedges the cache.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{flock, FlockOperation, Mode, OFlags};

use super::fsx;

/// Name of the lock file that admits one ager at a time.
pub const GC_LOCK: &str = "gc.lock";

/// Held while one process ages the cache; dropping it (or dying) releases the lock.
#[derive(Debug)]
pub struct GcLock {
    _fd: OwnedFd,
}

/// Tries to become the ager. `Ok(None)` means another process is aging: skip, don't wait.
pub fn try_gc_lock(state_dir: BorrowedFd<'_>) -> io::Result<Option<GcLock>> {
    let fd = fsx::open_beneath(
        state_dir,
        Path::new(GC_LOCK),
        OFlags::RDWR | OFlags::CREATE,
        Mode::from_raw_mode(0o644),
    )?;
    match flock(&fd, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(Some(GcLock { _fd: fd })),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// A short exclusive lock on the ledger file, held for a read-modify-write of the totals and
/// the matching index append. Unlocks on drop.
#[derive(Debug)]
pub struct LedgerGuard<'a> {
    fd: BorrowedFd<'a>,
}

impl<'a> LedgerGuard<'a> {
    /// Blocks until the lock is ours; holders keep it for microseconds, never for a gc pass.
    pub fn acquire(fd: &'a OwnedFd) -> io::Result<Self> {
        flock(fd, FlockOperation::LockExclusive)?;
        Ok(LedgerGuard { fd: fd.as_fd() })
    }
}

impl Drop for LedgerGuard<'_> {
    fn drop(&mut self) {
        // Closing the descriptor would also unlock; an explicit unlock keeps the fd reusable.
        let _ = flock(self.fd, FlockOperation::Unlock);
    }
}
