//! Opening a cache, and the two hot operations: `put` (atomic commit) and `get` (hit path).
//!
//! Commit order: binary to a temporary name, rename to a name unique to this put; manifest to
//! a temporary name, rename over `<stem>.json` (the commit point); then the ledger and index.
//! A crash before the manifest rename leaves only temporaries and an unreferenced binary,
//! which readers never see and gc removes after the grace period. Because every put writes a
//! fresh binary name, a reader holding the old manifest still finds the old binary: a
//! replacement, `force` or a version change never pulls a file from under a reader.

use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rustix::fs::{Mode, OFlags};

use crate::cache::error::CommitStep;
use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::settings::dir::CacheDir;
use crate::cache::settings::limits::Limits;
use crate::cache::state::dirtime;
use crate::cache::state::files::{Reconciled, State};
use crate::cache::state::ledger::{Ledger, LedgerRead};
use crate::cache::state::names;
use crate::cache::sys::clock::{Clock, Nanos, SystemClock};
use crate::cache::sys::fsx;
use crate::cache::sys::lock;

/// Called at each [`CommitStep`]; returning `false` stops the put right there, leaving the
/// files as a crash would. Tests use it to inject faults.
pub type FaultHook = Arc<dyn Fn(CommitStep) -> bool + Send + Sync>;

/// How to open a cache.
#[derive(Clone)]
pub struct OpenOptions {
    /// Limits in force (see [`Limits::resolve`]).
    pub limits: Limits,
    /// Time source.
    pub clock: Arc<dyn Clock>,
    /// `fsync` files and directories on commit (on by default; benches may turn it off).
    pub durable: bool,
    /// Fault injection for tests.
    pub fault_hook: Option<FaultHook>,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            limits: Limits::defaults(),
            clock: Arc::new(SystemClock),
            durable: true,
            fault_hook: None,
        }
    }
}

impl std::fmt::Debug for OpenOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenOptions")
            .field("limits", &self.limits)
            .field("durable", &self.durable)
            .finish_non_exhaustive()
    }
}

/// An open cache directory.
pub struct Core {
    pub(crate) dir: CacheDir,
    pub(crate) kc: OwnedFd,
    pub(crate) state: State,
    pub(crate) opts: OpenOptions,
    /// Invalidation epoch seen at open (or at the last [`Cache::refresh`]).
    epoch_ns: AtomicU64,
    /// Opened by [`Cache::open_read_only`]: every change is refused.
    read_only: bool,
}

impl std::fmt::Debug for Core {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

pub(crate) fn io_err<'a>(
    op: IoOp,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> CacheError + 'a {
    move |e| CacheError::io(op, path, e)
}

impl Core {
    /// Opens the cache at `dir`, creating `kernel_cache/` and the state directory when needed.
    /// `kernel_cache` itself must not be a symlink; the base directory may be (it is the
    /// user's own path).
    pub(crate) fn open(dir: &CacheDir, opts: OpenOptions) -> Result<Core> {
        std::fs::create_dir_all(&dir.base)
            .map_err(|e| CacheError::io(IoOp::CreateDirectory, &dir.base, e))?;
        let kc = open_kernel_cache(dir, true)?;
        let state = State::open(kc.as_fd())
            .map_err(|e| CacheError::io(IoOp::OpenStateIn, dir.kernel_cache(), e))?;
        let cache = Core {
            dir: dir.clone(),
            kc,
            state,
            opts,
            epoch_ns: AtomicU64::new(0),
            read_only: false,
        };
        cache.init_ledger_if_empty()?;
        cache.refresh()?;
        Ok(cache)
    }

    /// Opens an existing cache for reading only: creates, locks and writes nothing, so it
    /// works for a group member without write permission and on a read-only mount. `get`,
    /// `info`, `verify` and `startup_check` work (a state file that cannot be read makes the
    /// answers "unknown"); `put`, `gc`, `clear`, `remove` and `invalidate_all` return
    /// [`CacheError::ReadOnly`]. A hit cannot stamp its access time there.
    pub(crate) fn open_read_only(dir: &CacheDir, opts: OpenOptions) -> Result<Core> {
        let kc = open_kernel_cache(dir, false)?;
        let state = State::open_read_only(kc.as_fd())
            .map_err(|e| CacheError::io(IoOp::OpenStateIn, dir.kernel_cache(), e))?;
        let cache = Core {
            dir: dir.clone(),
            kc,
            state,
            opts,
            epoch_ns: AtomicU64::new(0),
            read_only: true,
        };
        cache.refresh()?;
        Ok(cache)
    }

    /// True for a handle from [`Cache::open_read_only`].
    pub(crate) fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// Refuses a change on a read-only handle.
    pub(crate) fn writable(&self) -> Result<()> {
        if self.read_only {
            Err(CacheError::ReadOnly(self.dir.base.clone()))
        } else {
            Ok(())
        }
    }

    /// The state directory, where the locks live; a read-only handle has none to lock.
    pub(crate) fn state_dir(&self) -> Result<std::os::fd::BorrowedFd<'_>> {
        self.writable()?;
        self.state
            .dir()
            .map_err(|e| CacheError::io(IoOp::OpenStateIn, self.dir.kernel_cache(), e))
    }

    /// The directory this cache lives in.
    pub(crate) fn dir(&self) -> &CacheDir {
        &self.dir
    }

    /// The limits in force.
    pub(crate) fn limits(&self) -> &Limits {
        &self.opts.limits
    }

    pub(crate) fn now(&self) -> Nanos {
        self.opts.clock.now()
    }

    /// The invalidation epoch this handle applies.
    pub(crate) fn epoch_ns(&self) -> Nanos {
        self.epoch_ns.load(Ordering::Relaxed) as Nanos
    }

    /// Re-reads the invalidation epoch, so a long-lived process adopts another process's
    /// `force`. Handles opened earlier keep serving old entries until they refresh: that is
    /// what keeps their readers working.
    pub(crate) fn refresh(&self) -> Result<()> {
        let l = self.read_ledger()?;
        self.epoch_ns
            .store(l.map_or(0, |l| l.epoch_ns) as u64, Ordering::Relaxed);
        Ok(())
    }

    pub(crate) fn read_ledger(&self) -> Result<Option<Ledger>> {
        match self
            .state
            .read_ledger()
            .map_err(io_err(IoOp::ReadLedgerIn, &self.dir.base))?
        {
            LedgerRead::Valid(l) => Ok(Some(l)),
            LedgerRead::Missing | LedgerRead::Corrupt => Ok(None),
        }
    }

    /// Invalidates every entry committed before now, for all processes that open (or
    /// refresh) after this call. Nothing is deleted here: old entries stay readable for
    /// handles that still use them and are removed by gc once unused for the aging floor.
    pub(crate) fn invalidate_all(&self) -> Result<Nanos> {
        self.writable()?;
        let now = self.now();
        let guard = self
            .state
            .lock()
            .map_err(io_err(IoOp::LockLedgerIn, &self.dir.base))?;
        let mut l = self.read_ledger()?.unwrap_or_default();
        l.epoch_ns = l.epoch_ns.max(now);
        self.state
            .write_ledger(&guard, &l)
            .map_err(io_err(IoOp::WriteLedgerIn, &self.dir.base))?;
        drop(guard);
        self.epoch_ns.store(l.epoch_ns as u64, Ordering::Relaxed);
        Ok(l.epoch_ns)
    }

    pub(crate) fn hook(&self, step: CommitStep) -> Result<()> {
        match &self.opts.fault_hook {
            Some(h) if !h(step) => Err(CacheError::Aborted(step)),
            _ => Ok(()),
        }
    }

    /// The directories' time now (see [`crate::cache::state::dirtime`]); unreadable counts as "moved".
    /// Every listed directory's time now, before or after one of our changes.
    pub(crate) fn dirs_snapshot(&self) -> crate::cache::state::dirtime::Snapshot {
        crate::cache::state::dirtime::Snapshot::take(
            self.kc.as_fd(),
            self.state.read_dirs().as_deref(),
        )
    }

    /// The `(before, after)` pair [`Ledger::advance_dirs`] takes for a change to the
    /// directories `ours` between the snapshots: `before` reads "moved" when a directory we
    /// did not write moved meanwhile, so the record stays behind that foreign write.
    pub(crate) fn dirs_span<'a>(
        &self,
        before: &crate::cache::state::dirtime::Snapshot,
        ours: impl IntoIterator<Item = &'a Path> + Clone,
    ) -> (Nanos, Nanos) {
        let after = self.dirs_snapshot();
        if before.moved_elsewhere(&after, ours) {
            (Nanos::MAX, after.newest())
        } else {
            (before.newest(), after.newest())
        }
    }

    /// Both locks of a deleting pass, ours then CANN's; `None` when another ager holds
    /// either (skip, don't wait).
    pub(crate) fn ager_locks(&self) -> Result<Option<lock::AgerLocks>> {
        lock::try_ager_locks(
            (self.state_dir()?, names::GC_LOCK),
            (self.kc.as_fd(), names::CANN_LOCK),
        )
        .map_err(io_err(IoOp::LockGcIn, &self.dir.base))
    }

    /// Marks a brand-new, empty cache as reconciled so its start-up check is exact from
    /// the first put. Looks at the top directory only: a populated directory without a
    /// ledger stays "unknown" until a gc reconciles it, rather than being walked at open.
    fn init_ledger_if_empty(&self) -> Result<()> {
        if self.read_ledger()?.is_some() {
            return Ok(());
        }
        let io =
            |e: std::io::Error| CacheError::io(IoOp::ReadDirectory, self.dir.kernel_cache(), e);
        // Taken before the listing: a file created after it moves a time past this one.
        let dirs_mtime_ns = dirtime::newest(self.kc.as_fd(), Some(&[]));
        let mut dir = rustix::fs::Dir::read_from(&self.kc).map_err(|e| io(e.into()))?;
        while let Some(ent) = dir.read() {
            let ent = ent.map_err(|e| io(e.into()))?;
            let name = ent.file_name().to_bytes();
            if name != b"." && name != b".." && !names::is_bookkeeping("", name) {
                return Ok(());
            }
        }
        let guard = self
            .state
            .lock()
            .map_err(io_err(IoOp::LockLedgerIn, &self.dir.base))?;
        if self.read_ledger()?.is_none() {
            // Nothing but bookkeeping: no entry, no loose file, no directory.
            let empty = Reconciled::empty(Some(&[]), dirs_mtime_ns, self.now());
            self.state
                .reconcile(&guard, empty, self.opts.durable, &self.dir.base)?;
        }
        Ok(())
    }

    pub(crate) fn dirs_now(&self) -> Nanos {
        crate::cache::state::dirtime::newest(self.kc.as_fd(), self.state.read_dirs().as_deref())
    }
}

/// Opens `kernel_cache/` under the base directory (creating it when `create`), refusing a
/// symlink in its place; the base itself may be one (it is the user's own path).
fn open_kernel_cache(dir: &CacheDir, create: bool) -> Result<OwnedFd> {
    let base = rustix::fs::open(
        &dir.base,
        OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| CacheError::io(IoOp::Open, &dir.base, e.into()))?;
    let rel = Path::new(crate::cache::settings::dir::KERNEL_CACHE);
    let opened = if create {
        fsx::make_dirs(base.as_fd(), rel)
    } else {
        fsx::open_dir(base.as_fd(), rel)
    };
    opened.map_err(|e| {
        if std::fs::symlink_metadata(dir.kernel_cache()).is_ok_and(|m| m.file_type().is_symlink()) {
            CacheError::Symlink(dir.kernel_cache())
        } else if create {
            CacheError::io(IoOp::CreateDirectory, dir.kernel_cache(), e)
        } else {
            CacheError::io(IoOp::Open, dir.kernel_cache(), e)
        }
    })
}
