//! `get`: the hit path. Reads the manifest and its binaries without moving any atime, then
//! stamps the manifest's access time explicitly (unless aging is off).

use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use crate::cache::entries::key::Key;
use crate::cache::entries::manifest::read_manifest;
use crate::cache::entries::manifest::Manifest;
use crate::cache::error::Result;
use crate::cache::ops::core::Core;
use crate::cache::sys::fsx;

/// A found entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The manifest bytes.
    pub manifest: Vec<u8>,
    /// Each binary of the entry (one, or one per `jsonList` part), by file name.
    pub binaries: Vec<(String, Vec<u8>)>,
}

/// Why a lookup found nothing usable. Every case means "compile and put again".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Miss {
    /// No manifest.
    Absent,
    /// Committed before the last `force` or version change.
    Invalidated,
    /// The manifest or a file it names is unreadable, missing, a symlink or the wrong size:
    /// a foreign torn write, or an entry being aged right now.
    Unusable(String),
}

/// Result of [`Cache::get`](crate::cache::Cache::get).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    Hit(Entry),
    Miss(Miss),
}

/// Kernel binaries without a size in their manifest are read up to this.
const BINARY_MAX_BYTES: u64 = 4 * 1024 * 1024 * 1024;

impl Core {
    /// Looks `key` up. A hit reads the manifest and its binaries and stamps the manifest's
    /// access time (unless aging is off); everything else is a [`Miss`], never an error,
    /// except I/O failures other than "not found".
    pub(crate) fn get(&self, key: &str) -> Result<Lookup> {
        let key = Key::parse(key)?;
        let mut tries = 0;
        loop {
            let (found, ino) = self.get_once(&key)?;
            tries += 1;
            // A replacement committed between our manifest read and our binary read has
            // reclaimed the binary we were told about: the new manifest names the new one.
            let replaced = matches!(found, Lookup::Miss(Miss::Unusable(_)))
                && ino != 0
                && fsx::lstat_at(self.kc.as_fd(), key.manifest_rel.as_ref())
                    .is_ok_and(|st| st.st_ino != ino);
            if !replaced || tries == 3 {
                return Ok(found);
            }
        }
    }

    /// One lookup; also returns the inode of the manifest it read (0 when none).
    fn get_once(&self, key: &Key) -> Result<(Lookup, u64)> {
        let mfd = match fsx::open_read_noatime(self.kc.as_fd(), Path::new(&key.manifest_rel)) {
            Ok(fd) => fd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Lookup::Miss(Miss::Absent), 0))
            }
            Err(e) => return Ok((Lookup::Miss(Miss::Unusable(format!("manifest: {e}"))), 0)),
        };
        let ino = rustix::fs::fstat(&mfd).map_or(0, |st| st.st_ino);
        Ok((self.serve(key, &mfd)?, ino))
    }

    /// The hit path once the manifest is open.
    fn serve(&self, key: &Key, mfd: &OwnedFd) -> Result<Lookup> {
        let mbytes = match read_manifest(mfd, &key.manifest_rel) {
            Ok(b) => b,
            Err(e) => return Ok(Lookup::Miss(Miss::Unusable(format!("manifest: {e}")))),
        };
        let m = match Manifest::parse(&mbytes) {
            Ok(m) => m,
            Err(e) => return Ok(Lookup::Miss(Miss::Unusable(format!("{e:?}")))),
        };
        let epoch = self.epoch_ns();
        if epoch > 0 {
            let committed = match m.own {
                Some(o) => o.committed_ns,
                None => rustix::fs::fstat(mfd)
                    .map(|st| fsx::mtime_ns(&st))
                    .unwrap_or(0),
            };
            if committed < epoch {
                return Ok(Lookup::Miss(Miss::Invalidated));
            }
        }
        let mut binaries = Vec::with_capacity(1);
        let names = match (m.bin_name(), m.sub_manifests()) {
            (Ok(b), Ok(subs)) => (b, subs),
            (Err(e), _) | (_, Err(e)) => return Ok(Lookup::Miss(Miss::Unusable(format!("{e:?}")))),
        };
        if let Some(bin) = names.0 {
            match self.read_sibling(key, &bin, m.own.map(|o| o.bin_size)) {
                Ok(data) => binaries.push((bin, data)),
                Err(why) => return Ok(Lookup::Miss(Miss::Unusable(why))),
            }
        }
        for sub in names.1 {
            let part = match self
                .read_sibling(key, &sub, None)
                .and_then(|b| Manifest::parse(&b).map_err(|e| format!("{sub}: {e:?}")))
            {
                Ok(p) => p,
                Err(why) => return Ok(Lookup::Miss(Miss::Unusable(why))),
            };
            if let Ok(Some(bin)) = part.bin_name() {
                match self.read_sibling(key, &bin, None) {
                    Ok(data) => binaries.push((bin, data)),
                    Err(why) => return Ok(Lookup::Miss(Miss::Unusable(why))),
                }
            }
        }
        if self.opts.limits.aging_enabled() {
            let at = if self.opts.clock.is_system() {
                None
            } else {
                Some(self.now())
            };
            // Failure (a foreign file we may not stamp) only costs recency, never the hit.
            let _ = fsx::stamp_atime(mfd.as_fd(), at);
        }
        Ok(Lookup::Hit(Entry {
            manifest: mbytes,
            binaries,
        }))
    }

    fn read_sibling(
        &self,
        key: &Key,
        name: &str,
        expect: Option<u64>,
    ) -> std::result::Result<Vec<u8>, String> {
        let fd = fsx::open_read_noatime(self.kc.as_fd(), &key.sibling(name))
            .map_err(|e| format!("{name}: {e}"))?;
        // A regular file only (a FIFO would read as an empty kernel), never more than
        // the manifest says.
        let cap = cann_input::Limits::new(expect.unwrap_or(BINARY_MAX_BYTES));
        let file = fd.try_clone().map_err(|e| format!("{name}: {e}"))?;
        let data = cann_input::read_file(std::fs::File::from(file), Path::new(name), cap)
            .map_err(|e| e.to_string())?;
        match expect {
            Some(n) if n != data.len() as u64 => {
                Err(format!("{name}: {} bytes, manifest says {n}", data.len()))
            }
            _ => Ok(data),
        }
    }
}
