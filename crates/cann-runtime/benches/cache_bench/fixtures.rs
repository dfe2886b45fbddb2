//! The caches the benchmarks run on: ours, built through the cache's own API, and one laid
//! out as CANN writes it (no index, every manifest to be read), with what they share.

use std::path::Path;
use std::sync::Arc;

use cann_runtime::cache::{
    clock::system_now, Cache, CacheDir, Limits, ManualClock, MaxSize, OpenOptions, SystemClock,
};

pub(crate) const BIN: usize = 2048;

pub(crate) const DIRS: usize = 16;

pub(crate) const MIB: u64 = 1_048_576;

pub(crate) fn key(i: usize) -> String {
    format!("Ascend910B/kernel_meta_{:02}/te_op_{i:06}", i % DIRS)
}

pub(crate) fn limits_for(n: usize) -> Limits {
    // The limit is the binaries alone, so manifests always put the cache over it at any
    // size (rounding to whole MiB once left 100,000 entries just under); retaining 50 %
    // then removes a little over half.
    let approx = n as u64 * BIN as u64;
    Limits::fixed(
        MaxSize::Mb(u32::try_from((approx / MIB).max(1)).unwrap()),
        50,
    )
}

/// Builds `n` entries, idle between 37 minutes and 2 hours, with mtime older than atime so
/// that even a relatime mount does not move atime on read (the reference can then work).
pub(crate) fn build(root: &Path, n: usize) -> CacheDir {
    remove_tree(root);
    let dir = CacheDir::explicit(root).unwrap();
    let now = system_now();
    let clock = ManualClock::new(now);
    let c = Cache::open(
        &dir,
        OpenOptions {
            limits: limits_for(n),
            clock: Arc::new(clock.clone()),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap();
    let start = now - 2 * 3600 * 1_000_000_000;
    let step = (83 * 60 * 1_000_000_000) / n as i64;
    for i in 0..n {
        let at = start + i as i64 * step;
        clock.set(at);
        c.put(&key(i), &[(i % 251) as u8; BIN], ".o", None).unwrap();
        let m = dir.kernel_cache().join(format!("{}.json", key(i)));
        cann_runtime::cache::set_file_times(&m, at, now - 3 * 3600 * 1_000_000_000).unwrap();
    }
    dir
}

/// Removes a directory tree between measurements (not timed), unlinking on a few threads:
/// where each unlink waits on the device (see `cache::pool`), one thread takes minutes at
/// 100,000 entries.
pub(crate) fn remove_tree(root: &Path) {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                _ => files.push(e.path()),
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(p) = files.get(i) else { break };
                let _ = std::fs::remove_file(p);
            });
        }
    });
    let _ = std::fs::remove_dir_all(root);
}

pub(crate) fn open(dir: &CacheDir, n: usize) -> Cache {
    Cache::open(
        dir,
        OpenOptions {
            limits: limits_for(n),
            clock: Arc::new(SystemClock),
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap()
}

/// `n` entries as CANN's compiler leaves them (manifest naming its binary, no `cannCache`
/// field, no index), with the same sizes and access order as [`build`].
pub(crate) fn build_cann(root: &Path, n: usize) -> CacheDir {
    remove_tree(root);
    let dir = CacheDir::explicit(root).unwrap();
    let now = system_now();
    let start = now - 2 * 3600 * 1_000_000_000;
    let step = (83 * 60 * 1_000_000_000) / n as i64;
    for i in 0..n {
        let m = dir.kernel_cache().join(format!("{}.json", key(i)));
        let d = m.parent().unwrap();
        if i < DIRS {
            std::fs::create_dir_all(d).unwrap();
        }
        let stem = m.file_stem().unwrap().to_str().unwrap().to_owned();
        let bin = d.join(format!("{stem}.o"));
        std::fs::write(&bin, [(i % 251) as u8; BIN]).unwrap();
        let text = format!(
            r#"{{"binFileName":"{stem}","binFileSuffix":".o","kernelName":"{stem}","sha256":"00"}}"#
        );
        std::fs::write(&m, text).unwrap();
        let at = start + i as i64 * step;
        let old = now - 3 * 3600 * 1_000_000_000;
        cann_runtime::cache::set_file_times(&bin, old, old).unwrap();
        cann_runtime::cache::set_file_times(&m, at, old).unwrap();
    }
    dir
}

/// CANN compiles one kernel beside ours (written in place, as CANN does).
pub(crate) fn write_foreign(dir: &CacheDir) {
    let foreign = dir
        .kernel_cache()
        .join("Ascend910B/kernel_meta_00/te_cann_new");
    std::fs::write(foreign.with_extension("o"), [1u8; BIN]).unwrap();
    std::fs::write(
        foreign.with_extension("json"),
        r#"{"binFileName":"te_cann_new","binFileSuffix":".o"}"#,
    )
    .unwrap();
}

pub(crate) fn drop_caches() -> bool {
    std::fs::write("/proc/sys/vm/drop_caches", b"3\n").is_ok()
}

pub(crate) fn sync_all() {
    let _ = std::process::Command::new("sync").status();
}
