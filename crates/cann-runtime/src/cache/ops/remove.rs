//! `remove`: one entry, manifest first, then the files it names.

use std::os::fd::AsFd;

use crate::cache::entries::files;
use crate::cache::entries::manifest::{read_small, Manifest, MANIFEST_SUFFIX};
use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::ops::core::Core;
use crate::cache::state::index;
use crate::cache::sys::fsx;

impl Core {
    /// Removes one entry (manifest first, then its files) and accounts for it.
    pub(crate) fn remove(&self, key: &str) -> Result<bool> {
        self.writable()?;
        let key = crate::cache::entries::key::Key::parse(key)?;
        let dirfd = match fsx::open_dir(self.kc.as_fd(), &key.dir) {
            Ok(fd) => fd,
            Err(_) => return Ok(false),
        };
        let mname = format!("{}{}", key.stem, MANIFEST_SUFFIX);
        let Some(text) = read_small(dirfd.as_fd(), &mname) else {
            return Ok(false);
        };
        let kcp = self.dir.kernel_cache();
        let dirs_before = self.dirs_snapshot();
        if !fsx::unlink_at(dirfd.as_fd(), mname.as_ref())
            .map_err(|e| CacheError::io(IoOp::Remove, &kcp, e))?
        {
            return Ok(false);
        }
        let mut freed = text.len() as u64;
        if let Ok(m) = Manifest::parse(&text) {
            let files = files::named_present(dirfd.as_fd(), &m);
            freed += files::reclaim(dirfd.as_fd(), &files, &|_| false);
        }
        let dirs = self.dirs_span(&dirs_before, [key.dir.as_path()]);
        let guard = self
            .state
            .lock()
            .map_err(|e| CacheError::io(IoOp::LockLedgerIn, &self.dir.base, e))?;
        let mut l = self.read_ledger()?.unwrap_or_default();
        l.advance_dirs(dirs);
        l.total_bytes = l.total_bytes.saturating_sub(freed);
        l.entries = l.entries.saturating_sub(1);
        let line = index::del_line(&key.manifest_rel);
        self.state
            .append_index(&guard, &line)
            .map_err(|e| CacheError::io(IoOp::AppendIndexIn, &self.dir.base, e))?;
        l.total_bytes = l.total_bytes.saturating_add(line.len() as u64);
        self.state
            .write_ledger(&guard, &l)
            .map_err(|e| CacheError::io(IoOp::WriteLedgerIn, &self.dir.base, e))?;
        Ok(true)
    }
}
