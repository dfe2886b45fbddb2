//! Walking `kernel_cache/`: one `getdents` pass. How an entry the index knows is treated
//! depends on [`Known`]: taken as is (no system call), checked with `lstat` (re-read only
//! when its manifest changed), or ignored. New (foreign) manifests are parsed once and then
//! indexed; unreferenced files are orphans; `.tmp-` files are unfinished commits. Symlinks and
//! special files are listed and never followed. The manifests of a directory that cost
//! system calls are judged on a few threads ([`super::pool`]) and merged in listing order.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{Dir, FileType};

use super::clock::Nanos;
use super::dir::STATE_DIR;
use super::fsx::{self, TMP_PREFIX};
use super::ledger::{IndexRec, Stamp};
use super::manifest::{is_manifest_name, Manifest, ManifestProblem};
use super::progress::Progress;

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
    /// what a pass accounted for, checked by [`super::dirtime::settle`].
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
    let (dir_rel, name) = rel.rsplit_once('/').unwrap_or(("", rel));
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

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

fn loose(dir: BorrowedFd<'_>, dir_rel: &str, name: &str) -> Option<Loose> {
    let st = fsx::lstat_at(dir, name.as_ref()).ok()?;
    Some(Loose {
        rel: join(dir_rel, name),
        bytes: fsx::size_of(&st),
        changed_ns: fsx::mtime_ns(&st).max(fsx::ctime_ns(&st)),
    })
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

/// Re-sizes a known entry from `lstat`s when its manifest is the one that was read; `None`
/// when it must be read again (changed manifest, or a file gone or not regular).
fn recheck(dir: BorrowedFd<'_>, name: &str, rec: &IndexRec) -> Option<IndexRec> {
    let st = fsx::lstat_at(dir, name.as_ref()).ok()?;
    if !rec.stamp.matches(&st) {
        return None;
    }
    let mut bytes = fsx::size_of(&st);
    for f in &rec.files {
        let fs = fsx::lstat_at(dir, f.as_ref()).ok()?;
        if fsx::kind(&fs) != FileType::RegularFile {
            return None;
        }
        bytes += fsx::size_of(&fs);
    }
    Some(IndexRec {
        bytes,
        access_ns: rec.access_ns.max(fsx::atime_ns(&st)),
        ..rec.clone()
    })
}

/// Reads and sizes a manifest nobody indexed. `full` also checks sizes of our own binaries.
fn inspect(dir: BorrowedFd<'_>, dir_rel: &str, name: &str) -> Result<IndexRec, Torn> {
    let st = fsx::lstat_at(dir, name.as_ref());
    let (mbytes, changed) = st
        .as_ref()
        .map(|s| (fsx::size_of(s), fsx::mtime_ns(s).max(fsx::ctime_ns(s))))
        .unwrap_or((0, 0));
    let base = Loose {
        rel: join(dir_rel, name),
        bytes: mbytes,
        changed_ns: changed,
    };
    let torn = |why: TornWhy, present: Vec<(String, u64)>| Torn {
        loose: base.clone(),
        why,
        present,
        special: false,
    };
    let text = super::store::read_small(dir, name)
        .ok_or_else(|| torn(TornWhy::ManifestUnreadable, vec![]))?;
    let invalid = |e: ManifestProblem| match e {
        ManifestProblem::Unparsable(detail) => TornWhy::ManifestInvalid { detail },
        ManifestProblem::BadName(name) => TornWhy::ManifestBadName { name },
    };
    let m = Manifest::parse(&text).map_err(|e| torn(invalid(e), vec![]))?;
    let mut files = Vec::new();
    let mut present = Vec::new();
    let mut bytes = mbytes;
    let mut missing = None;
    let mut special = false;
    let mut visit = |fname: String,
                     expect: Option<u64>,
                     present: &mut Vec<(String, u64)>|
     -> Option<Manifest> {
        match fsx::lstat_at(dir, fname.as_ref()) {
            Ok(s) if fsx::kind(&s) == FileType::RegularFile => {
                let sz = fsx::size_of(&s);
                let len = fsx::apparent_size(&s);
                if expect.is_some_and(|e| e != len) && missing.is_none() {
                    missing = Some(TornWhy::SizeMismatch {
                        file: fname.clone(),
                        bytes: len,
                        expected: expect.unwrap_or(0),
                    });
                }
                bytes += sz;
                present.push((fname.clone(), sz));
                files.push(fname.clone());
                if fname.ends_with(".json") {
                    super::store::read_small(dir, &fname).and_then(|t| Manifest::parse(&t).ok())
                } else {
                    None
                }
            }
            Ok(_) => {
                special = true;
                missing.get_or_insert(TornWhy::NotRegular { file: fname });
                None
            }
            Err(_) => {
                missing.get_or_insert(TornWhy::Missing { file: fname });
                None
            }
        }
    };
    let bin = m.bin_name().map_err(|e| torn(invalid(e), vec![]))?;
    if let Some(b) = bin {
        visit(b, m.own.map(|o| o.bin_size), &mut present);
    }
    for sub in m.sub_manifests().map_err(|e| torn(invalid(e), vec![]))? {
        if let Some(part) = visit(sub, None, &mut present) {
            if let Ok(Some(b)) = part.bin_name() {
                visit(b, None, &mut present);
            }
        }
    }
    if let Some(why) = missing {
        return Err(Torn {
            special,
            ..torn(why, present)
        });
    }
    // A foreign entry was written when its manifest was (the ctime also moves when anyone
    // stamps an access, which is no recompilation); `get` judges it by the same time.
    let written = st.as_ref().map(fsx::mtime_ns).unwrap_or(0);
    let committed = m.own.map_or(written, |o| o.committed_ns);
    let atime = st.as_ref().map(fsx::atime_ns).unwrap_or(0);
    // The upstream rule ranks by access time alone; a foreign entry's atime is our lower bound.
    Ok(IndexRec {
        committed_ns: committed,
        access_ns: atime,
        bytes,
        files,
        stamp: st.as_ref().map(Stamp::of).unwrap_or_default(),
    })
}

/// What a walk makes of one manifest.
struct Judged {
    /// The manifest was read (new, changed, or `Known::Ignore`).
    read: bool,
    /// It was read and the index did not know it.
    discovered: bool,
    rec: Result<IndexRec, Torn>,
}

/// Takes, re-checks or reads the manifest `rel` (in `dir`) as `how` says for its record.
fn judge(
    dir: BorrowedFd<'_>,
    dir_rel: &str,
    rel: &str,
    known: Option<&IndexRec>,
    how: Known,
) -> Judged {
    let name = rel.rsplit_once('/').map_or(rel, |p| p.1);
    let quick = match (known, how) {
        (Some(r), Known::Trust) => Some(r.clone()),
        (Some(r), Known::Check) => recheck(dir, name, r),
        _ => None,
    };
    if let Some(r) = quick {
        return Judged {
            read: false,
            discovered: false,
            rec: Ok(r),
        };
    }
    let rec = inspect(dir, dir_rel, name).map(|mut r| {
        if let Some(k) = known {
            r.access_ns = r.access_ns.max(k.access_ns);
        }
        r
    });
    Judged {
        read: true,
        discovered: known.is_none() && rec.is_ok(),
        rec,
    }
}

/// Walks the cache, treating the entries of `known` as `how` says.
pub fn walk(
    kc: BorrowedFd<'_>,
    known: &BTreeMap<String, IndexRec>,
    how: Known,
    progress: &dyn Progress,
) -> std::io::Result<Scan> {
    walk_from(kc, &[String::new()], &|_| true, known, how, progress)
}

/// Walks the directories `roots` (relative to `kernel_cache/`, "" for itself) and the
/// subdirectories below them that `descend` accepts (`info` after a foreign write: only
/// the directories whose times moved, and the new ones inside them). A root that does not
/// exist is skipped; one that cannot be opened otherwise is an error.
pub fn walk_from(
    kc: BorrowedFd<'_>,
    roots: &[String],
    descend: &dyn Fn(&str) -> bool,
    known: &BTreeMap<String, IndexRec>,
    how: Known,
    progress: &dyn Progress,
) -> std::io::Result<Scan> {
    let mut scan = Scan::default();
    let mut stack: Vec<(String, OwnedFd)> = Vec::with_capacity(roots.len());
    for r in roots.iter().rev() {
        match fsx::open_dir(kc, Path::new(r)) {
            Ok(fd) => stack.push((r.clone(), fd)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !r.is_empty() => {}
            Err(e) => return Err(e),
        }
    }
    while let Some((dir_rel, fd)) = stack.pop() {
        let mut names_reg = Vec::new();
        let mut dir = Dir::read_from(&fd)?;
        while let Some(ent) = dir.read() {
            let ent = ent?;
            let name = match ent.file_name().to_str() {
                Ok(n) => n.to_owned(),
                Err(_) => {
                    let raw = ent.file_name().to_bytes().to_vec();
                    let rel = join(&dir_rel, &String::from_utf8_lossy(&raw));
                    scan.seen.insert(rel.clone());
                    match fsx::lstat_at(fd.as_fd(), OsStr::from_bytes(&raw)) {
                        Ok(st) if fsx::kind(&st) != FileType::Directory => {
                            let regular = fsx::kind(&st) == FileType::RegularFile;
                            let manifest = regular && is_raw_manifest(&raw);
                            scan.raw.push(RawFile {
                                dir: dir_rel.clone(),
                                name: raw,
                                bytes: if regular { fsx::size_of(&st) } else { 0 },
                                changed_ns: fsx::mtime_ns(&st).max(fsx::ctime_ns(&st)),
                                regular,
                                manifest,
                                claimed: false,
                            });
                        }
                        _ => scan.foreign.push((rel, "directory with a non-UTF-8 name")),
                    }
                    continue;
                }
            };
            // Our state and CANN's aging lock are not cache content: never orphans, never
            // deleted.
            if name == "."
                || name == ".."
                || (dir_rel.is_empty() && (name == STATE_DIR || name == super::lock::CANN_LOCK))
            {
                continue;
            }
            scan.seen.insert(join(&dir_rel, &name));
            let mut ft = ent.file_type();
            if ft == FileType::Unknown {
                ft = fsx::lstat_at(fd.as_fd(), name.as_ref())
                    .map(|s| fsx::kind(&s))
                    .unwrap_or(FileType::Unknown);
            }
            match ft {
                FileType::Directory if !descend(&join(&dir_rel, &name)) => {}
                FileType::Directory => match fsx::open_dir(fd.as_fd(), Path::new(&name)) {
                    Ok(sub) => stack.push((join(&dir_rel, &name), sub)),
                    Err(_) => scan.foreign.push((join(&dir_rel, &name), UNREADABLE_DIR)),
                },
                FileType::Symlink => scan.foreign.push((join(&dir_rel, &name), "symbolic link")),
                FileType::RegularFile => names_reg.push(name),
                _ => scan.foreign.push((join(&dir_rel, &name), "special file")),
            }
        }
        let mut referenced: BTreeSet<String> = BTreeSet::new();
        let mut leftovers = Vec::new();
        let mut manifests = Vec::new();
        for name in &names_reg {
            if name.starts_with(TMP_PREFIX) {
                if let Some(l) = loose(fd.as_fd(), &dir_rel, name) {
                    scan.temps.push(l);
                }
            } else if is_manifest_name(name) {
                manifests.push(join(&dir_rel, name));
            } else {
                leftovers.push(name);
            }
        }
        // Each manifest costs system calls unless the index's record is taken as is; those
        // overlap on a few threads (see `pool`), the results are merged here in order.
        let costly = manifests
            .iter()
            .filter(|rel| how != Known::Trust || !known.contains_key(*rel))
            .count();
        let one = |rel: &String| judge(fd.as_fd(), &dir_rel, rel, known.get(rel), how);
        let judged = if costly >= super::pool::MIN_PARALLEL {
            super::pool::map(&manifests, one)
        } else {
            manifests.iter().map(one).collect()
        };
        for (rel, j) in manifests.into_iter().zip(judged) {
            progress.inc(1);
            if j.read {
                scan.read.insert(rel.clone());
            }
            if j.discovered {
                scan.discovered += 1;
            }
            match j.rec {
                Ok(r) => {
                    referenced.extend(r.files.iter().cloned());
                    scan.entries.insert(rel, r);
                }
                Err(t) => {
                    referenced.extend(t.present.iter().map(|p| p.0.clone()));
                    scan.torn.push(t);
                }
            }
        }
        for name in leftovers {
            if !referenced.contains(name.as_str()) {
                if let Some(l) = loose(fd.as_fd(), &dir_rel, name) {
                    scan.orphans.push(l);
                }
            }
        }
        scan.dirs.push(dir_rel);
    }
    claim_raw(&mut scan.raw);
    Ok(scan)
}

/// A non-UTF-8 name the upstream scan would take for a manifest (see
/// [`super::manifest::is_manifest_name`]).
fn is_raw_manifest(name: &[u8]) -> bool {
    let suffix = super::manifest::MANIFEST_SUFFIX.as_bytes();
    name.len() > suffix.len()
        && name.ends_with(suffix)
        && !name.starts_with(b".")
        && !name.ends_with(b"_mix_aic.json")
        && !name.ends_with(b"_mix_aiv.json")
}

/// Marks the files that share a raw manifest's stem in its directory as its own.
fn claim_raw(raw: &mut [RawFile]) {
    let suffix = super::manifest::MANIFEST_SUFFIX.len();
    let stems: Vec<(String, Vec<u8>)> = raw
        .iter()
        .filter(|f| f.manifest)
        .map(|f| (f.dir.clone(), f.name[..f.name.len() - suffix].to_vec()))
        .collect();
    for f in raw.iter_mut().filter(|f| !f.manifest) {
        f.claimed = stems
            .iter()
            .any(|(d, stem)| *d == f.dir && f.name.starts_with(stem));
    }
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
