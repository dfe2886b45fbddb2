//! The walk itself: each directory listed once, its names sorted into entries, loose files,
//! foreign files and subdirectories, the costly manifests judged on a few threads.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{Dir, FileType};

use crate::cache::entries::manifest::is_manifest_name;
use crate::cache::entries::relpath::join;
use crate::cache::state::index::IndexRec;
use crate::cache::state::names::STATE_DIR;
use crate::cache::sys::fsx::{self, TMP_PREFIX};
use crate::cache::sys::progress::Progress;

use super::judge::{judge, loose};
use super::{Known, RawFile, Scan, UNREADABLE_DIR};

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
                || (dir_rel.is_empty()
                    && (name == STATE_DIR || name == crate::cache::state::names::CANN_LOCK))
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
        let judged = if costly >= crate::cache::sys::pool::MIN_PARALLEL {
            crate::cache::sys::pool::map(&manifests, one)
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
/// [`crate::cache::entries::manifest::is_manifest_name`]).
fn is_raw_manifest(name: &[u8]) -> bool {
    let suffix = crate::cache::entries::manifest::MANIFEST_SUFFIX.as_bytes();
    name.len() > suffix.len()
        && name.ends_with(suffix)
        && !name.starts_with(b".")
        && !name.ends_with(b"_mix_aic.json")
        && !name.ends_with(b"_mix_aiv.json")
}

/// Marks the files that share a raw manifest's stem in its directory as its own.
fn claim_raw(raw: &mut [RawFile]) {
    let suffix = crate::cache::entries::manifest::MANIFEST_SUFFIX.len();
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
