//! A faithful model of the upstream aging algorithm, kept as the baseline for benchmarks and
//! for tests that show where it fails. Not used by the cache itself.
//!
//! Upstream, at every process start: sum the size of every file under the cache (a `stat`
//! per file); if the sum reaches the limit, list every `.json` that is not a part, and for
//! each `stat` it (atime), `stat` it again (size), read and parse it, `stat` its binary or
//! read and parse its sub-manifests; sort by atime in seconds; then walk oldest first, stop
//! at the first entry younger than 30 minutes, `stat` the manifest again and delete the
//! entry only if its atime is unchanged, until enough bytes are freed.
//!
//! The flaw this reproduces: reading a manifest on a `relatime` mount moves its atime when
//! the old atime is more than a day old, so the second `stat` differs and the entries that
//! most deserve aging are never deleted.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::cache::entries::manifest::{is_manifest_name, Manifest};

/// What the baseline did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefOutcome {
    pub total_bytes: u64,
    pub aging_ran: bool,
    pub deleted_entries: u64,
    pub deleted_bytes: u64,
}

/// Recursive size sum, one `stat` per file (upstream `GetDirectorySize`).
pub fn dir_size(dir: &Path) -> io::Result<u64> {
    let mut total = 0;
    for e in fs::read_dir(dir)? {
        let e = e?;
        let md = fs::metadata(e.path())?;
        if md.is_dir() {
            total += dir_size(&e.path())?;
        } else {
            total += md.len();
        }
    }
    Ok(total)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for e in fs::read_dir(dir)? {
        let e = e?;
        let name = e.file_name();
        if e.file_type()?.is_dir() {
            collect(&e.path(), out)?;
        } else if name.to_str().is_some_and(is_manifest_name) {
            out.push(e.path());
        }
    }
    Ok(())
}

fn bin_of(dir: &Path, m: &Manifest, files: &mut Vec<(PathBuf, u64)>) {
    if let Ok(Some(b)) = m.bin_name() {
        let p = dir.join(b);
        if let Ok(md) = fs::metadata(&p) {
            files.push((p, md.len()));
        }
    }
}

/// The whole upstream start-up sequence at `now_secs` (Unix seconds).
pub fn run(
    kernel_cache: &Path,
    max_bytes: u64,
    ratio: u8,
    now_secs: i64,
) -> io::Result<RefOutcome> {
    use std::os::unix::fs::MetadataExt;
    let total = dir_size(kernel_cache)?;
    let mut out = RefOutcome {
        total_bytes: total,
        ..RefOutcome::default()
    };
    if total < max_bytes {
        return Ok(out);
    }
    out.aging_ran = true;
    let size_to_del = total.saturating_sub(max_bytes * u64::from(ratio) / 100);
    let mut manifests = Vec::new();
    collect(kernel_cache, &mut manifests)?;
    let mut by_atime: BTreeMap<(i64, usize), Vec<(PathBuf, u64)>> = BTreeMap::new();
    for (i, path) in manifests.iter().enumerate() {
        let Ok(md) = fs::metadata(path) else { continue };
        let atime = md.atime();
        let mut files = vec![(
            path.clone(),
            fs::metadata(path).map(|m| m.len()).unwrap_or(0),
        )];
        let dir = path.parent().unwrap_or(kernel_cache);
        if let Ok(text) = fs::read(path) {
            if let Ok(m) = Manifest::parse(&text) {
                bin_of(dir, &m, &mut files);
                for sub in m.sub_manifests().unwrap_or_default() {
                    let sp = dir.join(&sub);
                    if let Ok(md) = fs::metadata(&sp) {
                        files.push((sp.clone(), md.len()));
                        if let Ok(t) = fs::read(&sp) {
                            if let Ok(sm) = Manifest::parse(&t) {
                                bin_of(dir, &sm, &mut files);
                            }
                        }
                    }
                }
            }
        }
        by_atime.insert((atime, i), files);
    }
    let mut deleted = 0u64;
    for ((atime, _), files) in by_atime {
        if now_secs - atime < 1800 {
            break;
        }
        let Some((first, _)) = files.first() else {
            continue;
        };
        if let Ok(md) = fs::metadata(first) {
            if md.atime() == atime {
                for (p, sz) in &files {
                    let _ = fs::remove_file(p);
                    deleted += sz;
                }
                out.deleted_entries += 1;
            }
        }
        if deleted >= size_to_del {
            break;
        }
    }
    out.deleted_bytes = deleted;
    Ok(out)
}
