//! A CANN-style ager and writer, written from `../shared/REFERENCE-CACHE.md` (the algorithm of
//! te_fusion's `TeCacheSpaceManager`), to run beside ours. Not CANN code: a model of what it
//! does to the file system, step by step, with the same system calls where they matter
//! (`stat` by path, `fcntl` record lock, whole-second atime order, in-place writes).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// CANN's lock file, in `kernel_cache/`.
pub const LOCK: &str = "op_cache_file_del.lock";

/// What one start-up of the CANN-style ager did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CannRun {
    pub total_bytes: u64,
    /// The size reached the limit and the lock was free: it aged.
    pub aged: bool,
    /// The size reached the limit but the lock was held elsewhere.
    pub locked_out: bool,
    pub deleted_entries: u64,
    pub deleted_bytes: u64,
}

/// Step 1: recursive readdir, `stat()` by full path, sum of `st_size` of regular files.
fn dir_size(dir: &Path) -> u64 {
    let Ok(rd) = fs::read_dir(dir) else { return 0 };
    let mut total = 0;
    for e in rd.flatten() {
        let p = e.path();
        match fs::metadata(&p) {
            Ok(m) if m.is_dir() => total += dir_size(&p),
            Ok(m) if m.is_file() => total += m.len(),
            _ => {}
        }
    }
    total
}

/// The cache's size as CANN's size scan counts it (step 1).
pub fn size(kernel_cache: &Path) -> u64 {
    dir_size(kernel_cache)
}

/// Step 4: every `*.json` by `d_type`, parts of mixed kernels left out.
fn list(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let Ok(ft) = e.file_type() else { continue };
        let p = e.path();
        if ft.is_dir() {
            list(&p, out);
        } else if ft.is_file() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".json")
                && !name.ends_with("_mix_aic.json")
                && !name.ends_with("_mix_aiv.json")
            {
                out.push(p);
            }
        }
    }
}

fn read_json(path: &Path, noatime: bool) -> Option<serde_json::Value> {
    let mut o = fs::OpenOptions::new();
    o.read(true);
    if noatime {
        o.custom_flags(rustix::fs::OFlags::NOATIME.bits() as i32);
    }
    let f = o.open(path).ok()?;
    serde_json::from_reader(std::io::BufReader::new(f)).ok()
}

/// A manifest as step 5 saw it: real path, atime, size, and its binary with its size.
type Candidate = (PathBuf, i64, u64, Option<(PathBuf, u64)>);

/// One start-up of the CANN-style ager on `kernel_cache`. `noatime` reads manifests with
/// `O_NOATIME` (the variant that really evicts; the faithful read moves atimes on `relatime`
/// and frees nothing). `now_secs` is the wall clock in seconds.
pub fn age(kernel_cache: &Path, limit: u64, ratio: u64, now_secs: i64, noatime: bool) -> CannRun {
    age_paced(
        kernel_cache,
        limit,
        ratio,
        now_secs,
        noatime,
        Pace::default(),
    )
}

/// How a test slows one pass down to the length a large cache gives it (step 7 unlinks at
/// 60-90 us a file: half of 100k entries is about 10 s), and learns when it holds the lock.
#[derive(Debug, Default, Clone)]
pub struct Pace {
    /// Sleep after each deleted entry.
    pub per_delete: std::time::Duration,
    /// Created once the lock is held and the manifests are listed.
    pub ready: Option<PathBuf>,
}

/// [`age`], paced.
pub fn age_paced(
    kernel_cache: &Path,
    limit: u64,
    ratio: u64,
    now_secs: i64,
    noatime: bool,
    pace: Pace,
) -> CannRun {
    let total = dir_size(kernel_cache);
    let mut run = CannRun {
        total_bytes: total,
        ..CannRun::default()
    };
    if total < limit {
        return run;
    }
    // Step 2: fopen("a+"), chmod 0640, F_SETLK F_WRLCK on the whole file, non-blocking.
    let lock_path = kernel_cache.join(LOCK);
    let Ok(lock) = fs::OpenOptions::new()
        .append(true)
        .read(true)
        .create(true)
        .open(&lock_path)
    else {
        run.locked_out = true;
        return run;
    };
    let _ = fs::set_permissions(&lock_path, fs::Permissions::from_mode(0o640));
    if rustix::fs::fcntl_lock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err()
    {
        run.locked_out = true;
        return run;
    }
    run.aged = true;
    // Step 3.
    let size_to_delete = total.saturating_sub(limit * ratio / 100);
    let mut manifests = Vec::new();
    list(kernel_cache, &mut manifests);
    if let Some(r) = &pace.ready {
        fs::write(r, b"").unwrap();
    }
    // Steps 5 and 6: stat (atime), stat (size), realpath, read, stat the binary; a multimap
    // keyed by whole-second atime, ties in listing order.
    let mut by_atime: BTreeMap<(i64, usize), Candidate> = BTreeMap::new();
    for (i, p) in manifests.iter().enumerate() {
        let Ok(m1) = fs::metadata(p) else { continue };
        let Ok(m2) = fs::metadata(p) else { continue };
        let Ok(real) = fs::canonicalize(p) else {
            continue;
        };
        let Some(json) = read_json(&real, noatime) else {
            continue;
        };
        let bin = json
            .get("binFileName")
            .and_then(|v| v.as_str())
            .map(|n| {
                let suffix = json
                    .get("binFileSuffix")
                    .and_then(|v| v.as_str())
                    .unwrap_or("");
                real.with_file_name(format!("{n}{suffix}"))
            })
            .and_then(|b| fs::metadata(&b).ok().map(|m| (b, m.len())));
        by_atime.insert((m1.atime(), i), (real, m1.atime(), m2.len(), bin));
    }
    // Step 7: oldest first; stop at the first one younger than 1800 s; skip one whose atime
    // moved; remove JSON then binary; stop once enough is freed.
    let mut deleted = 0u64;
    for (_, (json, atime, jsize, bin)) in by_atime {
        if now_secs - atime < 1800 {
            break;
        }
        match fs::metadata(&json) {
            Ok(m) if m.atime() == atime => {}
            _ => continue,
        }
        if fs::symlink_metadata(&json).is_ok() && fs::remove_file(&json).is_ok() {
            deleted += jsize;
        }
        if let Some((b, bsize)) = bin {
            if fs::symlink_metadata(&b).is_ok() && fs::remove_file(&b).is_ok() {
                deleted += bsize;
            }
        }
        run.deleted_entries += 1;
        std::thread::sleep(pace.per_delete);
        if deleted >= size_to_delete {
            break;
        }
    }
    run.deleted_bytes = deleted;
    drop(lock);
    run
}

/// Writes an entry as CANN's compiler does: the binary, then the manifest naming it, each in
/// place (truncate and write, no rename), in a few chunks so a reader can catch it half-done.
pub fn write_entry(dir: &Path, stem: &str, size: usize) {
    fs::create_dir_all(dir).unwrap();
    let mut b = fs::File::create(dir.join(format!("{stem}.o"))).unwrap();
    let chunk = vec![0x5a_u8; 4096];
    let mut left = size;
    while left > 0 {
        let n = left.min(chunk.len());
        b.write_all(&chunk[..n]).unwrap();
        left -= n;
    }
    drop(b);
    let m = format!(
        r#"{{"binFileName":"{stem}","binFileSuffix":".o","kernelName":"{stem}","sha256":"00"}}"#
    );
    let mut f = fs::File::create(dir.join(format!("{stem}.json"))).unwrap();
    let (a, z) = m.as_bytes().split_at(m.len() / 2);
    f.write_all(a).unwrap();
    f.write_all(z).unwrap();
}

/// Bytes of complete entries under `kernel_cache` (manifest + the binary it names), the torn
/// ones (manifest whose binary is missing), and the largest complete entry.
#[derive(Debug, Default, Clone, Copy)]
pub struct Census {
    pub entries: u64,
    pub bytes: u64,
    pub torn: u64,
    pub largest: u64,
}

pub fn census(kernel_cache: &Path) -> Census {
    let mut manifests = Vec::new();
    list(kernel_cache, &mut manifests);
    let mut c = Census::default();
    for p in manifests {
        let Ok(text) = fs::read(&p) else { continue };
        let Ok(json) = serde_json::from_slice::<serde_json::Value>(&text) else {
            c.torn += 1;
            continue;
        };
        let Some(name) = json.get("binFileName").and_then(|v| v.as_str()) else {
            continue;
        };
        let suffix = json
            .get("binFileSuffix")
            .and_then(|v| v.as_str())
            .unwrap_or("");
        match fs::symlink_metadata(p.with_file_name(format!("{name}{suffix}"))) {
            Ok(m) => {
                let b = m.len() + text.len() as u64;
                c.entries += 1;
                c.bytes += b;
                c.largest = c.largest.max(b);
            }
            Err(_) => c.torn += 1,
        }
    }
    c
}
