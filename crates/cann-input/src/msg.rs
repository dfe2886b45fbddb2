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
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => msg::io_not_found(lang),
        K::PermissionDenied => msg::io_permission_denied(lang),
        K::IsADirectory => msg::io_is_a_directory(lang),
        K::NotADirectory => msg::io_not_a_directory(lang),
        K::AlreadyExists => msg::io_already_exists(lang),
        K::ReadOnlyFilesystem => msg::io_read_only(lang),
        K::StorageFull => msg::io_storage_full(lang),
        K::QuotaExceeded => msg::io_quota_exceeded(lang),
        K::FileTooLarge => msg::io_file_too_large(lang),
        K::ResourceBusy | K::ExecutableFileBusy => msg::io_busy(lang),
        K::InvalidFilename => msg::io_invalid_filename(lang),
        K::TooManyLinks => msg::io_too_many_links(lang),
        K::StaleNetworkFileHandle => msg::io_stale_handle(lang),
        K::TimedOut => msg::io_timed_out(lang),
        K::Interrupted => msg::io_interrupted(lang),
        K::UnexpectedEof => msg::io_unexpected_eof(lang),
        K::OutOfMemory => msg::io_out_of_memory(lang),
        K::Unsupported => msg::io_unsupported(lang),
        _ if is_link_loop(e) => msg::io_link_loop(lang),
        _ => msg::io_other(lang, &e.to_string()),
    }
}

/// ELOOP, which `std` reports without a stable kind.
#[cfg(unix)]
fn is_link_loop(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
}

#[cfg(not(unix))]
fn is_link_loop(_: &std::io::Error) -> bool {
    false
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
