//! Open handles on our state directory, [`super::names::STATE_DIR`], and every read and
//! write of its files: the ledger, the index, the directory list, the loose-file record.
//! One function, [`State::reconcile`], writes the whole after a pass has counted every file.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{Mode, OFlags};

use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::state::ledger::{Ledger, LedgerRead, LEN};
use crate::cache::state::loose;
use crate::cache::state::names::{DIRS, INDEX, LEDGER, LOOSE, STATE_DIR};
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx;
use crate::cache::sys::lock::LedgerGuard;

/// About 100 bytes a line: room for ten million entries. A larger index is not ours.
const INDEX_MAX_BYTES: u64 = 1 << 30;
/// A few dozen directories in practice; a million of them is not a cache layout.
const DIRS_MAX_BYTES: u64 = 64 << 20;

/// A state file must be a regular file: `open_beneath` already refused symlinks and does not
/// wait on a FIFO, this refuses the FIFO or device itself.
fn require_regular(fd: &OwnedFd) -> io::Result<()> {
    let st = rustix::fs::fstat(fd)?;
    if fsx::kind(&st) == rustix::fs::FileType::RegularFile {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a regular file (state files are; remove it and run `cannctl cache gc`)",
        ))
    }
}

/// Open handles on the state directory. A read-only handle may lack either (no permission,
/// never created): the ledger then reads as missing and the index as empty.
#[derive(Debug)]
pub struct State {
    dir: Option<OwnedFd>,
    ledger: Option<OwnedFd>,
}

fn read_only_err() -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        "the cache was opened read-only",
    )
}

impl State {
    /// Opens (creating when needed) `.cann-cache/` under the kernel_cache descriptor.
    pub fn open(kernel_cache: BorrowedFd<'_>) -> io::Result<State> {
        let dir = fsx::make_dirs(kernel_cache, Path::new(STATE_DIR))?;
        let ledger = fsx::open_beneath(
            dir.as_fd(),
            Path::new(LEDGER),
            OFlags::RDWR | OFlags::CREATE,
            fsx::FILE_MODE,
        )?;
        require_regular(&ledger)?;
        Ok(State {
            dir: Some(dir),
            ledger: Some(ledger),
        })
    }

    /// Opens what can be read, creating and locking nothing (`info`, `verify`: a group
    /// member without write permission, a read-only mount). A symlink, FIFO or device in
    /// place of a state file is still an error; what is missing or unreadable is absent.
    pub fn open_read_only(kernel_cache: BorrowedFd<'_>) -> io::Result<State> {
        let absent = |e: &io::Error| {
            matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
            )
        };
        let dir = match fsx::open_dir(kernel_cache, Path::new(STATE_DIR)) {
            Ok(d) => d,
            Err(e) if absent(&e) => {
                return Ok(State {
                    dir: None,
                    ledger: None,
                })
            }
            Err(e) => return Err(e),
        };
        let ledger = match fsx::open_beneath(
            dir.as_fd(),
            Path::new(LEDGER),
            OFlags::RDONLY,
            Mode::empty(),
        ) {
            Ok(l) => {
                require_regular(&l)?;
                Some(l)
            }
            Err(e) if absent(&e) => None,
            Err(e) => return Err(e),
        };
        Ok(State {
            dir: Some(dir),
            ledger,
        })
    }

    /// Bytes of our state directory: every regular file in it (the ledger, index, lists,
    /// lock, and a temporary a killed pass left). They sit inside `kernel_cache/`, where
    /// CANN's ager sums every regular file, so our totals count them too: both agers then
    /// measure the same cache and start aging at the same size. (About 100 bytes of index
    /// per entry, beside entries of a 350-byte manifest and a binary of kilobytes.) The
    /// ledger counts at its written length even before its first write.
    pub fn bytes(&self) -> u64 {
        let Some(dir) = &self.dir else {
            return 0;
        };
        let mut total = LEN as u64;
        for (name, st) in self.files(dir.as_fd()) {
            if name.as_bytes() != LEDGER.as_bytes() {
                total += fsx::size_of(&st);
            }
        }
        total
    }

    /// The regular files of the state directory with their `lstat`s (a handful).
    fn files(&self, dir: BorrowedFd<'_>) -> Vec<(std::ffi::CString, rustix::fs::Stat)> {
        let mut out = Vec::new();
        let Ok(fd) = fsx::open_dir(dir, Path::new("")) else {
            return out;
        };
        let Ok(mut list) = rustix::fs::Dir::read_from(&fd) else {
            return out;
        };
        while let Some(Ok(ent)) = list.read() {
            let name = ent.file_name();
            let os = std::os::unix::ffi::OsStrExt::from_bytes(name.to_bytes());
            if let Ok(st) = fsx::lstat_at(fd.as_fd(), os) {
                if fsx::kind(&st) == rustix::fs::FileType::RegularFile {
                    out.push((name.to_owned(), st));
                }
            }
        }
        out
    }

    /// Removes temporaries older than `before` that a killed writer of state files left
    /// (CANN's scan counts them; nothing else would ever remove them). Returns their bytes.
    pub fn remove_stale_temporaries(&self, _guard: &LedgerGuard<'_>, before: Nanos) -> u64 {
        let Some(dir) = &self.dir else {
            return 0;
        };
        let mut freed = 0;
        for (name, st) in self.files(dir.as_fd()) {
            let stale = fsx::mtime_ns(&st).max(fsx::ctime_ns(&st)) < before;
            if stale && name.as_bytes().starts_with(fsx::TMP_PREFIX.as_bytes()) {
                let os = std::os::unix::ffi::OsStrExt::from_bytes(name.to_bytes());
                if fsx::unlink_at(dir.as_fd(), os).unwrap_or(false) {
                    freed += fsx::size_of(&st);
                }
            }
        }
        freed
    }

    /// The state directory (for the locks kept there).
    pub fn dir(&self) -> io::Result<BorrowedFd<'_>> {
        self.dir.as_ref().map(AsFd::as_fd).ok_or_else(read_only_err)
    }

    /// Reads the ledger: one `pread` of 128 bytes.
    pub fn read_ledger(&self) -> io::Result<LedgerRead> {
        let Some(ledger) = &self.ledger else {
            return Ok(LedgerRead::Missing);
        };
        let mut buf = [0u8; LEN];
        let n = rustix::io::pread(ledger, &mut buf, 0)?;
        Ok(match n {
            0 => LedgerRead::Missing,
            LEN => Ledger::decode(&buf).map_or(LedgerRead::Corrupt, LedgerRead::Valid),
            _ => LedgerRead::Corrupt,
        })
    }

    /// Takes the ledger lock.
    pub fn lock(&self) -> io::Result<LedgerGuard<'_>> {
        LedgerGuard::acquire(self.ledger.as_ref().ok_or_else(read_only_err)?)
    }

    /// Overwrites the ledger (caller holds the lock). 128 bytes sit in one sector, so a crash
    /// leaves the old or the new record; the checksum catches anything else.
    pub fn write_ledger(&self, _guard: &LedgerGuard<'_>, l: &Ledger) -> io::Result<()> {
        let b = l.encode();
        let n = rustix::io::pwrite(self.ledger.as_ref().ok_or_else(read_only_err)?, &b, 0)?;
        if n != LEN {
            return Err(io::Error::from(io::ErrorKind::WriteZero));
        }
        Ok(())
    }

    /// Appends index lines (caller holds the lock, so a concurrent compaction cannot swap the
    /// file between our open and our write).
    pub fn append_index(&self, _guard: &LedgerGuard<'_>, text: &str) -> io::Result<()> {
        let fd = fsx::open_beneath(
            self.dir()?,
            Path::new(INDEX),
            OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE,
            fsx::FILE_MODE,
        )?;
        fsx::write_all(&fd, text.as_bytes())
    }

    /// The index's length in bytes (0 when missing or read-only without a state directory).
    pub fn index_len(&self) -> io::Result<u64> {
        let Some(dir) = &self.dir else {
            return Ok(0);
        };
        match fsx::lstat_at(dir.as_fd(), INDEX.as_ref()) {
            Ok(st) => Ok(fsx::size_of(&st)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(0),
            Err(e) => Err(e),
        }
    }

    /// Reads the index from byte `from` on; missing reads as empty.
    pub fn read_index_from(&self, from: u64) -> io::Result<Vec<u8>> {
        let Some(dir) = &self.dir else {
            return Ok(Vec::new());
        };
        let fd =
            match fsx::open_beneath(dir.as_fd(), Path::new(INDEX), OFlags::RDONLY, Mode::empty()) {
                Ok(fd) => fd,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
                Err(e) => return Err(e),
            };
        if from > 0 {
            rustix::fs::seek(&fd, rustix::fs::SeekFrom::Start(from))?;
        }
        let file = std::fs::File::from(fd);
        cann_input::read_file(
            file,
            Path::new(INDEX),
            cann_input::Limits::new(INDEX_MAX_BYTES),
        )
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
    }

    /// The directory list the start-up check compares (see [`crate::cache::state::dirtime`]); `None`
    /// when it is missing, unreadable or damaged (the check then answers "unknown").
    pub fn read_dirs(&self) -> Option<Vec<Vec<u8>>> {
        let dir = self.dir.as_ref()?;
        let fd =
            fsx::open_beneath(dir.as_fd(), Path::new(DIRS), OFlags::RDONLY, Mode::empty()).ok()?;
        let text = cann_input::read_file(
            std::fs::File::from(fd),
            Path::new(DIRS),
            cann_input::Limits::new(DIRS_MAX_BYTES),
        )
        .ok()?;
        crate::cache::state::dirtime::parse_list(&text)
    }

    /// The loose-file record (see [`loose`]): the pass that wrote it and the bytes by
    /// directory; `None` when missing, unreadable or not such a record.
    pub fn read_loose(&self) -> Option<(Nanos, std::collections::HashMap<String, u64>)> {
        let dir = self.dir.as_ref()?;
        let fd =
            fsx::open_beneath(dir.as_fd(), Path::new(LOOSE), OFlags::RDONLY, Mode::empty()).ok()?;
        let text = cann_input::read_file(
            std::fs::File::from(fd),
            Path::new(LOOSE),
            cann_input::Limits::new(loose::LOOSE_MAX_BYTES),
        )
        .ok()?;
        loose::parse(&text)
    }

    /// Replaces a state file (caller holds the lock).
    fn replace_state(
        &self,
        _guard: &LedgerGuard<'_>,
        name: &str,
        data: &[u8],
        durable: bool,
    ) -> io::Result<()> {
        fsx::replace_file(self.dir()?, name, data, durable)
    }

    /// Replaces the directory list (caller holds the lock).
    pub fn replace_dirs(
        &self,
        _guard: &LedgerGuard<'_>,
        dirs: &[Vec<u8>],
        durable: bool,
    ) -> io::Result<()> {
        fsx::replace_file(
            self.dir()?,
            DIRS,
            &crate::cache::state::dirtime::encode_list(dirs),
            durable,
        )
    }

    /// Adds directories to the list (caller holds the lock). Never creates it: a list
    /// started from nothing would lack the directories already there.
    pub fn append_dirs(&self, _guard: &LedgerGuard<'_>, dirs: &[Vec<u8>]) -> io::Result<()> {
        let fd = fsx::open_beneath(
            self.dir()?,
            Path::new(DIRS),
            OFlags::WRONLY | OFlags::APPEND,
            Mode::empty(),
        )?;
        fsx::write_all(&fd, &crate::cache::state::dirtime::encode_list(dirs))
    }

    /// Replaces the index with `text` (caller holds the lock).
    pub fn replace_index(
        &self,
        _guard: &LedgerGuard<'_>,
        text: &[u8],
        durable: bool,
    ) -> io::Result<()> {
        fsx::replace_file(self.dir()?, INDEX, text, durable)
    }

    /// The one reset of our totals, after a pass that accounted for every file (gc, `clear`,
    /// a brand-new cache): writes the directory list (when the directories could be listed),
    /// the loose-file record and the ledger, keeping the invalidation epoch. The total is
    /// the entries', the loose files' and our own state files' bytes (CANN's scan counts
    /// them all). Caller holds the lock.
    pub fn reconcile(
        &self,
        guard: &LedgerGuard<'_>,
        r: Reconciled<'_>,
        durable: bool,
        base: &Path,
    ) -> Result<Ledger> {
        let epoch_ns = match self.read_ledger() {
            Ok(LedgerRead::Valid(l)) => l.epoch_ns,
            Ok(_) => 0,
            Err(e) => return Err(CacheError::io(IoOp::ReadLedgerIn, base, e)),
        };
        if let Some(dirs) = r.dirs {
            self.replace_dirs(guard, dirs, durable)
                .map_err(|e| CacheError::io(IoOp::RecordDirectoriesIn, base, e))?;
        }
        let reconciled_ns = r.at.max(1);
        self.replace_state(
            guard,
            LOOSE,
            &loose::encode(reconciled_ns, r.loose),
            durable,
        )
        .map_err(|e| CacheError::io(IoOp::RecordLooseFilesIn, base, e))?;
        let loose_bytes: u64 = r.loose.iter().map(|l| l.1).sum();
        let l = Ledger {
            total_bytes: r.entry_bytes + loose_bytes + self.bytes(),
            entries: r.entries,
            epoch_ns,
            reconciled_ns,
            dirs_mtime_ns: r.dirs.map_or(0, |_| r.dirs_mtime_ns),
        };
        self.write_ledger(guard, &l)
            .map_err(|e| CacheError::io(IoOp::WriteLedgerIn, base, e))?;
        Ok(l)
    }
}

/// What a pass that accounted for every file hands to [`State::reconcile`].
#[derive(Debug, Clone, Copy)]
pub struct Reconciled<'a> {
    /// Every directory of `kernel_cache/` now; `None` when they could not all be listed
    /// (no directory time is then recorded, and the start-up check says "unknown").
    pub dirs: Option<&'a [Vec<u8>]>,
    /// Their newest time, when every file in them is one the pass accounted for; else 0.
    pub dirs_mtime_ns: Nanos,
    /// The loose files kept (path relative to `kernel_cache/`, bytes).
    pub loose: &'a [(String, u64)],
    /// The entries kept, and their bytes.
    pub entries: u64,
    pub entry_bytes: u64,
    /// When the pass counted.
    pub at: Nanos,
}

impl<'a> Reconciled<'a> {
    /// A cache with no entry and no loose file left (a clear, or the first count of an empty
    /// cache): only its directories and their time are recorded.
    pub fn empty(dirs: Option<&'a [Vec<u8>]>, dirs_mtime_ns: Nanos, at: Nanos) -> Self {
        Reconciled {
            dirs,
            dirs_mtime_ns,
            loose: &[],
            entries: 0,
            entry_bytes: 0,
            at,
        }
    }
}
