//! Errors of the cache library. Every failure is a value; nothing here panics on input.

use std::io;
use std::path::PathBuf;

use cann_i18n::catalog::cache as msg;
use cann_i18n::Lang;

/// Everything that can go wrong while resolving, reading or maintaining a cache.
///
/// Every variant is worded from the message catalog: [`CacheError::message`] in the
/// user's language, `Display` in English.
#[derive(Debug)]
pub enum CacheError {
    /// A path holds a character the spec does not allow (see `settings::dir`); the message
    /// lists the allowed set from the spec.
    BadPathChar {
        path: String,
        ch: char,
        /// Where `ch` is, counted in characters from 1, as the message reads it.
        column: usize,
        /// The classes of characters the spec allows there.
        allowed: &'static [cann_config::meta::CharClass],
    },
    /// A path that is not valid UTF-8 cannot be checked against the allowed set.
    NonUtf8Path(PathBuf),
    /// None of `op_compiler_cache_dir`, `ASCEND_CACHE_PATH` or `HOME` gave a directory.
    NoDirectory,
    /// A cache key that would escape the cache or collide with our bookkeeping.
    BadKey { key: String, why: KeyProblem },
    /// A component inside the cache root is a symlink; we never follow those.
    Symlink(PathBuf),
    /// An I/O failure, with what was being done and the path it concerned.
    Io {
        op: IoOp,
        path: PathBuf,
        source: io::Error,
    },
    /// A file the cache reads (`op_cache.ini`, a state file) was refused by the input layer:
    /// not a regular file, a symbolic link, too large, unreadable.
    Input(cann_input::InputError),
    /// A change was asked of a cache opened with [`crate::cache::Cache::open_read_only`].
    ReadOnly(PathBuf),
    /// `clear` found another process aging the cache (the cache at this base directory).
    Busy(PathBuf),
    /// `op_cache.ini` kept appearing and vanishing while the version stamps were written.
    IniUnstable(PathBuf),
    /// A fault hook asked the commit to stop (tests use this to simulate crashes).
    Aborted(CommitStep),
}

/// What a cache key (or an entry handed to the cache) got wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyProblem {
    /// Not 1 to 1024 bytes long.
    Length,
    /// Two slashes in a row, or a leading or trailing slash.
    EmptyComponent,
    /// A component starts with `.`.
    HiddenComponent,
    /// A component is longer than 200 bytes.
    LongComponent,
    /// A character outside `a-z A-Z 0-9 _ - .` and `/`.
    BadChar,
    /// No component at all.
    Empty,
    /// A `_mix_aic`/`_mix_aiv` name, which is a part of an entry, not an entry.
    MixPart,
    /// The manifest is not JSON or names files the entry does not hold.
    ManifestNamesMissing,
    /// The entry holds files its manifest does not name.
    UnnamedFiles,
    /// A named file is hidden, the manifest itself, or not a plain name.
    BadNamedFile,
    /// A binary's suffix is not a plain file-name ending.
    BadSuffix,
}

impl KeyProblem {
    /// What is wrong, in `lang`.
    pub fn message(self, lang: Lang) -> String {
        match self {
            KeyProblem::Length => msg::key_length(lang),
            KeyProblem::EmptyComponent => msg::key_empty_component(lang),
            KeyProblem::HiddenComponent => msg::key_hidden_component(lang),
            KeyProblem::LongComponent => msg::key_long_component(lang),
            KeyProblem::BadChar => msg::key_bad_char(lang),
            KeyProblem::Empty => msg::key_empty(lang),
            KeyProblem::MixPart => msg::key_mix_part(lang),
            KeyProblem::ManifestNamesMissing => msg::key_manifest_names_missing(lang),
            KeyProblem::UnnamedFiles => msg::key_unnamed_files(lang),
            KeyProblem::BadNamedFile => msg::key_bad_named_file(lang),
            KeyProblem::BadSuffix => msg::key_bad_suffix(lang),
        }
    }
}

/// What the cache was doing when an I/O call failed. Operations ending in `In` concern a
/// directory (the path is the directory), the others the path itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IoOp {
    Scan,
    ReadDirectory,
    CreateDirectory,
    CreateDirectoryIn,
    Open,
    OpenStateIn,
    OpenDirectoryOf,
    Write,
    Replace,
    Remove,
    RemoveStaleManifestIn,
    ReadLedgerIn,
    WriteLedgerIn,
    LockLedgerIn,
    LockGcIn,
    ReadIndexIn,
    RewriteIndexIn,
    AppendIndexIn,
    RecordDirectoriesIn,
    RecordLooseFilesIn,
    WriteBinaryIn,
    RenameBinaryIn,
    WriteFileIn,
    RenameFileIn,
    WriteManifestIn,
    CommitManifestIn,
    SyncFileIn,
    SyncDirectoryIn,
}

impl IoOp {
    /// The operation, in `lang`, as the message's verb phrase.
    pub fn message(self, lang: Lang) -> String {
        use IoOp as O;
        match self {
            O::Scan => msg::op_scan(lang),
            O::ReadDirectory => msg::op_read_directory(lang),
            O::CreateDirectory => msg::op_create_directory(lang),
            O::CreateDirectoryIn => msg::op_create_directory_in(lang),
            O::Open => msg::op_open(lang),
            O::OpenStateIn => msg::op_open_state_in(lang),
            O::OpenDirectoryOf => msg::op_open_directory_of(lang),
            O::Write => msg::op_write(lang),
            O::Replace => msg::op_replace(lang),
            O::Remove => msg::op_remove(lang),
            O::RemoveStaleManifestIn => msg::op_remove_stale_manifest_in(lang),
            O::ReadLedgerIn => msg::op_read_ledger_in(lang),
            O::WriteLedgerIn => msg::op_write_ledger_in(lang),
            O::LockLedgerIn => msg::op_lock_ledger_in(lang),
            O::LockGcIn => msg::op_lock_gc_in(lang),
            O::ReadIndexIn => msg::op_read_index_in(lang),
            O::RewriteIndexIn => msg::op_rewrite_index_in(lang),
            O::AppendIndexIn => msg::op_append_index_in(lang),
            O::RecordDirectoriesIn => msg::op_record_directories_in(lang),
            O::RecordLooseFilesIn => msg::op_record_loose_files_in(lang),
            O::WriteBinaryIn => msg::op_write_binary_in(lang),
            O::RenameBinaryIn => msg::op_rename_binary_in(lang),
            O::WriteFileIn => msg::op_write_file_in(lang),
            O::RenameFileIn => msg::op_rename_file_in(lang),
            O::WriteManifestIn => msg::op_write_manifest_in(lang),
            O::CommitManifestIn => msg::op_commit_manifest_in(lang),
            O::SyncFileIn => msg::op_sync_file_in(lang),
            O::SyncDirectoryIn => msg::op_sync_directory_in(lang),
        }
    }
}

impl CacheError {
    /// Wraps an I/O error with the operation and the path, so messages say what failed where.
    pub(crate) fn io(op: IoOp, path: impl Into<PathBuf>, source: io::Error) -> Self {
        CacheError::Io {
            op,
            path: path.into(),
            source,
        }
    }

    /// The message in `lang` (the system's own error text only where the catalog has no
    /// wording for its kind).
    pub fn message(&self, lang: Lang) -> String {
        let shown = |p: &std::path::Path| p.display().to_string();
        match self {
            CacheError::BadPathChar {
                path,
                ch,
                column,
                allowed,
            } => {
                // The allowed set, as the spec describes it, in the message's language.
                let allowed: Vec<String> = allowed.iter().map(|c| c.describe(lang)).collect();
                msg::bad_path_char(lang, path, &ch.to_string(), *column, &allowed.join(", "))
            }
            CacheError::NonUtf8Path(p) => msg::non_utf8_path(lang, &shown(p)),
            CacheError::NoDirectory => msg::no_directory(lang),
            CacheError::BadKey { key, why } => msg::bad_key(lang, key, &why.message(lang)),
            CacheError::Symlink(p) => msg::symlink_inside(lang, &shown(p)),
            CacheError::Io { op, path, source } => msg::io_failed(
                lang,
                &op.message(lang),
                &shown(path),
                &cann_input::io_reason(source, lang),
            ),
            CacheError::Input(e) => e.message(lang),
            CacheError::ReadOnly(p) => msg::opened_read_only(lang, &shown(p)),
            CacheError::Busy(p) => msg::clear_busy(lang, &shown(p)),
            CacheError::IniUnstable(p) => msg::ini_unstable(lang, &shown(p)),
            CacheError::Aborted(step) => msg::commit_aborted(lang, &format!("{step:?}")),
        }
    }
}

impl std::fmt::Display for CacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for CacheError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CacheError::Io { source, .. } => Some(source),
            CacheError::Input(e) => Some(e),
            _ => None,
        }
    }
}

impl From<cann_input::InputError> for CacheError {
    fn from(e: cann_input::InputError) -> Self {
        CacheError::Input(e)
    }
}

/// Result alias for this module.
pub type Result<T> = std::result::Result<T, CacheError>;

/// Steps of a commit, reported to a [`FaultHook`](crate::cache::FaultHook).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitStep {
    /// The binary is in a temporary file.
    BinWritten,
    /// The binary has its final (unreferenced) name.
    BinRenamed,
    /// The manifest is in a temporary file.
    ManifestWritten,
    /// The manifest is renamed: the entry is visible.
    Committed,
    /// A gc pass unlinked an entry's manifest and not yet its files (the entry is gone;
    /// a crash here leaves its binary behind, unreferenced).
    Evicting,
}
