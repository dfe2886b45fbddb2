//! Judging one manifest found by the walk: its index record taken as is, re-checked with
//! `lstat`s, or the manifest read and its files sized.

use std::os::fd::BorrowedFd;

use rustix::fs::FileType;

use crate::cache::entries::manifest::{Manifest, ManifestProblem};
use crate::cache::entries::relpath::{join, RelPath};
use crate::cache::state::index::{IndexRec, Stamp};
use crate::cache::sys::fsx::{self};

use super::{Known, Loose, Torn, TornWhy};

pub(crate) fn loose(dir: BorrowedFd<'_>, dir_rel: &str, name: &str) -> Option<Loose> {
    let st = fsx::lstat_at(dir, name.as_ref()).ok()?;
    Some(Loose {
        rel: join(dir_rel, name),
        bytes: fsx::size_of(&st),
        changed_ns: fsx::mtime_ns(&st).max(fsx::ctime_ns(&st)),
    })
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
pub(crate) fn inspect(dir: BorrowedFd<'_>, dir_rel: &str, name: &str) -> Result<IndexRec, Torn> {
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
    let text = crate::cache::entries::manifest::read_small(dir, name)
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
                    crate::cache::entries::manifest::read_small(dir, &fname)
                        .and_then(|t| Manifest::parse(&t).ok())
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
pub(crate) struct Judged {
    /// The manifest was read (new, changed, or `Known::Ignore`).
    pub read: bool,
    /// It was read and the index did not know it.
    pub discovered: bool,
    pub rec: Result<IndexRec, Torn>,
}

/// Takes, re-checks or reads the manifest `rel` (in `dir`) as `how` says for its record.
pub(crate) fn judge(
    dir: BorrowedFd<'_>,
    dir_rel: &str,
    rel: &str,
    known: Option<&IndexRec>,
    how: Known,
) -> Judged {
    let name = RelPath::new(rel).name();
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
