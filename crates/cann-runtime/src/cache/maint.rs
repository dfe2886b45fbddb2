//! Start-up check, `info`, `verify` and `clear`.

use std::collections::BTreeMap;
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::Arc;

use super::aging::{GcOptions, GcOutcome};
use super::clock::Nanos;
use super::error::{CacheError, IoOp, Result};
use super::fsx;
use super::ledger::{self, Ledger};
use super::lock;
use super::progress::Progress;
use super::scan::{self, Known, Loose};
use super::store::Cache;

/// Answer of the start-up check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AgingNeed {
    /// The total is below the limit, as counted at [`StartupCheck::counted_ns`] plus our
    /// own changes since (see [`StartupCheck::blind_to_rewrites`] for what it cannot see).
    No,
    /// The total reached the limit (as recorded, or as this check measured it).
    Yes,
    /// `-1`: aging is off.
    Off,
    /// The ledger is missing, damaged or was never reconciled, someone else created or
    /// removed files since it was (a directory is newer than the ledger's record), or its
    /// count is older than [`BLIND_BOUND`] in a cache too large to re-measure at start-up:
    /// a gc pass will find out.
    Unknown,
}

/// The start-up check: one read of the ledger and a `stat` of each listed directory, and in
/// a cache of at most [`SWEEP_MAX_FILES`] indexed files an `lstat` of each of them; no walk.
/// The work is bounded by constants, whatever the number of entries.
///
/// Exact limit: a file rewritten in place under the same name (CANN recompiling an entry)
/// moves no directory time. In a cache of at most [`SWEEP_MAX_FILES`] indexed files the
/// check sizes every one of them, so it sees such a rewrite. In a larger cache it cannot:
/// it then answers "no" only while its count is younger than [`BLIND_BOUND`], says so
/// ([`StartupCheck::blind_to_rewrites`]), and answers "unknown" after that, so a rewrite in
/// place is seen by the first start-up check at most [`BLIND_BOUND`] after the last count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct StartupCheck {
    pub need: AgingNeed,
    pub ledger: Option<Ledger>,
    /// A directory changed since the ledger last accounted for every file (a foreign write,
    /// or a pass that saw one): its totals are a lower bound of nothing, only a record.
    pub foreign_changes: bool,
    /// When the totals were last counted file by file (the last gc's reconcile).
    pub counted_ns: Option<Nanos>,
    /// How old that count was when the check ran.
    pub age_ns: Option<Nanos>,
    /// Files this check sized itself (0 when the cache is too large to, or it was not
    /// needed).
    pub files_checked: u64,
    /// The total as this check knows it: the ledger's, corrected by the sizes it measured.
    pub known_bytes: Option<u64>,
    /// True when a file rewritten in place since [`Self::counted_ns`] would not be seen:
    /// the cache is too large for the check to size every file.
    pub blind_to_rewrites: bool,
}

/// Up to this many indexed files (manifests and the files they name), the start-up check
/// `lstat`s every one (a few milliseconds), so a binary CANN rewrote in place is counted.
pub const SWEEP_MAX_FILES: u64 = 4096;

/// Beyond [`SWEEP_MAX_FILES`], how long a count stays good enough for a "no": a rewrite in
/// place after it is not seen, so once the count is older the check says "unknown" (and
/// [`Cache::age_in_background`] runs a pass).
pub const BLIND_BOUND: Nanos = 10 * super::clock::MINUTE;

/// Bytes of index read at most by the start-up check's sweep (about 120 bytes a line).
const SWEEP_MAX_INDEX_BYTES: u64 = SWEEP_MAX_FILES * 256;

/// Where `info`'s numbers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InfoSource {
    /// The ledger, exact as of the last reconcile; nothing was created or removed since.
    Ledger,
    /// The ledger for the directories nobody changed, and a walk of the ones whose times
    /// moved since the last reconcile (see [`super::changed`]).
    Changed,
    /// A walk of every directory (index records for entries it knows, new manifests read),
    /// because the ledger is unreconciled or the changed directories cannot be told apart.
    Walk,
}

/// A manifest that cannot be served, as `verify` reports it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TornEntry {
    pub rel: String,
    pub why: super::scan::TornWhy,
}

/// Output of `verify`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct VerifyReport {
    pub entries: u64,
    pub bytes: u64,
    /// Errors: entries whose manifest is unreadable or whose files are missing or wrong,
    /// still so when checked again after the walk.
    pub torn: Vec<TornEntry>,
    /// Warnings: such entries changed within [`VERIFY_GRACE`]: probably being written.
    pub in_progress: Vec<TornEntry>,
    /// Warnings: files no manifest references.
    pub orphans: Vec<String>,
    /// Warnings: manifests whose names are not UTF-8 (CANN may write them): counted with
    /// their files, never served or indexed by us, aged by CANN's own ager.
    pub raw_manifests: Vec<String>,
    /// Warnings: leftovers of interrupted commits.
    pub temporaries: Vec<String>,
    /// Warnings: symlinks and special files (never followed).
    pub foreign: Vec<(String, String)>,
    /// The ledger as recorded, and whether it matches what is on disk.
    pub ledger: Option<Ledger>,
    pub ledger_matches: bool,
}

impl VerifyReport {
    /// True when something is at error severity.
    pub fn has_errors(&self) -> bool {
        !self.torn.is_empty()
    }
}

/// Output of `info`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct InfoReport {
    pub bytes: u64,
    pub entries: u64,
    pub source: InfoSource,
    /// Access range of the entries (known after a walk only).
    pub oldest_access_ns: Option<Nanos>,
    pub newest_access_ns: Option<Nanos>,
    pub startup: StartupCheck,
    pub epoch_ns: Nanos,
    /// Directories whose names were read (0 from the ledger alone).
    pub dirs_listed: u64,
    /// Directories the walk could not open (no permission, say): their files are not in
    /// `bytes` or `entries`, which are then lower bounds.
    pub skipped_dirs: Vec<String>,
}

/// Output of `clear`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClearReport {
    pub files_removed: u64,
    pub bytes_removed: u64,
    pub links_removed: u64,
    pub dirs_removed: u64,
    /// Loose files younger than a minute, left for the put that is writing them.
    pub in_flight_kept: u64,
}

/// A manifest written this recently that does not parse, or names a missing file, may be
/// one CANN is writing in place right now: `verify` reports it as in progress, not torn.
pub const VERIFY_GRACE: Nanos = 60_000_000_000;

/// True when the manifest `rel` (or its directory) no longer exists.
fn vanished(kc: std::os::fd::BorrowedFd<'_>, rel: &str) -> bool {
    let (dir_rel, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let gone = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    match fsx::open_dir(kc, Path::new(dir_rel)) {
        Ok(fd) => fsx::lstat_at(fd.as_fd(), name.as_ref()).is_err_and(|e| gone(&e)),
        Err(e) => gone(&e),
    }
}

fn names(v: &[Loose]) -> Vec<String> {
    v.iter().map(|l| l.rel.clone()).collect()
}

impl Cache {
    /// Is aging needed? Cost does not depend on the number of entries (see [`StartupCheck`]
    /// for what it sees and the exact limit).
    pub fn startup_check(&self) -> Result<StartupCheck> {
        let ledger = self.read_ledger()?;
        // Unreadable directories cannot be vouched for.
        let newest = self.dirs_now();
        let foreign_changes =
            ledger.is_none_or(|l| l.dirs_mtime_ns == 0 || newest > l.dirs_mtime_ns);
        let counted_ns = ledger
            .filter(|l| l.reconciled_ns > 0)
            .map(|l| l.reconciled_ns);
        let age_ns = counted_ns.map(|t| self.now().saturating_sub(t).max(0));
        let mut check = StartupCheck {
            need: AgingNeed::Unknown,
            ledger,
            foreign_changes,
            counted_ns,
            age_ns,
            files_checked: 0,
            known_bytes: ledger.map(|l| l.total_bytes),
            blind_to_rewrites: true,
        };
        let limits = &self.opts.limits;
        check.need = match ledger {
            _ if !limits.aging_enabled() => AgingNeed::Off,
            Some(l) if l.reconciled_ns > 0 => {
                if limits.over_limit(l.total_bytes) {
                    AgingNeed::Yes
                } else if foreign_changes {
                    AgingNeed::Unknown
                } else if let Some((bytes, files)) = self.sweep(l.total_bytes) {
                    check.files_checked = files;
                    check.known_bytes = Some(bytes);
                    check.blind_to_rewrites = false;
                    if limits.over_limit(bytes) {
                        AgingNeed::Yes
                    } else {
                        AgingNeed::No
                    }
                } else if age_ns.is_some_and(|a| a > BLIND_BOUND) {
                    AgingNeed::Unknown
                } else {
                    AgingNeed::No
                }
            }
            _ => AgingNeed::Unknown,
        };
        Ok(check)
    }

    /// The ledger's total corrected by the sizes on disk now of every indexed file, and the
    /// number of files sized; `None` when the index is too large for the start-up check (or
    /// unreadable). A file missing now is counted at 0: its directory's time moved anyway.
    fn sweep(&self, ledger_bytes: u64) -> Option<(u64, u64)> {
        if self.state.index_len().ok()? > SWEEP_MAX_INDEX_BYTES {
            return None;
        }
        let text = self.state.read_index_from(0).ok()?;
        let mut known = BTreeMap::new();
        ledger::apply_index(&mut known, &text);
        let files: u64 = known.values().map(|r| 1 + r.files.len() as u64).sum();
        if files > SWEEP_MAX_FILES {
            return None;
        }
        let mut dirs: BTreeMap<&str, Option<std::os::fd::OwnedFd>> = BTreeMap::new();
        let mut total = ledger_bytes;
        for (rel, rec) in &known {
            let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
            let fd = dirs
                .entry(dir)
                .or_insert_with(|| fsx::open_dir(self.kc.as_fd(), Path::new(dir)).ok());
            let Some(fd) = fd else { continue };
            let mut now = 0;
            for f in std::iter::once(name).chain(rec.files.iter().map(String::as_str)) {
                if let Ok(st) = fsx::lstat_at(fd.as_fd(), f.as_ref()) {
                    if fsx::kind(&st) == rustix::fs::FileType::RegularFile {
                        now += fsx::size_of(&st);
                    }
                }
            }
            total = total.saturating_sub(rec.bytes).saturating_add(now);
        }
        Some((total, files))
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

    /// Marks a brand-new, empty cache as reconciled so its start-up check is exact from
    /// the first put. Looks at the top directory only: a populated directory without a
    /// ledger stays "unknown" until a gc reconciles it, rather than being walked at open.
    pub(crate) fn init_ledger_if_empty(&self) -> Result<()> {
        if self.read_ledger()?.is_some() {
            return Ok(());
        }
        let io =
            |e: std::io::Error| CacheError::io(IoOp::ReadDirectory, self.dir.kernel_cache(), e);
        // Taken before the listing: a file created after it moves a time past this one.
        let dirs_mtime_ns = super::dirtime::newest(self.kc.as_fd(), Some(&[]));
        let mut dir = rustix::fs::Dir::read_from(&self.kc).map_err(|e| io(e.into()))?;
        while let Some(ent) = dir.read() {
            let ent = ent.map_err(|e| io(e.into()))?;
            let name = ent.file_name().to_bytes();
            if ![
                b".".as_slice(),
                b"..",
                super::dir::STATE_DIR.as_bytes(),
                lock::CANN_LOCK.as_bytes(),
            ]
            .contains(&name)
            {
                return Ok(());
            }
        }
        let guard = self
            .state
            .lock()
            .map_err(|e| CacheError::io(IoOp::LockLedgerIn, &self.dir.base, e))?;
        if self.read_ledger()?.is_none() {
            // Nothing but bookkeeping: the list of directories is empty.
            self.state
                .replace_dirs(&guard, &[], self.opts.durable)
                .map_err(|e| CacheError::io(IoOp::RecordDirectoriesIn, &self.dir.base, e))?;
            let reconciled_ns = self.now().max(1);
            self.state
                .replace_state(
                    &guard,
                    super::changed::LOOSE,
                    &super::changed::encode(reconciled_ns, &[]),
                    self.opts.durable,
                )
                .map_err(|e| CacheError::io(IoOp::RecordLooseFilesIn, &self.dir.base, e))?;
            let l = Ledger {
                total_bytes: self.state.bytes(),
                reconciled_ns,
                dirs_mtime_ns,
                ..Ledger::default()
            };
            self.state
                .write_ledger(&guard, &l)
                .map_err(|e| CacheError::io(IoOp::WriteLedgerIn, &self.dir.base, e))?;
        }
        Ok(())
    }

    /// The start-up check's answer once `bytes` were counted just now: a count at or over
    /// the limit is knowledge, whatever the ledger recorded.
    pub(crate) fn counted(&self, mut startup: StartupCheck, bytes: u64) -> StartupCheck {
        if self.opts.limits.aging_enabled() && self.opts.limits.over_limit(bytes) {
            startup.need = AgingNeed::Yes;
            startup.known_bytes = Some(bytes);
        }
        startup
    }

    /// Full read-only check of every entry: each manifest opened (without moving its atime)
    /// and parsed, each named file sized.
    pub fn verify(&self, progress: &dyn Progress) -> Result<VerifyReport> {
        let ledger = self.read_ledger()?;
        if let Some(l) = ledger {
            progress.set_total(l.entries);
        }
        let mut sc = scan::walk(self.kc.as_fd(), &BTreeMap::new(), Known::Ignore, progress)
            .map_err(|e| CacheError::io(IoOp::Scan, self.dir.kernel_cache(), e))?;
        let recent = super::clock::system_now() - VERIFY_GRACE;
        let mut torn = Vec::new();
        let mut in_progress = Vec::new();
        for t in std::mem::take(&mut sc.torn) {
            // Checked again: a writer may have finished since the walk saw it.
            let t = match scan::reinspect(self.kc.as_fd(), &t.loose.rel) {
                Ok(rec) => {
                    sc.entries.insert(t.loose.rel.clone(), rec);
                    continue;
                }
                Err(again) => again,
            };
            // Gone since the walk listed it (an ager deleting it, manifest first): not torn.
            if vanished(self.kc.as_fd(), &t.loose.rel) {
                continue;
            }
            let e = TornEntry {
                rel: t.loose.rel.clone(),
                why: t.why.clone(),
            };
            // Written recently (mtime: a writer moves it, an access stamp does not).
            let (dir_rel, name) = t.loose.rel.rsplit_once('/').unwrap_or(("", &t.loose.rel));
            let written = fsx::open_dir(self.kc.as_fd(), Path::new(dir_rel))
                .and_then(|fd| fsx::lstat_at(fd.as_fd(), name.as_ref()))
                .map_or(0, |st| fsx::mtime_ns(&st));
            if written >= recent && !t.special {
                in_progress.push(e);
            } else {
                torn.push(e);
            }
            sc.torn.push(t);
        }
        let bytes = sc.total_bytes() + self.state.bytes();
        let entries = sc.entries.len() as u64;
        let mut orphans = names(&sc.orphans);
        orphans.extend(
            sc.raw
                .iter()
                .filter(|f| f.is_orphan())
                .map(scan::RawFile::shown),
        );
        let raw_manifests: Vec<String> = sc
            .raw
            .iter()
            .filter(|f| f.manifest)
            .map(scan::RawFile::shown)
            .collect();
        Ok(VerifyReport {
            entries,
            bytes,
            torn,
            in_progress,
            orphans,
            raw_manifests,
            temporaries: names(&sc.temps),
            foreign: sc
                .foreign
                .iter()
                .map(|(p, k)| (p.clone(), (*k).to_owned()))
                .collect(),
            ledger,
            ledger_matches: ledger.is_some_and(|l| l.total_bytes == bytes && l.entries == entries),
        })
    }

    /// Size and entry count: from the ledger when no directory changed since it was
    /// reconciled (cost independent of the cache's size), else from a walk that takes the
    /// index's word for the entries it knows and reads only the new ones.
    pub fn info(&self, progress: &dyn Progress) -> Result<InfoReport> {
        let startup = self.startup_check()?;
        let epoch_ns = startup.ledger.map_or(0, |l| l.epoch_ns);
        match startup.ledger {
            Some(l) if l.reconciled_ns > 0 && !startup.foreign_changes => {
                return Ok(InfoReport {
                    bytes: l.total_bytes,
                    entries: l.entries,
                    source: InfoSource::Ledger,
                    oldest_access_ns: None,
                    newest_access_ns: None,
                    startup,
                    epoch_ns,
                    dirs_listed: 0,
                    skipped_dirs: Vec::new(),
                })
            }
            Some(l) => {
                if let Some(r) = self.info_changed(&l, startup, progress)? {
                    return Ok(r);
                }
                progress.set_total(l.entries)
            }
            None => {}
        }
        let mut known = BTreeMap::new();
        // An unreadable index only costs speed: every manifest is read instead.
        if let Ok(text) = self.state.read_index_from(0) {
            ledger::apply_index(&mut known, &text);
        }
        let sc = scan::walk(self.kc.as_fd(), &known, Known::Trust, progress)
            .map_err(|e| CacheError::io(IoOp::Scan, self.dir.kernel_cache(), e))?;
        let bytes = sc.total_bytes() + self.state.bytes();
        Ok(InfoReport {
            bytes,
            entries: sc.entries.len() as u64,
            source: InfoSource::Walk,
            oldest_access_ns: sc.entries.values().map(|r| r.access_ns).min(),
            newest_access_ns: sc.entries.values().map(|r| r.access_ns).max(),
            startup: self.counted(startup, bytes),
            epoch_ns,
            dirs_listed: sc.dirs.len() as u64,
            skipped_dirs: sc.unreadable_dirs(),
        })
    }

    /// Removes every entry and loose file, unlinks symlinks without following them, removes
    /// emptied directories and resets the ledger and index. Fails (without deleting) when
    /// another process is aging.
    pub fn clear(&self, progress: &dyn Progress) -> Result<ClearReport> {
        let base = &self.dir.base;
        let Some(_locks) = lock::try_ager_locks(self.state_dir()?, self.kc.as_fd())
            .map_err(|e| CacheError::io(IoOp::LockGcIn, base, e))?
        else {
            return Err(CacheError::Busy(base.clone()));
        };
        let mut sc = scan::walk(self.kc.as_fd(), &BTreeMap::new(), Known::Ignore, progress)
            .map_err(|e| CacheError::io(IoOp::Scan, self.dir.kernel_cache(), e))?;
        let mut rep = ClearReport::default();
        let mut files: Vec<(String, u64)> = Vec::new();
        for (rel, rec) in &sc.entries {
            files.push((rel.clone(), 0));
            let dir = rel.rsplit_once('/').map_or("", |p| p.0);
            files.extend(rec.files.iter().map(|f| {
                (
                    if dir.is_empty() {
                        f.clone()
                    } else {
                        format!("{dir}/{f}")
                    },
                    0,
                )
            }));
            rep.bytes_removed += rec.bytes;
        }
        for t in &sc.torn {
            files.push((t.loose.rel.clone(), t.loose.bytes));
            let dir = t.loose.rel.rsplit_once('/').map_or("", |p| p.0);
            files.extend(t.present.iter().map(|(f, b)| {
                (
                    if dir.is_empty() {
                        f.clone()
                    } else {
                        format!("{dir}/{f}")
                    },
                    *b,
                )
            }));
        }
        // A put in flight has written its binary (a temporary, then an unreferenced name)
        // and not yet renamed its manifest: removing that binary now would leave the entry
        // torn when the manifest lands. Young loose files are kept; gc takes them once they
        // are old, if no manifest ever claimed them.
        let in_flight_from = super::clock::system_now() - super::limits::IN_FLIGHT;
        for l in sc.orphans.iter().chain(&sc.temps) {
            if l.changed_ns >= in_flight_from {
                rep.in_flight_kept += 1;
            } else {
                files.push((l.rel.clone(), l.bytes));
            }
        }
        for (rel, bytes) in files {
            if self.unlink_rel(&rel)? {
                rep.files_removed += 1;
                rep.bytes_removed += bytes;
                sc.seen.remove(&rel);
            }
        }
        for f in &sc.raw {
            let Ok(dfd) = fsx::open_dir(self.kc.as_fd(), Path::new(&f.dir)) else {
                continue;
            };
            let name = std::os::unix::ffi::OsStrExt::from_bytes(f.name.as_slice());
            if fsx::unlink_at(dfd.as_fd(), name).unwrap_or(false) {
                rep.files_removed += 1;
                rep.bytes_removed += f.bytes;
                sc.seen.remove(&f.shown());
            }
        }
        for (rel, _) in &sc.foreign {
            // lstat says what it is; unlinkat never follows, so a link to a directory
            // elsewhere loses only the link. Real directories are left to rmdir below.
            if self.unlink_rel(rel).unwrap_or(false) {
                rep.links_removed += 1;
                sc.seen.remove(rel);
            }
        }
        let mut dirs: Vec<&String> = sc.dirs.iter().filter(|d| !d.is_empty()).collect();
        dirs.sort_by_key(|d| std::cmp::Reverse(d.matches('/').count()));
        for d in dirs {
            let (parent, name) = d.rsplit_once('/').unwrap_or(("", d));
            if let Ok(pfd) = fsx::open_dir(self.kc.as_fd(), Path::new(parent)) {
                if fsx::rmdir_at(pfd.as_fd(), name.as_ref()).unwrap_or(false) {
                    rep.dirs_removed += 1;
                    sc.seen.remove(d.as_str());
                }
            }
        }
        let guard = self
            .state
            .lock()
            .map_err(|e| CacheError::io(IoOp::LockLedgerIn, base, e))?;
        self.state
            .replace_index(&guard, b"", self.opts.durable)
            .map_err(|e| CacheError::io(IoOp::RewriteIndexIn, base, e))?;
        let epoch = self.read_ledger()?.map_or(0, |l| l.epoch_ns);
        // What is left (a put racing the clear, a file we could not remove) is unaccounted:
        // the directory time is then not recorded and the start-up check says "unknown".
        let settled = super::dirtime::settle(self.kc.as_fd(), &sc.seen).ok();
        let dirs_mtime_ns = settled
            .as_ref()
            .map(|s| s.mtime_ns)
            .filter(|_| sc.seen.iter().all(|p| sc.dirs.contains(p)))
            .unwrap_or(0);
        if let Some(s) = &settled {
            self.state
                .replace_dirs(&guard, &s.dirs, self.opts.durable)
                .map_err(|e| CacheError::io(IoOp::RecordDirectoriesIn, base, e))?;
        }
        let reconciled_ns = self.now().max(1);
        // Nothing loose is accounted: what is left leaves the directory time unrecorded.
        self.state
            .replace_state(
                &guard,
                super::changed::LOOSE,
                &super::changed::encode(reconciled_ns, &[]),
                self.opts.durable,
            )
            .map_err(|e| CacheError::io(IoOp::RecordLooseFilesIn, base, e))?;
        let l = Ledger {
            total_bytes: self.state.bytes(),
            entries: 0,
            epoch_ns: epoch,
            reconciled_ns,
            dirs_mtime_ns,
        };
        self.state
            .write_ledger(&guard, &l)
            .map_err(|e| CacheError::io(IoOp::WriteLedgerIn, base, e))?;
        Ok(rep)
    }

    fn unlink_rel(&self, rel: &str) -> Result<bool> {
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        let fd = match fsx::open_dir(self.kc.as_fd(), Path::new(dir)) {
            Ok(fd) => fd,
            Err(_) => return Ok(false),
        };
        fsx::unlink_at(fd.as_fd(), name.as_ref())
            .map_err(|e| CacheError::io(IoOp::Remove, self.dir.kernel_cache().join(rel), e))
    }

    /// Removes one entry (manifest first, then its files) and accounts for it.
    pub fn remove(&self, key: &str) -> Result<bool> {
        self.writable()?;
        let key = super::key::Key::parse(key)?;
        let dirfd = match fsx::open_dir(self.kc.as_fd(), &key.dir) {
            Ok(fd) => fd,
            Err(_) => return Ok(false),
        };
        let mname = format!("{}{}", key.stem, super::manifest::MANIFEST_SUFFIX);
        let Some(text) = super::store::read_small(dirfd.as_fd(), &mname) else {
            return Ok(false);
        };
        let kcp = self.dir.kernel_cache();
        let dirs_before = self.dirs_snapshot();
        if !fsx::unlink_at(dirfd.as_fd(), mname.as_ref())
            .map_err(|e| CacheError::io(IoOp::Remove, &kcp, e))?
        {
            return Ok(false);
        }
        let mut freed = text.len() as u64;
        if let Ok(m) = super::manifest::Manifest::parse(&text) {
            freed += super::entry::unlink_named(dirfd.as_fd(), &m, "");
        }
        let dirs = self.dirs_span(&dirs_before, [key.dir.as_path()]);
        let guard = self
            .state
            .lock()
            .map_err(|e| CacheError::io(IoOp::LockLedgerIn, &self.dir.base, e))?;
        let mut l = self.read_ledger()?.unwrap_or_default();
        l.advance_dirs(dirs);
        l.total_bytes = l.total_bytes.saturating_sub(freed);
        l.entries = l.entries.saturating_sub(1);
        let line = ledger::del_line(&key.manifest_rel);
        self.state
            .append_index(&guard, &line)
            .map_err(|e| CacheError::io(IoOp::AppendIndexIn, &self.dir.base, e))?;
        l.total_bytes = l.total_bytes.saturating_add(line.len() as u64);
        self.state
            .write_ledger(&guard, &l)
            .map_err(|e| CacheError::io(IoOp::WriteLedgerIn, &self.dir.base, e))?;
        Ok(true)
    }
}
