//! The size ledger and the entry index, kept in `kernel_cache/.cann-cache/`.
//!
//! - `ledger`: 128 bytes (totals, invalidation epoch, the newest directory time seen at the
//!   last reconcile, checksum), rewritten in place under a `flock`. The start-up "is aging
//!   needed" check reads this (one `pread`) and compares the directory time with the listed
//!   directories' own (a few `stat`s), never scanning entries.
//! - `dirs`: every directory of `kernel_cache/`, one a line (see [`super::dirtime`]).
//! - `index`: append-only lines, one per put (`P`) or removal (`D`), compacted by `gc`. It
//!   tells the ager each entry's files, size and a lower bound of its last access without
//!   opening any manifest.
//!
//! Both are hints: a torn or missing ledger reads as "unknown" and the next gc rebuilds both
//! from the directory itself (see [`crate::cache::scan`]).

use std::collections::BTreeMap;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use rustix::fs::{Mode, OFlags};

use super::clock::Nanos;
use super::fsx;
use super::lock::LedgerGuard;

/// Ledger file name.
pub const LEDGER: &str = "ledger";
/// Index file name.
pub const INDEX: &str = "index";
/// Version 2 added the directory time; a version-1 ledger reads as damaged ("unknown") and
/// the next gc rewrites it.
const MAGIC: &[u8; 8] = b"CNCLEDG2";
const LEN: usize = 128;
const SUM_AT: usize = LEN - 8;

/// The totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Ledger {
    /// Bytes of all files in the cache as last accounted.
    pub total_bytes: u64,
    /// Number of entries as last accounted.
    pub entries: u64,
    /// Entries committed before this time are invalid (set by `force` and version changes).
    pub epoch_ns: Nanos,
    /// Last time a gc reconciled the ledger with the directory.
    pub reconciled_ns: Nanos,
    /// Newest modification time of `kernel_cache/` and its subdirectories when the totals
    /// were last known to account for every file in them; 0 when they are known not to (a
    /// foreign writer added files during the last pass). A directory newer than this means
    /// someone created, renamed or removed files since: the totals are then unknown.
    pub dirs_mtime_ns: Nanos,
}

/// What reading the ledger found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerRead {
    Valid(Ledger),
    Missing,
    Corrupt,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Ledger {
    /// Accounts for one of our own changes, made between two readings `(before, after)` of
    /// the directories' time: if nothing had moved them past the record before the change,
    /// the record moves to `after`; otherwise a foreign write is still unaccounted and the
    /// record stays behind. (A foreign write into the directory we changed, landing during our
    /// change or within one coarse clock tick after it, is the one this cannot tell from
    /// ours; see the limits in `dirtime`. The next gc accounts for it.)
    pub fn advance_dirs(&mut self, (before, after): (Nanos, Nanos)) {
        if after == Nanos::MAX {
            // A directory could not be read after the change: nothing vouches for the
            // record any more (it must never become a time no directory can pass).
            self.dirs_mtime_ns = 0;
        } else if self.dirs_mtime_ns > 0 && before <= self.dirs_mtime_ns {
            self.dirs_mtime_ns = self.dirs_mtime_ns.max(after);
        }
    }

    fn encode(&self) -> [u8; LEN] {
        let mut b = [0u8; LEN];
        b[..8].copy_from_slice(MAGIC);
        b[8..16].copy_from_slice(&self.total_bytes.to_le_bytes());
        b[16..24].copy_from_slice(&self.entries.to_le_bytes());
        b[24..32].copy_from_slice(&self.epoch_ns.to_le_bytes());
        b[32..40].copy_from_slice(&self.reconciled_ns.to_le_bytes());
        b[40..48].copy_from_slice(&self.dirs_mtime_ns.to_le_bytes());
        let sum = fnv1a(&b[..SUM_AT]);
        b[SUM_AT..].copy_from_slice(&sum.to_le_bytes());
        b
    }

    fn decode(b: &[u8]) -> Option<Ledger> {
        if b.len() != LEN || &b[..8] != MAGIC {
            return None;
        }
        let word = |i: usize| -> Option<[u8; 8]> { b.get(i..i + 8)?.try_into().ok() };
        if u64::from_le_bytes(word(SUM_AT)?) != fnv1a(&b[..SUM_AT]) {
            return None;
        }
        Some(Ledger {
            total_bytes: u64::from_le_bytes(word(8)?),
            entries: u64::from_le_bytes(word(16)?),
            epoch_ns: i64::from_le_bytes(word(24)?),
            reconciled_ns: i64::from_le_bytes(word(32)?),
            dirs_mtime_ns: i64::from_le_bytes(word(40)?),
        })
    }
}

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
        let dir = fsx::make_dirs(kernel_cache, Path::new(super::dir::STATE_DIR))?;
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
        let dir = match fsx::open_dir(kernel_cache, Path::new(super::dir::STATE_DIR)) {
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

    /// The directory list the start-up check compares (see [`super::dirtime`]); `None`
    /// when it is missing, unreadable or damaged (the check then answers "unknown").
    pub fn read_dirs(&self) -> Option<Vec<Vec<u8>>> {
        let dir = self.dir.as_ref()?;
        let fd = fsx::open_beneath(
            dir.as_fd(),
            Path::new(super::dirtime::DIRS),
            OFlags::RDONLY,
            Mode::empty(),
        )
        .ok()?;
        let text = cann_input::read_file(
            std::fs::File::from(fd),
            Path::new(super::dirtime::DIRS),
            cann_input::Limits::new(DIRS_MAX_BYTES),
        )
        .ok()?;
        super::dirtime::parse_list(&text)
    }

    /// A small state file of ours (at most `max` bytes), `None` when missing or unreadable.
    pub fn read_small_state(&self, name: &str, max: u64) -> Option<Vec<u8>> {
        let dir = self.dir.as_ref()?;
        let fd =
            fsx::open_beneath(dir.as_fd(), Path::new(name), OFlags::RDONLY, Mode::empty()).ok()?;
        cann_input::read_file(
            std::fs::File::from(fd),
            Path::new(name),
            cann_input::Limits::new(max),
        )
        .ok()
    }

    /// Replaces a state file (caller holds the lock).
    pub fn replace_state(
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
            super::dirtime::DIRS,
            &super::dirtime::encode_list(dirs),
            durable,
        )
    }

    /// Adds directories to the list (caller holds the lock). Never creates it: a list
    /// started from nothing would lack the directories already there.
    pub fn append_dirs(&self, _guard: &LedgerGuard<'_>, dirs: &[Vec<u8>]) -> io::Result<()> {
        let fd = fsx::open_beneath(
            self.dir()?,
            Path::new(super::dirtime::DIRS),
            OFlags::WRONLY | OFlags::APPEND,
            Mode::empty(),
        )?;
        fsx::write_all(&fd, &super::dirtime::encode_list(dirs))
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
}

/// What the index knows about one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexRec {
    /// Commit time (ours) or modification time (foreign entries).
    pub committed_ns: Nanos,
    /// A time the entry is known to have been accessed at or after.
    pub access_ns: Nanos,
    /// Bytes of the manifest and every file it names.
    pub bytes: u64,
    /// The other files of the entry, in the manifest's directory.
    pub files: Vec<String>,
    /// The manifest as last read; a manifest whose `lstat` differs is read again.
    pub stamp: Stamp,
}

/// Identity of a manifest file at the time it was read: inode, modification time, size.
/// All zero means "not known" (an index line of the previous format), which never matches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stamp {
    pub ino: u64,
    pub mtime_ns: Nanos,
    pub size: u64,
}

impl Stamp {
    /// The stamp of an `lstat` result.
    pub fn of(st: &rustix::fs::Stat) -> Stamp {
        Stamp {
            ino: st.st_ino,
            mtime_ns: fsx::mtime_ns(st),
            size: fsx::apparent_size(st),
        }
    }

    /// True when `st` is the same manifest, unchanged since this stamp was taken.
    pub fn matches(&self, st: &rustix::fs::Stat) -> bool {
        self.ino != 0 && *self == Stamp::of(st)
    }
}

/// True when a relative path can be stored in the line format (no tabs or newlines).
pub fn indexable(rel: &str) -> bool {
    !rel.contains(['\t', '\n', '\r'])
}

/// One `E` line (an entry; `P` lines of the previous format, without the manifest's stamp,
/// are still read).
pub fn put_line(rel: &str, r: &IndexRec) -> String {
    let mut s = format!(
        "E\t{}\t{}\t{}\t{}\t{}\t{}\t{rel}",
        r.committed_ns, r.access_ns, r.bytes, r.stamp.ino, r.stamp.mtime_ns, r.stamp.size
    );
    for f in &r.files {
        s.push('\t');
        s.push_str(f);
    }
    s.push('\n');
    s
}

/// One `D` line.
pub fn del_line(rel: &str) -> String {
    format!("D\t{rel}\n")
}

/// Applies index text to a map (later lines win). Malformed lines, such as a torn last line
/// after a crash, are skipped.
pub fn apply_index(map: &mut BTreeMap<String, IndexRec>, text: &[u8]) {
    apply_index_where(map, text, &|_| true);
}

/// [`apply_index`] for the manifests `keep` accepts only; the others cost no allocation.
pub fn apply_index_where(
    map: &mut BTreeMap<String, IndexRec>,
    text: &[u8],
    keep: &dyn Fn(&str) -> bool,
) {
    for line in text.split(|b| *b == b'\n') {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let mut f = line.split('\t');
        let tag = f.next();
        // The path is looked at first: a line `keep` refuses costs no number parsing.
        let rel_at = match tag {
            Some("E") => 6,
            Some("P") => 3,
            _ => 0,
        };
        if !f.clone().nth(rel_at).is_some_and(keep) {
            continue;
        }
        match tag {
            Some(tag @ ("P" | "E")) => {
                let (Some(c), Some(a), Some(b)) = (f.next(), f.next(), f.next()) else {
                    continue;
                };
                let (Ok(committed_ns), Ok(access_ns), Ok(bytes)) =
                    (c.parse(), a.parse(), b.parse())
                else {
                    continue;
                };
                let stamp = if tag == "E" {
                    let (Some(i), Some(m), Some(z)) = (f.next(), f.next(), f.next()) else {
                        continue;
                    };
                    let (Ok(ino), Ok(mtime_ns), Ok(size)) = (i.parse(), m.parse(), z.parse())
                    else {
                        continue;
                    };
                    Stamp {
                        ino,
                        mtime_ns,
                        size,
                    }
                } else {
                    Stamp::default()
                };
                let Some(rel) = f.next() else {
                    continue;
                };
                let files = f.map(str::to_owned).collect();
                map.insert(
                    rel.to_owned(),
                    IndexRec {
                        committed_ns,
                        access_ns,
                        bytes,
                        files,
                        stamp,
                    },
                );
            }
            Some("D") => {
                if let Some(rel) = f.next() {
                    map.remove(rel);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn ledger_codec_detects_damage() {
        let l = Ledger {
            total_bytes: 7,
            entries: 2,
            epoch_ns: -3,
            reconciled_ns: 9,
            dirs_mtime_ns: 11,
        };
        let mut b = l.encode();
        assert_eq!(Ledger::decode(&b), Some(l));
        b[9] ^= 1;
        assert_eq!(Ledger::decode(&b), None);
    }

    #[test]
    fn the_directory_record_never_becomes_a_time_no_directory_passes() {
        let mut l = Ledger {
            dirs_mtime_ns: 100,
            ..Ledger::default()
        };
        l.advance_dirs((90, 120));
        assert_eq!(l.dirs_mtime_ns, 120);
        // A foreign write during our change: the record stays behind it.
        l.advance_dirs((Nanos::MAX, 150));
        assert_eq!(l.dirs_mtime_ns, 120);
        // A directory unreadable after the change: unreconciled, so "unknown".
        l.advance_dirs((110, Nanos::MAX));
        assert_eq!(l.dirs_mtime_ns, 0);
        l.advance_dirs((0, 200));
        assert_eq!(l.dirs_mtime_ns, 0);
    }

    #[test]
    fn index_lines_round_trip_and_torn_tail_is_skipped() {
        let r = IndexRec {
            committed_ns: 1,
            access_ns: 2,
            bytes: 3,
            files: vec!["a.o".into()],
            stamp: Stamp {
                ino: 4,
                mtime_ns: 5,
                size: 6,
            },
        };
        let mut text = put_line("x/a.json", &r);
        text.push_str(&put_line(
            "b.json",
            &IndexRec {
                files: vec![],
                ..r.clone()
            },
        ));
        text.push_str(&del_line("b.json"));
        text.push_str("P\t7\t8\t9\told.json\told.o\n");
        text.push_str("P\t1\t2");
        let mut m = BTreeMap::new();
        apply_index(&mut m, text.as_bytes());
        assert_eq!(m.len(), 2);
        assert_eq!(m.get("x/a.json"), Some(&r));
        let old = m.get("old.json").unwrap();
        assert_eq!((old.bytes, old.stamp), (9, Stamp::default()));
        assert_eq!(old.files, vec!["old.o"]);
    }
}
