//! The texts of [`InputError`], from the `input` area of the shared catalog.

use cann_i18n::catalog::input as msg;
pub use cann_i18n::Lang;

use crate::{display_name, FileKind, InputError};

pub(crate) fn kind(k: FileKind, lang: Lang) -> String {
    match k {
        FileKind::Directory => msg::kind_directory(lang),
        FileKind::Fifo => msg::kind_fifo(lang),
        FileKind::CharDevice => msg::kind_char_device(lang),
        FileKind::BlockDevice => msg::kind_block_device(lang),
        FileKind::Socket => msg::kind_socket(lang),
        FileKind::Symlink => msg::kind_symlink(lang),
        FileKind::Other => msg::kind_other(lang),
    }
}

/// `path[:line:column]: reason`, the way compilers place a message. The place is not
/// translated (ASCII colons in both languages), so editors and `grep` find it.
pub(crate) fn message(e: &InputError, lang: Lang) -> String {
    let p = display_name(e.path());
    match e.position() {
        Some(at) => format!("{p}:{}:{}: {}", at.line, at.column, reason(e, lang)),
        None => format!("{p}: {}", reason(e, lang)),
    }
}

/// What is wrong, without the path, for callers that place the message themselves.
pub(crate) fn reason(e: &InputError, lang: Lang) -> String {
    match e {
        InputError::Open { source, .. } => msg::cannot_open(lang, &io_reason(source, lang)),
        InputError::NotRegular { kind: k, .. } => msg::not_regular(lang, &kind(*k, lang)),
        InputError::TooLarge { limit, .. } => msg::too_large(lang, *limit),
        InputError::Read { source, .. } => msg::cannot_read(lang, &io_reason(source, lang)),
        InputError::NotUtf8 { at, .. } => msg::not_utf8(lang, at.offset),
    }
}

/// The reason of an I/O error in `lang`; the system's own text where the catalog has no words.
pub fn io_reason(e: &std::io::Error, lang: Lang) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => msg::io_not_found(lang),
        std::io::ErrorKind::PermissionDenied => msg::io_permission_denied(lang),
        std::io::ErrorKind::IsADirectory => msg::io_is_a_directory(lang),
        _ => e.to_string(),
    }
}

pub(crate) fn hint(e: &InputError, lang: Lang) -> Option<String> {
    Some(match e {
        InputError::NotRegular {
            kind: FileKind::Symlink,
            ..
        } => msg::symlink_hint(lang),
        InputError::NotRegular {
            kind: FileKind::Directory,
            ..
        } => msg::directory_hint(lang),
        InputError::NotRegular { .. } => msg::special_file_hint(lang),
        InputError::TooLarge { .. } => msg::too_large_hint(lang),
        InputError::NotUtf8 { .. } => msg::not_utf8_hint(lang),
        InputError::Open { .. } | InputError::Read { .. } => return None,
    })
}
