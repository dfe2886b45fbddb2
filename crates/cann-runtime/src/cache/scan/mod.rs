//! Walking `kernel_cache/`: one `getdents` pass. How an entry the index knows is treated
//! depends on [`Known`]: taken as is (no system call), checked with `lstat` (re-read only
//! when its manifest changed), or ignored. New (foreign) manifests are parsed once and then
//! indexed; unreferenced files are orphans; `.tmp-` files are unfinished commits. Symlinks and
//! special files are listed and never followed. The manifests of a directory that cost
//! system calls are judged on a few threads ([`crate::cache::sys::pool`]) and merged in listing order.

use std::collections::{BTreeMap, HashSet};
use std::os::fd::{AsFd, BorrowedFd};
use std::path::Path;

use crate::cache::entries::relpath::{join, RelPath};
use crate::cache::state::index::IndexRec;
use crate::cache::sys::clock::Nanos;
use crate::cache::sys::fsx::{self};

/// A file that is not part of a live entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loose {
    /// Path relative to `kernel_cache/`.
    pub rel: String,
    /// Its size.
    pub bytes: u64,
    /// Newest of its modification and status-change times: when it was last written,
    /// renamed or marked orphaned.
    pub changed_ns: Nanos,
}

/// Why an entry cannot be served; `cannctl` words it in the user's language.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TornWhy {
    /// The directory holding the manifest cannot be opened: the OS error number, so the
    /// reason can be worded in the user's language, and the system's own text.
    DirUnreadable { errno: Option<i32>, detail: String },
    /// The manifest cannot be read.
    ManifestUnreadable,
    /// The manifest does not parse (the parser's finding, in its words).
    ManifestInvalid { detail: String },
    /// The manifest names a file that would lie outside its directory.
    ManifestBadName { name: String },
    /// A file the manifest names has another size than the manifest records.
    SizeMismatch {
        file: String,
        bytes: u64,
        expected: u64,
    },
    /// A file the manifest names is a link, FIFO or device.
    NotRegular { file: String },
    /// A file the manifest names is absent.
    Missing { file: String },
}

/// A manifest whose entry cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Torn {
    pub loose: Loose,
    pub why: TornWhy,
    /// Files of the entry that exist (removed with it).
    pub present: Vec<(String, u64)>,
    /// A file it names is a symlink, FIFO or device: no writer finishing will mend that.
    pub special: bool,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Scan {
    /// Live entries by manifest path.
    pub entries: BTreeMap<String, IndexRec>,
    /// Entries found without an index record (foreign writers, or a lost index).
    pub discovered: u64,
    pub orphans: Vec<Loose>,
    pub temps: Vec<Loose>,
    pub torn: Vec<Torn>,
    /// Symlinks and special files: reported, never followed, never counted.
    pub foreign: Vec<(String, &'static str)>,
    /// Directories visited (relative, top level is "").
    pub dirs: Vec<String>,
    /// Every name met, as a path relative to `kernel_cache/` (non-UTF-8 names lossily):
    /// what a pass accounted for, checked by [`crate::cache::state::dirtime::settle`].
    pub seen: HashSet<String>,
    /// Manifests this walk read (new or changed ones).
    pub read: HashSet<String>,
    /// Files whose names are not UTF-8 (never anyone's entry): sized, reported, removed like
    /// orphans by their raw names.
    pub raw: Vec<RawFile>,
}

/// A file whose name is not UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFile {
    /// Its directory, relative to `kernel_cache/`.
    pub dir: String,
    pub name: Vec<u8>,
    /// 0 unless a regular file.
    pub bytes: u64,
    pub changed_ns: Nanos,
    pub regular: bool,
    /// A manifest by its name (`.json`, not a part): an entry CANN wrote under a name we
    /// cannot index. Counted, reported as a manifest, never removed as an orphan.
    pub manifest: bool,
    /// Another file whose name begins with such a manifest's stem (its binary, its parts):
    /// counted with it, never an orphan.
    pub claimed: bool,
}

impl RawFile {
    /// A file no manifest can name: an orphan once old enough.
    pub fn is_orphan(&self) -> bool {
        self.regular && !self.manifest && !self.claimed
    }

    /// The path as shown to users (invalid bytes replaced).
    pub fn shown(&self) -> String {
        join(&self.dir, &String::from_utf8_lossy(&self.name))
    }
}

/// Reads and sizes the manifest `rel` again (a torn candidate is re-checked before it is
/// called torn: a writer may have finished meanwhile).
pub fn reinspect(kc: BorrowedFd<'_>, rel: &str) -> Result<IndexRec, Torn> {
    let (dir_rel, name) = RelPath::new(rel).split();
    match fsx::open_dir(kc, Path::new(dir_rel)) {
        Ok(fd) => inspect(fd.as_fd(), dir_rel, name),
        Err(e) => Err(Torn {
            loose: Loose {
                rel: rel.to_owned(),
                bytes: 0,
                changed_ns: 0,
            },
            why: TornWhy::DirUnreadable {
                errno: e.raw_os_error(),
                detail: e.to_string(),
            },
            present: Vec::new(),
            special: false,
        }),
    }
}

/// How [`Scan::foreign`] names a directory the walk could not open.
pub const UNREADABLE_DIR: &str = "unreadable directory";

impl Scan {
    /// The directories the walk could not open (their contents are not counted).
    pub fn unreadable_dirs(&self) -> Vec<String> {
        self.foreign
            .iter()
            .filter(|f| f.1 == UNREADABLE_DIR)
            .map(|f| f.0.clone())
            .collect()
    }

    /// Bytes of everything counted: entries, orphans, temporaries, torn entries.
    pub fn total_bytes(&self) -> u64 {
        let e: u64 = self.entries.values().map(|r| r.bytes).sum::<u64>()
            + self.raw.iter().map(|r| r.bytes).sum::<u64>();
        let l: u64 = self
            .orphans
            .iter()
            .chain(&self.temps)
            .map(|l| l.bytes)
            .sum();
        let t: u64 = self
            .torn
            .iter()
            .map(|t| t.loose.bytes + t.present.iter().map(|p| p.1).sum::<u64>())
            .sum();
        e + l + t
    }
}

/// What a walk does with an entry the index knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Take the record as is: no `stat`, no read (`info` after foreign additions).
    Trust,
    /// `lstat` the manifest and its files: sizes are refreshed, and a manifest whose inode,
    /// modification time or size moved since it was read is read again (gc's reconcile).
    Check,
    /// Read every manifest (`verify`, `clear`).
    Ignore,
}

mod judge;
use judge::inspect;
mod walk;

pub use walk::{walk, walk_from};

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
