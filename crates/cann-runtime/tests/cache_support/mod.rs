//! Helpers shared by the cache integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cann_runtime::cache::{
    Cache, CacheDir, Clock, Limits, ManualClock, MaxSize, Nanos, OpenOptions,
};

pub const MIN: Nanos = 60_000_000_000;
pub const DAY: Nanos = 24 * 60 * MIN;
/// "Now" for manual clocks: the real time at the first use in this test process, so the
/// times the file system stamps (mtime, ctime) agree with the injected clock.
static T0_CELL: std::sync::LazyLock<Nanos> =
    std::sync::LazyLock::new(cann_runtime::cache::clock::system_now);

pub fn t0() -> Nanos {
    *T0_CELL
}

pub fn tmp() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("cache-test")
        .tempdir()
        .unwrap()
}

pub fn dir_of(t: &tempfile::TempDir) -> CacheDir {
    CacheDir::explicit(t.path().join("cache")).unwrap()
}

pub fn open_with(dir: &CacheDir, clock: Arc<dyn Clock>, max_mb: Option<u32>, ratio: u8) -> Cache {
    let max = max_mb.map_or(MaxSize::AgingOff, MaxSize::Mb);
    Cache::open(
        dir,
        OpenOptions {
            limits: Limits::fixed(max, ratio),
            clock,
            durable: false,
            fault_hook: None,
        },
    )
    .unwrap()
}

pub fn manual(dir: &CacheDir, max_mb: Option<u32>, ratio: u8) -> (Cache, ManualClock) {
    let clock = ManualClock::new(t0());
    (
        open_with(dir, Arc::new(clock.clone()), max_mb, ratio),
        clock,
    )
}

pub fn kc(dir: &CacheDir) -> PathBuf {
    dir.kernel_cache()
}

/// Sets atime and mtime of a file (without following a symlink).
pub fn age_file(path: &Path, at: Nanos) {
    cann_runtime::cache::set_file_times(path, at, at).unwrap();
}

/// Writes a CANN-style entry by hand, as the real compiler would: `<stem>.json` naming
/// `<stem>.o`, `size` bytes of binary.
pub fn write_cann_entry(dir: &Path, stem: &str, size: usize) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(format!("{stem}.o")), vec![7u8; size]).unwrap();
    let m = format!(
        r#"{{"binFileName":"{stem}","binFileSuffix":".o","kernelName":"{stem}","sha256":"00"}}"#
    );
    std::fs::write(dir.join(format!("{stem}.json")), m).unwrap();
}

/// Writes a mixed kernel: `<stem>.json` with a `jsonList` of the aic/aiv parts.
pub fn write_mix_entry(dir: &Path, stem: &str, size: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for part in ["mix_aic", "mix_aiv"] {
        std::fs::write(dir.join(format!("{stem}_{part}.o")), vec![1u8; size]).unwrap();
        let m = format!(r#"{{"binFileName":"{stem}_{part}","binFileSuffix":".o"}}"#);
        std::fs::write(dir.join(format!("{stem}_{part}.json")), m).unwrap();
    }
    let m = format!(
        r#"{{"jsonList":[{{"jsonFileName":"{stem}_mix_aic.json"}},{{"jsonFileName":"{stem}_mix_aiv.json"}}]}}"#
    );
    std::fs::write(dir.join(format!("{stem}.json")), m).unwrap();
}

/// Sets every file of a hand-written entry to `at`.
pub fn age_entry(dir: &Path, stem: &str, at: Nanos) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap().to_str().unwrap().starts_with(stem) {
            age_file(&p, at);
        }
    }
}

pub fn atime_of(path: &Path) -> Nanos {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::symlink_metadata(path).unwrap();
    m.atime() * 1_000_000_000 + m.atime_nsec()
}

/// Payload that carries its own key and sequence number and a checksum, so a reader can tell
/// a torn or mixed-up binary from a good one.
pub fn payload(key: &str, seq: u64) -> Vec<u8> {
    let mut v = format!("key={key};seq={seq};").into_bytes();
    v.extend(std::iter::repeat_n(
        (seq % 251) as u8,
        1000 + (seq as usize % 7) * 3000,
    ));
    let sum = v.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    });
    v.extend_from_slice(&sum.to_le_bytes());
    v
}

/// Checks a payload; returns its sequence number.
pub fn check_payload(key: &str, data: &[u8]) -> Result<u64, String> {
    if data.len() < 8 {
        return Err("short".into());
    }
    let (body, sum) = data.split_at(data.len() - 8);
    let want = body.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    });
    if sum != want.to_le_bytes() {
        return Err("checksum".into());
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned();
    let prefix = format!("key={key};seq=");
    let rest = text
        .strip_prefix(&prefix)
        .ok_or_else(|| format!("wrong key in {text:.40}"))?;
    rest.split(';')
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| "no seq".into())
}

pub mod cann;
