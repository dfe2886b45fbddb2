//! Opening a path safely and reading it under a cap.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::{FileKind, InputError, Limits};

/// The path that means standard input.
pub const STDIN: &str = "-";

/// Most of a file is read in one allocation; past this, the vector grows as bytes arrive,
/// so a file that lies about its size cannot make us reserve its claimed size.
const PREALLOC_MAX: u64 = 16 * 1024 * 1024;

/// True when `path` is `-`, standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}

/// Reads all of `path` (or standard input for `-`) under `limits`.
pub fn read_bytes(path: &Path, limits: Limits) -> Result<Vec<u8>, InputError> {
    if is_stdin(path) {
        return read_capped(std::io::stdin().lock(), path, limits.max_bytes, 0);
    }
    refuse_special(path, limits)?;
    let file = open(path, limits)?;
    read_file(file, path, limits)
}

/// Reads an already opened file (a caller that opens with `openat` beneath a directory
/// still gets the regular-file check and the cap). `path` names it in errors.
pub fn read_file(file: File, path: &Path, limits: Limits) -> Result<Vec<u8>, InputError> {
    let meta = file.metadata().map_err(|source| InputError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if let Some(kind) = FileKind::of(meta.file_type()) {
        return Err(InputError::NotRegular {
            path: path.to_path_buf(),
            kind,
        });
    }
    // The reported size only lets us refuse early; the cap below is what holds.
    if meta.len() > limits.max_bytes {
        return Err(too_large(path, limits.max_bytes));
    }
    read_capped(file, path, limits.max_bytes, meta.len())
}

/// Reads `reader` to its end, failing once more than `max_bytes` have actually arrived.
/// `size_hint` (the reported size, or 0) only sizes the first allocation.
pub fn read_capped(
    reader: impl Read,
    path: &Path,
    max_bytes: u64,
    size_hint: u64,
) -> Result<Vec<u8>, InputError> {
    let first = size_hint.min(max_bytes).min(PREALLOC_MAX);
    let mut bytes = Vec::with_capacity(usize::try_from(first).unwrap_or(0).saturating_add(1));
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| InputError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(path, max_bytes));
    }
    Ok(bytes)
}

fn too_large(path: &Path, limit: u64) -> InputError {
    InputError::TooLarge {
        path: path.to_path_buf(),
        limit,
    }
}

/// Refuses what `stat` already shows is not a regular file, before opening it: opening
/// some devices has effects (a tape rewinds, a modem line is raised). The check after
/// opening, on the descriptor, is the one that cannot be raced.
fn refuse_special(path: &Path, limits: Limits) -> Result<(), InputError> {
    let meta = if limits.no_follow {
        std::fs::symlink_metadata(path)
    } else {
        std::fs::metadata(path)
    };
    match meta {
        Ok(m) => match FileKind::of(m.file_type()) {
            Some(kind) => Err(InputError::NotRegular {
                path: path.to_path_buf(),
                kind,
            }),
            None => Ok(()),
        },
        // Let the open report it, with the system's own reason.
        Err(_) => Ok(()),
    }
}

#[cfg(unix)]
fn open(path: &Path, limits: Limits) -> Result<File, InputError> {
    use rustix::fs::OFlags;
    use std::os::unix::fs::OpenOptionsExt;

    let mut flags = OFlags::NONBLOCK | OFlags::NOCTTY;
    if limits.no_follow {
        flags |= OFlags::NOFOLLOW;
    }
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
        .map_err(|source| open_error(path, limits, source))
}

#[cfg(not(unix))]
fn open(path: &Path, limits: Limits) -> Result<File, InputError> {
    File::open(path).map_err(|source| open_error(path, limits, source))
}

/// A failed open, named by what the path is when that explains it: `O_NOFOLLOW` on a link
/// fails with ELOOP, a socket with ENXIO.
fn open_error(path: &Path, limits: Limits, source: std::io::Error) -> InputError {
    let kind = std::fs::symlink_metadata(path)
        .ok()
        .and_then(|m| FileKind::of(m.file_type()));
    match kind {
        Some(FileKind::Symlink) if limits.no_follow => InputError::NotRegular {
            path: path.to_path_buf(),
            kind: FileKind::Symlink,
        },
        Some(k) if k != FileKind::Symlink => InputError::NotRegular {
            path: path.to_path_buf(),
            kind: k,
        },
        _ => InputError::Open {
            path: path.to_path_buf(),
            source,
        },
    }
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The check before opening can be raced (the path swapped for a FIFO after `stat`);
    /// the open itself must then not wait for a writer, and the descriptor check refuses.
    #[test]
    fn opening_a_fifo_does_not_wait_for_a_writer() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("pipe");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &p,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .unwrap();
        let f = open(&p, Limits::new(10)).unwrap();
        let e = read_file(f, &p, Limits::new(10)).unwrap_err();
        assert!(
            matches!(
                e,
                InputError::NotRegular {
                    kind: FileKind::Fifo,
                    ..
                }
            ),
            "{e:?}"
        );
    }
}
