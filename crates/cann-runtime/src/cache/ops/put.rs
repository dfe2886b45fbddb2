//! `put`: an atomic commit of one entry (binary, then manifest by rename), then its
//! accounting.

use std::os::fd::AsFd;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{Mode, OFlags};

use crate::cache::entries::files;
use crate::cache::entries::key::Key;
use crate::cache::entries::manifest::read_small;
use crate::cache::entries::manifest::{self, Manifest, OwnMeta};
use crate::cache::error::CommitStep;
use crate::cache::error::{CacheError, IoOp, KeyProblem, Result};
use crate::cache::ops::core::{io_err, Core};
use crate::cache::state::index::{self, IndexRec};
use crate::cache::sys::fsx;

/// Result of [`Cache::put`](crate::cache::Cache::put).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PutOutcome {
    /// Bytes the new entry occupies.
    pub bytes: u64,
    /// The ledger total reached the limit: the caller may start aging (never required).
    pub over_limit: bool,
}

static NONCE: AtomicU64 = AtomicU64::new(0);

impl Core {
    /// Stores `bin` under `key` as `<key>.json` + a binary with suffix `suffix` (CANN uses
    /// `.o`). `extra` fields are copied into the manifest. Concurrent puts of the same key are
    /// safe: the last manifest rename wins and the loser's binary becomes an orphan.
    pub(crate) fn put(
        &self,
        key: &str,
        bin: &[u8],
        suffix: &str,
        extra: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> Result<PutOutcome> {
        self.writable()?;
        let key = Key::parse(key)?;
        if !manifest::is_plain_name(suffix) && !suffix.is_empty() {
            return Err(CacheError::BadKey {
                key: suffix.to_owned(),
                why: KeyProblem::BadSuffix,
            });
        }
        let kcp = self.dir.kernel_cache();
        let dirs_before = self.dirs_snapshot();
        let dirfd = fsx::make_dirs(self.kc.as_fd(), &key.dir)
            .map_err(io_err(IoOp::CreateDirectoryIn, &kcp))?;
        let d = dirfd.as_fd();
        let now = self.now();
        let nonce = NONCE.fetch_add(1, Ordering::Relaxed);
        let bin_file_name = format!(
            "{}.{:x}{:x}{nonce:x}",
            key.stem,
            now as u64,
            std::process::id()
        );
        let bin_full = format!("{bin_file_name}{suffix}");
        let durable = self.opts.durable;

        let tmp = fsx::write_tmp(d, &bin_full, bin, durable)
            .map_err(io_err(IoOp::WriteBinaryIn, &kcp))?;
        self.hook(CommitStep::BinWritten)?;
        rustix::fs::renameat(d, tmp.as_str(), d, bin_full.as_str())
            .map_err(|e| CacheError::io(IoOp::RenameBinaryIn, &kcp, e.into()))?;
        self.hook(CommitStep::BinRenamed)?;

        // The entry being replaced, if any: its manifest bytes leave the ledger, its files
        // become orphans (still readable by anyone holding the old manifest).
        let old = read_small(d, &format!("{}{}", key.stem, manifest::MANIFEST_SUFFIX));
        let meta = OwnMeta {
            committed_ns: now,
            bin_size: bin.len() as u64,
        };
        let mbytes = manifest::own_manifest(&key.stem, &bin_file_name, suffix, meta, extra);
        let mname = format!("{}{}", key.stem, manifest::MANIFEST_SUFFIX);
        let commit = (|| -> Result<()> {
            let mtmp = fsx::write_tmp(d, &mname, &mbytes, durable)
                .map_err(io_err(IoOp::WriteManifestIn, &kcp))?;
            self.hook(CommitStep::ManifestWritten)?;
            rustix::fs::renameat(d, mtmp.as_str(), d, mname.as_str())
                .map_err(|e| CacheError::io(IoOp::CommitManifestIn, &kcp, e.into()))?;
            if durable {
                rustix::fs::fsync(d)
                    .map_err(|e| CacheError::io(IoOp::SyncDirectoryIn, &kcp, e.into()))?;
            }
            Ok(())
        })();
        if let Err(e) = commit {
            if !matches!(e, CacheError::Aborted(_)) {
                let _ = fsx::unlink_at(d, bin_full.as_ref());
            }
            return Err(e);
        }
        let dirs = self.dirs_span(&dirs_before, [key.dir.as_path()]);
        self.hook(CommitStep::Committed)?;
        if !self.opts.clock.is_system() {
            // Creation counts as an access; with an injected clock the kernel's creation
            // stamp would disagree with it, so stamp the injected time.
            if let Ok(fd) = fsx::open_beneath(d, Path::new(&mname), OFlags::RDONLY, Mode::empty()) {
                let _ = fsx::stamp_atime(fd.as_fd(), Some(now));
            }
        }

        // The entry being replaced: its manifest was just overwritten, so no manifest names
        // its files any more; they go now instead of lingering as orphans. A reader that read
        // the old manifest and finds its binary gone looks the key up again (see `get`).
        let mut replaced_bytes = 0u64;
        if let Some(old_bytes) = &old {
            replaced_bytes = old_bytes.len() as u64;
            if let Ok(m) = Manifest::parse(old_bytes) {
                let files = files::named_present(d, &m);
                replaced_bytes += files::reclaim(d, &files, &|n| n == bin_full);
            }
        }
        let bytes = bin.len() as u64 + mbytes.len() as u64;
        let rec = IndexRec {
            committed_ns: now,
            access_ns: now,
            bytes,
            files: vec![bin_full],
            stamp: fsx::lstat_at(d, mname.as_ref())
                .map(|st| index::Stamp::of(&st))
                .unwrap_or_default(),
        };
        let total = self.account(&key.manifest_rel, &rec, replaced_bytes, old.is_some(), dirs)?;
        Ok(PutOutcome {
            bytes,
            over_limit: self.opts.limits.over_limit(total),
        })
    }
}
