//! The façade: [`Cache`], the one type callers hold. Each method is one call into an
//! operation (`ops`); the façade holds no logic of its own beyond composing two of them
//! ([`Cache::age_in_background`]). Operations never call back up into it.

use std::sync::Arc;

use crate::cache::error::Result;
use crate::cache::ops::clear::ClearReport;
use crate::cache::ops::core::{Core, OpenOptions};
use crate::cache::ops::export::{ExactCommit, ExactEntry, LiveEntry};
use crate::cache::ops::gc::{GcOptions, GcOutcome};
use crate::cache::ops::get::Lookup;
use crate::cache::ops::info::InfoReport;
use crate::cache::ops::put::PutOutcome;
use crate::cache::ops::startup::{AgingNeed, StartupCheck};
use crate::cache::ops::verify::VerifyReport;
use crate::cache::settings::dir::CacheDir;
use crate::cache::settings::limits::Limits;
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::progress::Progress;

/// An open cache directory.
pub struct Cache {
    core: Core,
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache")
            .field("dir", self.core.dir())
            .finish_non_exhaustive()
    }
}

impl Cache {
    /// Opens the cache at `dir`, creating `kernel_cache/` and the state directory when needed.
    /// `kernel_cache` itself must not be a symlink; the base directory may be (it is the
    /// user's own path).
    pub fn open(dir: &CacheDir, opts: OpenOptions) -> Result<Cache> {
        Ok(Cache {
            core: Core::open(dir, opts)?,
        })
    }

    /// Opens an existing cache for reading only: creates, locks and writes nothing, so it
    /// works for a group member without write permission and on a read-only mount. `get`,
    /// `info`, `verify` and `startup_check` work (a state file that cannot be read makes the
    /// answers "unknown"); `put`, `gc`, `clear`, `remove` and `invalidate_all` return
    /// [`CacheError::ReadOnly`](crate::cache::CacheError::ReadOnly). A hit cannot stamp its access time there.
    pub fn open_read_only(dir: &CacheDir, opts: OpenOptions) -> Result<Cache> {
        Ok(Cache {
            core: Core::open_read_only(dir, opts)?,
        })
    }

    /// True for a handle from [`Cache::open_read_only`].
    pub fn is_read_only(&self) -> bool {
        self.core.is_read_only()
    }

    /// The directory this cache lives in.
    pub fn dir(&self) -> &CacheDir {
        self.core.dir()
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        self.core.limits()
    }

    /// The invalidation epoch this handle applies.
    pub fn epoch_ns(&self) -> Nanos {
        self.core.epoch_ns()
    }

    /// Re-reads the invalidation epoch, so a long-lived process adopts another process's
    /// `force`. Handles opened earlier keep serving old entries until they refresh: that is
    /// what keeps their readers working.
    pub fn refresh(&self) -> Result<()> {
        self.core.refresh()
    }

    /// Invalidates every entry committed before now, for all processes that open (or
    /// refresh) after this call. Nothing is deleted here: old entries stay readable for
    /// handles that still use them and are removed by gc once unused for the aging floor.
    pub fn invalidate_all(&self) -> Result<Nanos> {
        self.core.invalidate_all()
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
        self.core.put(key, bin, suffix, extra)
    }

    /// Looks `key` up. A hit reads the manifest and its binaries and stamps the manifest's
    /// access time (unless aging is off); everything else is a [`Miss`](crate::cache::Miss), never an error,
    /// except I/O failures other than "not found".
    pub fn get(&self, key: &str) -> Result<Lookup> {
        self.core.get(key)
    }

    /// Is aging needed? Cost does not depend on the number of entries (see [`StartupCheck`]
    /// for what it sees and the exact limit).
    pub fn startup_check(&self) -> Result<StartupCheck> {
        self.core.startup_check()
    }

    /// Size and entry count: from the ledger when no directory changed since it was
    /// reconciled (cost independent of the cache's size), else from a walk that takes the
    /// index's word for the entries it knows and reads only the new ones.
    pub fn info(&self, progress: &dyn Progress) -> Result<InfoReport> {
        self.core.info(progress)
    }

    /// Full read-only check of every entry: each manifest opened (without moving its atime)
    /// and parsed, each named file sized.
    pub fn verify(&self, progress: &dyn Progress) -> Result<VerifyReport> {
        self.core.verify(progress)
    }

    /// Removes every entry and loose file, unlinks symlinks without following them, removes
    /// emptied directories and resets the ledger and index. Fails (without deleting) when
    /// another process is aging.
    pub fn clear(&self, progress: &dyn Progress) -> Result<ClearReport> {
        self.core.clear(progress)
    }

    /// Removes one entry (manifest first, then its files) and accounts for it.
    pub fn remove(&self, key: &str) -> Result<bool> {
        self.core.remove(key)
    }

    /// Runs one gc pass (see the module docs). Never waits for another ager.
    pub fn gc(&self, opts: &GcOptions) -> Result<GcOutcome> {
        self.core.gc(opts)
    }

    /// [`Cache::gc`] reporting walk progress.
    pub fn gc_with_progress(&self, opts: &GcOptions, progress: &dyn Progress) -> Result<GcOutcome> {
        self.core.gc_with_progress(opts, progress)
    }

    /// Commits entries brought from elsewhere, each with exactly these names and bytes, with
    /// two flushes for the whole batch (see the module text). Per entry: each file to a
    /// temporary name and renamed into place, then the manifest renamed into place only if
    /// no manifest of its key exists (never replacing one, so a concurrent commit of the same
    /// key leaves one whole entry). A local entry that is stale (invalidated) or unusable is
    /// removed first, manifest before files; one that serves is never touched
    /// ([`ExactCommit::Present`]). The files must be exactly those the manifest names. Our
    /// own manifest's commit time becomes the local one (see [`manifest::restamp`](crate::cache::manifest::restamp)).
    ///
    /// The outer error is a failure of the batch (a flush, the ledger); an entry refused on
    /// its own (bad names, a write that failed) is an inner error, and the others still land.
    pub fn commit_exact_batch(
        &self,
        entries: &[(&str, &ExactEntry)],
    ) -> Result<Vec<Result<ExactCommit>>> {
        self.core.commit_exact_batch(entries)
    }

    /// Commits an entry brought from elsewhere with exactly these names and bytes: a batch
    /// of one (see [`Cache::commit_exact_batch`]).
    pub fn commit_exact(&self, key: &str, entry: &ExactEntry) -> Result<ExactCommit> {
        self.core.commit_exact(key, entry)
    }

    /// Every whole entry the current epoch serves (not torn, not invalidated by `force` or a
    /// toolkit version change), sorted by key. Reads manifests without moving access times.
    pub fn live_entries(&self, progress: &dyn Progress) -> Result<Vec<LiveEntry>> {
        self.core.live_entries(progress)
    }

    /// Reads `key`'s manifest and every file it names, without stamping any access time
    /// (a copy is not a use). `Ok(Err(why))` when the entry is absent or not whole now.
    pub fn read_exact(&self, key: &str) -> Result<std::result::Result<ExactEntry, String>> {
        self.core.read_exact(key)
    }

    /// The first `n` bytes of each binary `key`'s manifest names (not the whole files: what
    /// a shared tier needs to tell an entry's binary format before deciding to read it), in
    /// manifest order, without stamping any access time. `Ok(Err(why))` as [`Cache::read_exact`].
    pub fn read_heads(
        &self,
        key: &str,
        n: usize,
    ) -> Result<std::result::Result<Vec<Vec<u8>>, String>> {
        self.core.read_heads(key, n)
    }

    /// Runs the start-up check and, when aging is (or may be) needed, a gc pass on a
    /// background thread, so process start never waits for a pass.
    pub fn age_in_background(
        self: &Arc<Self>,
    ) -> Result<Option<std::thread::JoinHandle<Result<GcOutcome>>>> {
        let check = self.startup_check()?;
        if !matches!(check.need, AgingNeed::Yes | AgingNeed::Unknown) {
            return Ok(None);
        }
        let me = Arc::clone(self);
        Ok(Some(std::thread::spawn(move || {
            me.gc(&GcOptions::default())
        })))
    }
}
