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

use super::clock::{Clock, Nanos, SystemClock};
use super::dir::CacheDir;
use super::error::{CacheError, IoOp, KeyProblem, Result};
use super::fsx;
use super::key::Key;
use super::ledger::{self, IndexRec, Ledger, LedgerRead, State};
use super::limits::Limits;
use super::manifest::{self, Manifest, OwnMeta};

/// Steps of a commit, reported to a [`FaultHook`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitStep {
    /// The binary is in a temporary file.
    BinWritten,
    /// The binary has its final (unreferenced) name.
    BinRenamed,
    /// The manifest is in a temporary file.
    ManifestWritten,
    /// The manifest is renamed: the entry is visible.
    Committed,
    /// A gc pass unlinked an entry's manifest and not yet its files (the entry is gone;
    /// a crash here leaves its binary behind, unreferenced).
    Evicting,
}

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
pub struct Cache {
    pub(crate) dir: CacheDir,
    pub(crate) kc: OwnedFd,
    pub(crate) state: State,
    pub(crate) opts: OpenOptions,
    /// Invalidation epoch seen at open (or at the last [`Cache::refresh`]).
    epoch_ns: AtomicU64,
    /// Opened by [`Cache::open_read_only`]: every change is refused.
    read_only: bool,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// A found entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The manifest bytes.
    pub manifest: Vec<u8>,
    /// Each binary of the entry (one, or one per `jsonList` part), by file name.
    pub binaries: Vec<(String, Vec<u8>)>,
}

/// Why a lookup found nothing usable. Every case means "compile and put again".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No manifest.
    Absent,
    /// Committed before the last `force` or version change.
    Invalidated,
    /// The manifest or a file it names is unreadable, missing, a symlink or the wrong size:
    /// a foreign torn write, or an entry being aged right now.
    Unusable(String),
}

/// Result of [`Cache::get`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Hit(Entry),
    Miss(Miss),
}

/// Result of [`Cache::put`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PutOutcome {
    /// Bytes the new entry occupies.
    pub bytes: u64,
    /// The ledger total reached the limit: the caller may start aging (never required).
    pub over_limit: bool,
}

/// One of our own commits, as [`Cache::account_many`] records it.
pub(super) struct Accounted<'a> {
    /// The manifest, relative to `kernel_cache/`.
    pub rel: &'a str,
    pub rec: &'a IndexRec,
    /// Bytes of the entry it replaced, which leave the total.
    pub minus: u64,
    /// It replaced an entry (the count stays).
    pub replaced: bool,
}

static NONCE: AtomicU64 = AtomicU64::new(0);

fn io_err<'a>(op: IoOp, path: &'a Path) -> impl FnOnce(std::io::Error) -> CacheError + 'a {
    move |e| CacheError::io(op, path, e)
}

impl Cache {
    /// Opens the cache at `dir`, creating `kernel_cache/` and the state directory when needed.
    /// `kernel_cache` itself must not be a symlink; the base directory may be (it is the
    /// user's own path).
    pub fn open(dir: &CacheDir, opts: OpenOptions) -> Result<Cache> {
        std::fs::create_dir_all(&dir.base)
            .map_err(|e| CacheError::io(IoOp::CreateDirectory, &dir.base, e))?;
        let kc = open_kernel_cache(dir, true)?;
        let state = State::open(kc.as_fd())
            .map_err(|e| CacheError::io(IoOp::OpenStateIn, dir.kernel_cache(), e))?;
        let cache = Cache {
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
    pub fn open_read_only(dir: &CacheDir, opts: OpenOptions) -> Result<Cache> {
        let kc = open_kernel_cache(dir, false)?;
        let state = State::open_read_only(kc.as_fd())
            .map_err(|e| CacheError::io(IoOp::OpenStateIn, dir.kernel_cache(), e))?;
        let cache = Cache {
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
    pub fn is_read_only(&self) -> bool {
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
    pub fn dir(&self) -> &CacheDir {
        &self.dir
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.opts.limits
    }

    pub(crate) fn now(&self) -> Nanos {
        self.opts.clock.now()
    }

    /// The invalidation epoch this handle applies.
    pub fn epoch_ns(&self) -> Nanos {
        self.epoch_ns.load(Ordering::Relaxed) as Nanos
    }

    /// Re-reads the invalidation epoch, so a long-lived process adopts another process's
    /// `force`. Handles opened earlier keep serving old entries until they refresh: that is
    /// what keeps their readers working.
    pub fn refresh(&self) -> Result<()> {
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
    pub fn invalidate_all(&self) -> Result<Nanos> {
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

    pub(super) fn hook(&self, step: CommitStep) -> Result<()> {
        match &self.opts.fault_hook {
            Some(h) if !h(step) => Err(CacheError::Aborted(step)),
            _ => Ok(()),
        }
    }

    /// Stores `bin` under `key` as `<key>.json` + a binary with suffix `suffix` (CANN uses
    /// `.o`). `extra` fields are copied into the manifest. Concurrent puts of the same key are
    /// safe: the last manifest rename wins and the loser's binary becomes an orphan.
    pub fn put(
        &self,
        key: &str,
        bin: &[u8],
        suffix: &str,
        extra: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> Result<PutOutcome> {
        self.writable()?;
        let key = Key::parse(key)?;
        if !manifest::is_plain_name(suffix) && !suffix.is_empty() {
            return Err(CacheError::BadKey {
                key: suffix.to_owned(),
                why: KeyProblem::BadSuffix,
            });
        }
        let kcp = self.dir.kernel_cache();
        let dirs_before = self.dirs_snapshot();
        let dirfd = fsx::make_dirs(self.kc.as_fd(), &key.dir)
            .map_err(io_err(IoOp::CreateDirectoryIn, &kcp))?;
        let d = dirfd.as_fd();
        let now = self.now();
        let nonce = NONCE.fetch_add(1, Ordering::Relaxed);
        let bin_file_name = format!(
            "{}.{:x}{:x}{nonce:x}",
            key.stem,
            now as u64,
            std::process::id()
        );
        let bin_full = format!("{bin_file_name}{suffix}");
        let durable = self.opts.durable;

        let tmp = fsx::write_tmp(d, &bin_full, bin, durable)
            .map_err(io_err(IoOp::WriteBinaryIn, &kcp))?;
        self.hook(CommitStep::BinWritten)?;
        rustix::fs::renameat(d, tmp.as_str(), d, bin_full.as_str())
            .map_err(|e| CacheError::io(IoOp::RenameBinaryIn, &kcp, e.into()))?;
        self.hook(CommitStep::BinRenamed)?;

        // The entry being replaced, if any: its manifest bytes leave the ledger, its files
        // become orphans (still readable by anyone holding the old manifest).
        let old = read_small(d, &format!("{}{}", key.stem, manifest::MANIFEST_SUFFIX));
        let meta = OwnMeta {
            committed_ns: now,
            bin_size: bin.len() as u64,
        };
        let mbytes = manifest::own_manifest(&key.stem, &bin_file_name, suffix, meta, extra);
        let mname = format!("{}{}", key.stem, manifest::MANIFEST_SUFFIX);
        let commit = (|| -> Result<()> {
            let mtmp = fsx::write_tmp(d, &mname, &mbytes, durable)
                .map_err(io_err(IoOp::WriteManifestIn, &kcp))?;
            self.hook(CommitStep::ManifestWritten)?;
            rustix::fs::renameat(d, mtmp.as_str(), d, mname.as_str())
                .map_err(|e| CacheError::io(IoOp::CommitManifestIn, &kcp, e.into()))?;
            if durable {
                rustix::fs::fsync(d)
                    .map_err(|e| CacheError::io(IoOp::SyncDirectoryIn, &kcp, e.into()))?;
            }
            Ok(())
        })();
        if let Err(e) = commit {
            if !matches!(e, CacheError::Aborted(_)) {
                let _ = fsx::unlink_at(d, bin_full.as_ref());
            }
            return Err(e);
        }
        let dirs = self.dirs_span(&dirs_before, [key.dir.as_path()]);
        self.hook(CommitStep::Committed)?;
        if !self.opts.clock.is_system() {
            // Creation counts as an access; with an injected clock the kernel's creation
            // stamp would disagree with it, so stamp the injected time.
            if let Ok(fd) = fsx::open_beneath(d, Path::new(&mname), OFlags::RDONLY, Mode::empty()) {
                let _ = fsx::stamp_atime(fd.as_fd(), Some(now));
            }
        }

        // The entry being replaced: its manifest was just overwritten, so no manifest names
        // its files any more; they go now instead of lingering as orphans. A reader that read
        // the old manifest and finds its binary gone looks the key up again (see `get`).
        let mut replaced_bytes = 0u64;
        if let Some(old_bytes) = &old {
            replaced_bytes = old_bytes.len() as u64;
            if let Ok(m) = Manifest::parse(old_bytes) {
                replaced_bytes += super::entry::unlink_named(d, &m, &bin_full);
            }
        }
        let bytes = bin.len() as u64 + mbytes.len() as u64;
        let rec = IndexRec {
            committed_ns: now,
            access_ns: now,
            bytes,
            files: vec![bin_full],
            stamp: fsx::lstat_at(d, mname.as_ref())
                .map(|st| ledger::Stamp::of(&st))
                .unwrap_or_default(),
        };
        let total = self.account(&key.manifest_rel, &rec, replaced_bytes, old.is_some(), dirs)?;
        Ok(PutOutcome {
            bytes,
            over_limit: self.opts.limits.over_limit(total),
        })
    }

    /// The directories' time now (see [`super::dirtime`]); unreadable counts as "moved".
    /// Every listed directory's time now, before or after one of our changes.
    pub(crate) fn dirs_snapshot(&self) -> super::dirtime::Snapshot {
        super::dirtime::Snapshot::take(self.kc.as_fd(), self.state.read_dirs().as_deref())
    }

    /// The `(before, after)` pair [`Ledger::advance_dirs`] takes for a change to the
    /// directories `ours` between the snapshots: `before` reads "moved" when a directory we
    /// did not write moved meanwhile, so the record stays behind that foreign write.
    pub(crate) fn dirs_span<'a>(
        &self,
        before: &super::dirtime::Snapshot,
        ours: impl IntoIterator<Item = &'a Path> + Clone,
    ) -> (Nanos, Nanos) {
        let after = self.dirs_snapshot();
        if before.moved_elsewhere(&after, ours) {
            (Nanos::MAX, after.newest())
        } else {
            (before.newest(), after.newest())
        }
    }

    pub(crate) fn dirs_now(&self) -> Nanos {
        super::dirtime::newest(self.kc.as_fd(), self.state.read_dirs().as_deref())
    }

    pub(super) fn account(
        &self,
        rel: &str,
        rec: &IndexRec,
        minus: u64,
        replaced: bool,
        dirs: (Nanos, Nanos),
    ) -> Result<u64> {
        self.account_many(
            &[Accounted {
                rel,
                rec,
                minus,
                replaced,
            }],
            dirs,
        )
    }

    /// Accounts for several of our own commits made between two readings of the directories'
    /// time, under one lock: one ledger write and one index append for the lot.
    pub(super) fn account_many(&self, done: &[Accounted<'_>], dirs: (Nanos, Nanos)) -> Result<u64> {
        let guard = self
            .state
            .lock()
            .map_err(io_err(IoOp::LockLedgerIn, &self.dir.base))?;
        // A missing or damaged ledger stays marked unreconciled (reconciled_ns = 0), so the
        // start-up check keeps reporting "unknown" until a gc has rebuilt it.
        let mut l = self.read_ledger()?.unwrap_or_default();
        // Directories these commits created join the list, so writes into them are seen.
        let mut dirs = dirs;
        if let Some(mut listed) = self.state.read_dirs() {
            let mut add_all = Vec::new();
            let mut seen = std::collections::BTreeSet::new();
            for a in done {
                let dir_rel = a.rel.rsplit_once('/').map_or("", |p| p.0);
                if !seen.insert(dir_rel) {
                    continue;
                }
                let (t, add) =
                    super::dirtime::unlisted(self.kc.as_fd(), &listed, Path::new(dir_rel));
                if !add.is_empty() {
                    dirs.1 = dirs.1.max(t);
                    listed.extend(add.iter().cloned());
                    add_all.extend(add);
                }
            }
            if !add_all.is_empty() {
                self.state
                    .append_dirs(&guard, &add_all)
                    .map_err(io_err(IoOp::RecordDirectoriesIn, &self.dir.base))?;
                // The list lives where CANN's ager counts it, like the index.
                let listed: usize = add_all.iter().map(|d| d.len() + 1).sum();
                l.total_bytes = l.total_bytes.saturating_add(listed as u64);
            }
        }
        l.advance_dirs(dirs);
        let mut lines = String::new();
        for a in done {
            l.total_bytes = l
                .total_bytes
                .saturating_add(a.rec.bytes)
                .saturating_sub(a.minus);
            if !a.replaced {
                l.entries += 1;
            }
            if ledger::indexable(a.rel) {
                lines.push_str(&ledger::put_line(a.rel, a.rec));
            }
        }
        if !lines.is_empty() {
            self.state
                .append_index(&guard, &lines)
                .map_err(io_err(IoOp::AppendIndexIn, &self.dir.base))?;
            // The index lives where CANN's ager counts it (see `State::bytes`).
            l.total_bytes = l.total_bytes.saturating_add(lines.len() as u64);
        }
        self.state
            .write_ledger(&guard, &l)
            .map_err(io_err(IoOp::WriteLedgerIn, &self.dir.base))?;
        Ok(l.total_bytes)
    }

    /// Looks `key` up. A hit reads the manifest and its binaries and stamps the manifest's
    /// access time (unless aging is off); everything else is a [`Miss`], never an error,
    /// except I/O failures other than "not found".
    pub fn get(&self, key: &str) -> Result<Lookup> {
        let key = Key::parse(key)?;
        let mut tries = 0;
        loop {
            let (found, ino) = self.get_once(&key)?;
            tries += 1;
            // A replacement committed between our manifest read and our binary read has
            // reclaimed the binary we were told about: the new manifest names the new one.
            let replaced = matches!(found, Lookup::Miss(Miss::Unusable(_)))
                && ino != 0
                && fsx::lstat_at(self.kc.as_fd(), key.manifest_rel.as_ref())
                    .is_ok_and(|st| st.st_ino != ino);
            if !replaced || tries == 3 {
                return Ok(found);
            }
        }
    }

    /// One lookup; also returns the inode of the manifest it read (0 when none).
    fn get_once(&self, key: &Key) -> Result<(Lookup, u64)> {
        let mfd = match fsx::open_read_noatime(self.kc.as_fd(), Path::new(&key.manifest_rel)) {
            Ok(fd) => fd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Lookup::Miss(Miss::Absent), 0))
            }
            Err(e) => return Ok((Lookup::Miss(Miss::Unusable(format!("manifest: {e}"))), 0)),
        };
        let ino = rustix::fs::fstat(&mfd).map_or(0, |st| st.st_ino);
        Ok((self.serve(key, &mfd)?, ino))
    }

    /// The hit path once the manifest is open.
    fn serve(&self, key: &Key, mfd: &OwnedFd) -> Result<Lookup> {
        let mbytes = match read_manifest(mfd, &key.manifest_rel) {
            Ok(b) => b,
            Err(e) => return Ok(Lookup::Miss(Miss::Unusable(format!("manifest: {e}")))),
        };
        let m = match Manifest::parse(&mbytes) {
            Ok(m) => m,
            Err(e) => return Ok(Lookup::Miss(Miss::Unusable(format!("{e:?}")))),
        };
        let epoch = self.epoch_ns();
        if epoch > 0 {
            let committed = match m.own {
                Some(o) => o.committed_ns,
                None => rustix::fs::fstat(mfd)
                    .map(|st| fsx::mtime_ns(&st))
                    .unwrap_or(0),
            };
            if committed < epoch {
                return Ok(Lookup::Miss(Miss::Invalidated));
            }
        }
        let mut binaries = Vec::with_capacity(1);
        let names = match (m.bin_name(), m.sub_manifests()) {
            (Ok(b), Ok(subs)) => (b, subs),
            (Err(e), _) | (_, Err(e)) => return Ok(Lookup::Miss(Miss::Unusable(format!("{e:?}")))),
        };
        if let Some(bin) = names.0 {
            match self.read_sibling(key, &bin, m.own.map(|o| o.bin_size)) {
                Ok(data) => binaries.push((bin, data)),
                Err(why) => return Ok(Lookup::Miss(Miss::Unusable(why))),
            }
        }
        for sub in names.1 {
            let part = match self
                .read_sibling(key, &sub, None)
                .and_then(|b| Manifest::parse(&b).map_err(|e| format!("{sub}: {e:?}")))
            {
                Ok(p) => p,
                Err(why) => return Ok(Lookup::Miss(Miss::Unusable(why))),
            };
            if let Ok(Some(bin)) = part.bin_name() {
                match self.read_sibling(key, &bin, None) {
                    Ok(data) => binaries.push((bin, data)),
                    Err(why) => return Ok(Lookup::Miss(Miss::Unusable(why))),
                }
            }
        }
        if self.opts.limits.aging_enabled() {
            let at = if self.opts.clock.is_system() {
                None
            } else {
                Some(self.now())
            };
            // Failure (a foreign file we may not stamp) only costs recency, never the hit.
            let _ = fsx::stamp_atime(mfd.as_fd(), at);
        }
        Ok(Lookup::Hit(Entry {
            manifest: mbytes,
            binaries,
        }))
    }

    fn read_sibling(
        &self,
        key: &Key,
        name: &str,
        expect: Option<u64>,
    ) -> std::result::Result<Vec<u8>, String> {
        let fd = fsx::open_read_noatime(self.kc.as_fd(), &key.sibling(name))
            .map_err(|e| format!("{name}: {e}"))?;
        // A regular file only (a FIFO would read as an empty kernel), never more than
        // the manifest says.
        let cap = cann_input::Limits::new(expect.unwrap_or(BINARY_MAX_BYTES));
        let file = fd.try_clone().map_err(|e| format!("{name}: {e}"))?;
        let data = cann_input::read_file(std::fs::File::from(file), Path::new(name), cap)
            .map_err(|e| e.to_string())?;
        match expect {
            Some(n) if n != data.len() as u64 => {
                Err(format!("{name}: {} bytes, manifest says {n}", data.len()))
            }
            _ => Ok(data),
        }
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
    let rel = Path::new(super::dir::KERNEL_CACHE);
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

/// Kernel binaries without a size in their manifest are read up to this.
const BINARY_MAX_BYTES: u64 = 4 * 1024 * 1024 * 1024;

/// Manifests are kilobytes; a larger one (or a FIFO, a device) is not a manifest.
const MANIFEST_LIMITS: cann_input::Limits = cann_input::Limits::new(64 * 1024 * 1024);

/// Reads an opened manifest through the input layer: a regular file, under a cap.
fn read_manifest(
    fd: &std::os::fd::OwnedFd,
    name: impl AsRef<Path>,
) -> std::result::Result<Vec<u8>, cann_input::InputError> {
    let path = name.as_ref();
    let file = fd
        .try_clone()
        .map_err(|source| cann_input::InputError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    cann_input::read_file(std::fs::File::from(file), path, MANIFEST_LIMITS)
}

/// Reads a small file in `dir` if it exists and is a regular file (not a symlink).
pub(crate) fn read_small(dir: std::os::fd::BorrowedFd<'_>, name: &str) -> Option<Vec<u8>> {
    let fd = fsx::open_read_noatime(dir, Path::new(name)).ok()?;
    read_manifest(&fd, name).ok()
}
