//! The one way the tools read an input file.
//!
//! Every config, script, ini file, trace, snapshot, buffer list and spec file goes through
//! [`read_bytes`] or [`read_text`]:
//!
//! - the path is opened with `O_NONBLOCK`, so a FIFO with no writer cannot block the open,
//!   and with `O_NOFOLLOW` when the caller asks ([`Limits::no_follow`]);
//! - what was opened must be a regular file; a directory, FIFO, device or socket is refused
//!   with its kind named ([`FileKind`]); `-` means standard input;
//! - bytes are read under a cap on what is *actually read*, not on the size the file system
//!   reports (`/dev/zero` and `/proc` files report 0);
//! - text must be UTF-8, and a bad byte is reported by byte offset, line and column; a
//!   leading byte-order mark can be dropped.
//!
//! Errors are typed ([`InputError`]) and carry the path and, where there is one, the place.
//! Their texts exist in English and Chinese ([`InputError::message`]).

mod error;
mod msg;
mod open;
mod text;

pub use error::{FileKind, InputError};
pub use msg::{io_reason, Lang};
pub use open::{is_stdin, read_bytes, read_capped, read_file, STDIN};
pub use text::{decode_utf8, position_of, read_text, Position, BOM};

/// How a file may be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Reading more than this many bytes is an error ([`InputError::TooLarge`]).
    pub max_bytes: u64,
    /// Refuse a path whose last component is a symbolic link (`O_NOFOLLOW`).
    pub no_follow: bool,
    /// Drop a leading UTF-8 byte-order mark from text.
    pub strip_bom: bool,
}

impl Limits {
    /// At most `max_bytes`, symbolic links followed, a byte-order mark dropped.
    pub const fn new(max_bytes: u64) -> Self {
        Self {
            max_bytes,
            no_follow: false,
            strip_bom: true,
        }
    }

    /// The same, refusing a symbolic link at the path itself.
    pub const fn no_follow(self) -> Self {
        Self {
            no_follow: true,
            ..self
        }
    }

    /// The same, keeping a leading byte-order mark in text.
    pub const fn keep_bom(self) -> Self {
        Self {
            strip_bom: false,
            ..self
        }
    }
}

/// The name to show a user for `path`: the path itself, or `<stdin>` for `-`.
pub fn display_name(path: &std::path::Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}
