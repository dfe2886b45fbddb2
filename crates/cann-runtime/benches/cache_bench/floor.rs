//! The floors and the reference the benchmarks are held against: the bare system calls a
//! pass cannot avoid, and upstream's hit path.

use std::path::{Path, PathBuf};

use criterion::black_box;

use cann_runtime::cache::CacheDir;

use crate::fixtures::key;

pub(crate) fn files_of(dir: &CacheDir, manifest_rel: &str) -> Vec<PathBuf> {
    let m = dir.kernel_cache().join(manifest_rel);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&m).unwrap()).unwrap();
    let bin = format!(
        "{}{}",
        v["binFileName"].as_str().unwrap(),
        v["binFileSuffix"].as_str().unwrap()
    );
    vec![m.clone(), m.with_file_name(bin)]
}

/// The floor of a first pass: what any ager must do to know sizes and binaries and free them.
pub(crate) fn floor_pass(dir: &Path, victims: &std::collections::HashSet<PathBuf>) -> usize {
    let mut unlinked = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_some_and(|x| x == "json") {
                let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap())
                    .unwrap_or(serde_json::Value::Null);
                black_box(v);
            }
            if victims.contains(&p) {
                std::fs::remove_file(&p).unwrap();
                unlinked += 1;
            }
        }
    }
    unlinked
}

/// The bin name is derived from the manifest in the floor loop too, but only as bytes read:
/// the floor is "open + read the manifest, open + read the binary".
pub(crate) fn files_of_fast(dir: &CacheDir, i: usize) -> Vec<PathBuf> {
    let m = dir.kernel_cache().join(format!("{}.json", key(i)));
    let text = std::fs::read(&m).unwrap_or_default();
    let start = text
        .windows(14)
        .position(|w| w == b"\"binFileName\":")
        .map_or(0, |p| p + 15);
    let end = text[start..]
        .iter()
        .position(|b| *b == b'"')
        .map_or(start, |e| start + e);
    vec![m.with_file_name(format!("{}.o", String::from_utf8_lossy(&text[start..end])))]
}

/// Upstream's hit: open, read and parse the manifest, then open and read the binary; recency
/// is left to the kernel's atime.
pub(crate) fn reference_hit(dir: &CacheDir, i: usize) -> Option<Vec<u8>> {
    let m = dir.kernel_cache().join(format!("{}.json", key(i)));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&m).ok()?).ok()?;
    let bin = format!(
        "{}{}",
        v["binFileName"].as_str()?,
        v["binFileSuffix"].as_str()?
    );
    std::fs::read(m.with_file_name(bin)).ok()
}

/// The floor of any walk: every directory read, every name seen once.
pub(crate) fn walk_names(dir: &CacheDir) -> usize {
    let mut names = 0usize;
    let mut stack = vec![dir.kernel_cache()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
            names += 1;
        }
    }
    names
}
