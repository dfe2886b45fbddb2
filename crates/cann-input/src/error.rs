//! What can go wrong reading an input, with the path and the place.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::text::Position;

/// What a path turned out to be, when it is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Directory,
    Fifo,
    CharDevice,
    BlockDevice,
    Socket,
    Symlink,
    Other,
}

impl FileKind {
    /// The kind of `ft`, or `None` for a regular file.
    pub fn of(ft: std::fs::FileType) -> Option<Self> {
        if ft.is_file() {
            return None;
        }
        if ft.is_dir() {
            return Some(Self::Directory);
        }
        if ft.is_symlink() {
            return Some(Self::Symlink);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if ft.is_fifo() {
                return Some(Self::Fifo);
            }
            if ft.is_char_device() {
                return Some(Self::CharDevice);
            }
            if ft.is_block_device() {
                return Some(Self::BlockDevice);
            }
            if ft.is_socket() {
                return Some(Self::Socket);
            }
        }
        Some(Self::Other)
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::msg::kind(*self, crate::Lang::En))
    }
}

/// Why an input was not read. Every variant names the path; English text by `Display`,
/// either language by [`InputError::message`].
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The path could not be opened (missing, no permission, ...).
    #[error("{}", self.message(crate::Lang::En))]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The path is not a regular file.
    #[error("{}", self.message(crate::Lang::En))]
    NotRegular { path: PathBuf, kind: FileKind },
    /// More than `limit` bytes were read.
    #[error("{}", self.message(crate::Lang::En))]
    TooLarge { path: PathBuf, limit: u64 },
    /// Reading failed part way.
    #[error("{}", self.message(crate::Lang::En))]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The bytes are not UTF-8; `at` is the first bad byte.
    #[error("{}", self.message(crate::Lang::En))]
    NotUtf8 { path: PathBuf, at: Position },
}

impl InputError {
    /// The file the error is about (`-` for standard input).
    pub fn path(&self) -> &Path {
        match self {
            Self::Open { path, .. }
            | Self::NotRegular { path, .. }
            | Self::TooLarge { path, .. }
            | Self::Read { path, .. }
            | Self::NotUtf8 { path, .. } => path,
        }
    }

    /// Where in the file, when the error has a place.
    pub fn position(&self) -> Option<Position> {
        match self {
            Self::NotUtf8 { at, .. } => Some(*at),
            _ => None,
        }
    }

    /// True when the path does not exist (callers with optional files skip those).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Open { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }

    /// The error in `lang`, starting with the path (and line:column where there is one).
    pub fn message(&self, lang: crate::Lang) -> String {
        crate::msg::message(self, lang)
    }

    /// The error in `lang` without the path, for a caller that places it itself.
    pub fn reason(&self, lang: crate::Lang) -> String {
        crate::msg::reason(self, lang)
    }

    /// What the user can do about it, in `lang`.
    pub fn hint(&self, lang: crate::Lang) -> Option<String> {
        crate::msg::hint(self, lang)
    }
}
