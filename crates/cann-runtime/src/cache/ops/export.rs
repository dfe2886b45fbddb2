//! What a shared tier (`cann-cache-remote`) needs from a local cache, and nothing more: the
//! entries valid now, each entry's exact bytes read without moving an access time, and a
//! commit of exact bytes brought from elsewhere.
//!
//! [`Cache::commit_exact`](crate::cache::Cache::commit_exact) (and [`Cache::commit_exact_batch`], in `commit`) keeps the local commit order (every named file first, each by
//! rename; the manifest last, by a rename that never replaces one), so CANN, which reads the
//! directory, only ever sees whole entries. Unlike [`Cache::put`] it keeps the names and bytes
//! it is given: an entry pulled onto a node is byte for byte the one pushed.

use std::collections::BTreeMap;
use std::os::fd::AsFd;

use crate::cache::entries::key::Key;
use crate::cache::entries::manifest::{self, Manifest};
use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::ops::core::Core;
use crate::cache::scan;
use crate::cache::sys::fsx;
use crate::cache::sys::progress::Progress;

/// A whole entry that the current invalidation epoch still serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveEntry {
    /// The key (`Ascend910B/kernel_meta/te_add_1a2b`: the manifest path without `.json`).
    pub key: String,
    /// Bytes of the manifest and every file it names.
    pub bytes: u64,
}

/// An entry's bytes: the manifest and each file it names (sub-manifests and binaries), by
/// file name in the manifest's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactEntry {
    pub manifest: Vec<u8>,
    pub files: BTreeMap<String, Vec<u8>>,
}

impl ExactEntry {
    /// The entry's binaries (not its manifests), in manifest order: the bytes a shared tier
    /// classifies by format. `None` when the manifest does not name its files coherently.
    pub fn binaries(&self) -> Option<Vec<&[u8]>> {
        let names = named_files(&self.manifest, |n| {
            self.files.get(n).cloned().ok_or_else(String::new)
        })
        .ok()?;
        names
            .iter()
            .filter(|(_, is_manifest)| !is_manifest)
            .map(|(n, _)| self.files.get(n).map(Vec::as_slice))
            .collect()
    }
}

/// Result of [`Cache::commit_exact`](crate::cache::Cache::commit_exact).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExactCommit {
    /// The entry is now visible; it occupies this many bytes.
    Committed(u64),
    /// The cache already has a manifest for this key: nothing was replaced.
    Present,
}

/// Largest file of an entry this reads or commits (CANN kernels are kilobytes to megabytes).
pub const EXACT_FILE_MAX: u64 = 1024 * 1024 * 1024;
const MANIFEST_MAX: u64 = 64 * 1024 * 1024;

impl Core {
    /// Every whole entry the current epoch serves (not torn, not invalidated by `force` or a
    /// toolkit version change), sorted by key. Reads manifests without moving access times.
    pub(crate) fn live_entries(&self, progress: &dyn Progress) -> Result<Vec<LiveEntry>> {
        let sc = scan::walk(
            self.kc.as_fd(),
            &BTreeMap::new(),
            scan::Known::Ignore,
            progress,
        )
        .map_err(|e| CacheError::io(IoOp::Scan, self.dir.kernel_cache(), e))?;
        let epoch = self.epoch_ns();
        Ok(sc
            .entries
            .into_iter()
            .filter(|(_, r)| r.committed_ns >= epoch)
            .filter_map(|(rel, r)| {
                let key = rel.strip_suffix(manifest::MANIFEST_SUFFIX)?;
                Key::parse(key).ok()?;
                Some(LiveEntry {
                    key: key.to_owned(),
                    bytes: r.bytes,
                })
            })
            .collect())
    }

    /// Reads `key`'s manifest and every file it names, without stamping any access time
    /// (a copy is not a use). `Ok(Err(why))` when the entry is absent or not whole now.
    pub(crate) fn read_exact(&self, key: &str) -> Result<std::result::Result<ExactEntry, String>> {
        let key = Key::parse(key)?;
        let read = |name: &str, cap: u64| -> std::result::Result<Vec<u8>, String> {
            let rel = key.sibling(name);
            let fd = fsx::open_read_noatime(self.kc.as_fd(), &rel)
                .map_err(|e| format!("{}: {e}", rel.display()))?;
            let file = std::fs::File::from(fd);
            cann_input::read_file(file, &rel, cann_input::Limits::new(cap))
                .map_err(|e| e.to_string())
        };
        let mname = format!("{}{}", key.stem, manifest::MANIFEST_SUFFIX);
        let mbytes = match read(&mname, MANIFEST_MAX) {
            Ok(b) => b,
            Err(why) => return Ok(Err(why)),
        };
        let mut files = BTreeMap::new();
        for (name, is_manifest) in match named_files(&mbytes, |n| read(n, MANIFEST_MAX)) {
            Ok(n) => n,
            Err(why) => return Ok(Err(why)),
        } {
            let cap = if is_manifest {
                MANIFEST_MAX
            } else {
                EXACT_FILE_MAX
            };
            match read(&name, cap) {
                Ok(b) => files.insert(name, b),
                Err(why) => return Ok(Err(why)),
            };
        }
        // Our own manifests record the binary's size: a binary cut short is not an entry.
        if let Ok(m) = Manifest::parse(&mbytes) {
            let bin = m.bin_name().ok().flatten();
            if let (Some(own), Some(data)) = (m.own, bin.and_then(|b| files.get(&b))) {
                if data.len() as u64 != own.bin_size {
                    return Ok(Err(format!(
                        "binary has {} bytes, manifest says {}",
                        data.len(),
                        own.bin_size
                    )));
                }
            }
        }
        Ok(Ok(ExactEntry {
            manifest: mbytes,
            files,
        }))
    }

    /// The first `n` bytes of each binary `key`'s manifest names (not the whole files: what
    /// a shared tier needs to tell an entry's binary format before deciding to read it), in
    /// manifest order, without stamping any access time. `Ok(Err(why))` as [`Cache::read_exact`].
    pub(crate) fn read_heads(
        &self,
        key: &str,
        n: usize,
    ) -> Result<std::result::Result<Vec<Vec<u8>>, String>> {
        use std::io::Read;
        let key = Key::parse(key)?;
        let open = |name: &str| {
            let rel = key.sibling(name);
            fsx::open_read_noatime(self.kc.as_fd(), &rel)
                .map(std::fs::File::from)
                .map_err(|e| format!("{}: {e}", rel.display()))
        };
        let read = |name: &str| -> std::result::Result<Vec<u8>, String> {
            let rel = key.sibling(name);
            cann_input::read_file(open(name)?, &rel, cann_input::Limits::new(MANIFEST_MAX))
                .map_err(|e| e.to_string())
        };
        let mname = format!("{}{}", key.stem, manifest::MANIFEST_SUFFIX);
        let mbytes = match read(&mname) {
            Ok(b) => b,
            Err(why) => return Ok(Err(why)),
        };
        let names = match named_files(&mbytes, read) {
            Ok(v) => v,
            Err(why) => return Ok(Err(why)),
        };
        let mut heads = Vec::new();
        for (name, _) in names.iter().filter(|(_, is_manifest)| !is_manifest) {
            let mut head = Vec::with_capacity(n);
            let got = open(name).and_then(|f| {
                f.take(n as u64)
                    .read_to_end(&mut head)
                    .map_err(|e| format!("{name}: {e}"))
            });
            if let Err(why) = got {
                return Ok(Err(why));
            }
            heads.push(head);
        }
        Ok(Ok(heads))
    }

    /// Commits an entry brought from elsewhere with exactly these names and bytes: a batch
    /// of one (see [`Cache::commit_exact_batch`]).
    pub(crate) fn commit_exact(&self, key: &str, entry: &ExactEntry) -> Result<ExactCommit> {
        let mut out = self.commit_exact_batch(&[(key, entry)])?;
        out.pop().unwrap_or(Ok(ExactCommit::Present))
    }
}

/// The files a manifest names, each with whether it is a sub-manifest: its binary, its
/// `jsonList` parts and each part's binary. `part` returns a part's bytes.
pub(crate) fn named_files(
    manifest: &[u8],
    part: impl Fn(&str) -> std::result::Result<Vec<u8>, String>,
) -> std::result::Result<Vec<(String, bool)>, String> {
    let m = Manifest::parse(manifest).map_err(|e| format!("manifest: {e:?}"))?;
    let mut out = Vec::new();
    if let Some(b) = m.bin_name().map_err(|e| format!("{e:?}"))? {
        out.push((b, false));
    }
    for sub in m.sub_manifests().map_err(|e| format!("{e:?}"))? {
        let bytes = part(&sub)?;
        let pm = Manifest::parse(&bytes).map_err(|e| format!("{sub}: {e:?}"))?;
        out.push((sub, true));
        if let Some(b) = pm.bin_name().map_err(|e| format!("{e:?}"))? {
            out.push((b, false));
        }
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::cache::Cache;
    use crate::cache::{CacheDir, NoProgress, OpenOptions};
    use std::path::Path;

    fn open(t: &tempfile::TempDir) -> Cache {
        Cache::open(
            &CacheDir::explicit(t.path()).unwrap(),
            OpenOptions::default(),
        )
        .unwrap()
    }

    fn cann_entry(dir: &Path, stem: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join(format!("{stem}.o")), b"\x7fELF kernel").unwrap();
        std::fs::write(
            dir.join(format!("{stem}.json")),
            format!(r#"{{"binFileName":"{stem}","binFileSuffix":".o","kernelName":"{stem}"}}"#),
        )
        .unwrap();
    }

    #[test]
    fn read_then_commit_is_byte_exact_and_never_replaces() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let src = open(&a);
        cann_entry(
            &a.path().join("kernel_cache/Ascend910B/kernel_meta"),
            "te_add_1",
        );
        let live = src.live_entries(&NoProgress).unwrap();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].key, "Ascend910B/kernel_meta/te_add_1");
        let e = src.read_exact(&live[0].key).unwrap().unwrap();
        assert_eq!(e.files.keys().collect::<Vec<_>>(), ["te_add_1.o"]);

        let dst = open(&b);
        let got = dst.commit_exact(&live[0].key, &e).unwrap();
        assert_eq!(got, ExactCommit::Committed(live[0].bytes));
        for f in ["te_add_1.o", "te_add_1.json"] {
            let rel = format!("kernel_cache/Ascend910B/kernel_meta/{f}");
            assert_eq!(
                std::fs::read(a.path().join(&rel)).unwrap(),
                std::fs::read(b.path().join(&rel)).unwrap()
            );
        }
        assert_eq!(
            dst.commit_exact(&live[0].key, &e).unwrap(),
            ExactCommit::Present
        );
        let v = dst.verify(&NoProgress).unwrap();
        assert!(
            v.torn.is_empty() && v.orphans.is_empty() && v.temporaries.is_empty(),
            "{v:?}"
        );
        assert!(v.ledger_matches, "{v:?}");
    }

    #[test]
    fn commit_refuses_files_the_manifest_does_not_name() {
        let t = tempfile::tempdir().unwrap();
        let c = open(&t);
        let mut e = ExactEntry {
            manifest: br#"{"binFileName":"k","binFileSuffix":".o"}"#.to_vec(),
            files: BTreeMap::from([("k.o".to_owned(), b"x".to_vec())]),
        };
        e.files.insert("other.o".into(), b"y".to_vec());
        assert!(c.commit_exact("soc/k", &e).is_err());
        e.files.remove("other.o");
        e.files.remove("k.o");
        assert!(c.commit_exact("soc/k", &e).is_err());
        e.manifest = br#"{"binFileName":"../k","binFileSuffix":".o"}"#.to_vec();
        e.files.insert("../k.o".into(), b"x".to_vec());
        assert!(c.commit_exact("soc/k", &e).is_err());
        assert!(!t.path().join("kernel_cache/soc/k.json").exists());
    }

    fn entry_of(c: &Cache, key: &str) -> ExactEntry {
        c.read_exact(key).unwrap().unwrap()
    }

    fn hit(c: &Cache, key: &str) -> Vec<(String, Vec<u8>)> {
        match c.get(key).unwrap() {
            crate::cache::Lookup::Hit(e) => e.binaries,
            other => panic!("{key}: {other:?}"),
        }
    }

    #[test]
    fn a_stale_or_torn_local_entry_is_replaced_and_a_serving_one_never() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let (src, dst) = (open(&a), open(&b));
        for k in ["soc/m/stale", "soc/m/torn", "soc/m/good"] {
            src.put(k, b"remote kernel", ".o", None).unwrap();
        }
        // The local stale entry: committed before this node's `force`.
        dst.put("soc/m/stale", b"old local kernel", ".o", None)
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        dst.invalidate_all().unwrap();
        dst.put("soc/m/good", b"local kernel", ".o", None).unwrap();
        let replace = |k: &str| {
            let got = dst.commit_exact(k, &entry_of(&src, k)).unwrap();
            assert!(matches!(got, ExactCommit::Committed(_)), "{k}: {got:?}");
            assert_eq!(hit(&dst, k)[0].1, b"remote kernel", "{k}");
        };
        replace("soc/m/stale");
        // The stale entry's own binary went with it; the totals follow exactly.
        let v = dst.verify(&NoProgress).unwrap();
        assert!(v.orphans.is_empty() && v.ledger_matches, "{v:?}");
        // A torn one: a CANN manifest whose binary never arrived.
        cann_entry(&b.path().join("kernel_cache/soc/m"), "torn");
        std::fs::remove_file(b.path().join("kernel_cache/soc/m/torn.o")).unwrap();
        replace("soc/m/torn");
        assert_eq!(
            dst.commit_exact("soc/m/good", &entry_of(&src, "soc/m/good"))
                .unwrap(),
            ExactCommit::Present
        );
        assert_eq!(hit(&dst, "soc/m/good")[0].1, b"local kernel");
        let v = dst.verify(&NoProgress).unwrap();
        assert!(
            v.torn.is_empty() && v.orphans.is_empty() && v.temporaries.is_empty(),
            "{v:?}"
        );
        assert_eq!(v.entries, 3, "{v:?}");
    }

    #[test]
    fn a_pulled_entry_is_committed_at_the_pull_not_at_the_push() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let src = open(&a);
        src.put("soc/m/early", b"kernel", ".o", None).unwrap();
        let e = entry_of(&src, "soc/m/early");
        // This node's epoch is after the push-side commit.
        std::thread::sleep(std::time::Duration::from_millis(5));
        let dst = open(&b);
        dst.invalidate_all().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(matches!(
            dst.commit_exact("soc/m/early", &e).unwrap(),
            ExactCommit::Committed(_)
        ));
        assert_eq!(hit(&dst, "soc/m/early")[0].1, b"kernel");
        let live: Vec<String> = dst
            .live_entries(&NoProgress)
            .unwrap()
            .into_iter()
            .map(|l| l.key)
            .collect();
        assert_eq!(live, ["soc/m/early"]);
        let m = Manifest::parse(&entry_of(&dst, "soc/m/early").manifest).unwrap();
        assert!(m.own.unwrap().committed_ns >= dst.epoch_ns());
        // CANN's own manifests arrive byte for byte.
        let raw = br#"{"binFileName":"k","binFileSuffix":".o","kernelName":"k"}"#;
        assert_eq!(manifest::restamp(raw, 7), raw.to_vec());
    }

    #[test]
    fn invalidated_entries_are_not_live() {
        let t = tempfile::tempdir().unwrap();
        let c = open(&t);
        c.put("soc/old", b"bin", ".o", None).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        c.invalidate_all().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        c.put("soc/new", b"bin", ".o", None).unwrap();
        let keys: Vec<String> = c
            .live_entries(&NoProgress)
            .unwrap()
            .into_iter()
            .map(|e| e.key)
            .collect();
        assert_eq!(keys, ["soc/new"]);
    }
}
