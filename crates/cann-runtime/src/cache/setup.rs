//! Opening a cache the way a compilation session does: policy, directory, `op_cache.ini`
//! (limits and version stamps), `force`. Takes plain values so any front end (typed config,
//! CLI, tests) can drive it.

use std::os::fd::AsFd;
use std::path::PathBuf;
use std::sync::Arc;

use rustix::fs::{Mode, OFlags, RenameFlags};

use crate::cache::error::{CacheError, IoOp, Result};
use crate::cache::facade::Cache;
use crate::cache::mode::{CacheBehaviour, CacheMode, CachePolicy, OpDebugConfig};
use crate::cache::ops::core::OpenOptions;
use crate::cache::settings::dir::{self, CacheDir};
use crate::cache::settings::env::EnvSnapshot;
use crate::cache::settings::ini::{self, IniDoc, KEY_ADK_VERSION, KEY_OPS_VERSION, SECTION};
use crate::cache::settings::limits::Limits;
use crate::cache::sys::clock::Clock;
use crate::cache::sys::fsx;

/// Versions of the toolkit doing the compiling; a change invalidates older entries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ToolkitVersions {
    pub adk: String,
    pub ops: String,
}

/// What the version check did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum VersionStamp {
    /// No versions given: nothing checked or written.
    NotChecked,
    /// The stamps match.
    Same,
    /// There was no `op_cache.ini`; it was created with the stamps. Existing entries, of
    /// unknown version, are invalidated as upstream does.
    Created,
    /// The stamps differed (or were missing) and were rewritten; older entries invalidated.
    Changed {
        old_adk: Option<String>,
        old_ops: Option<String>,
    },
}

/// Inputs of a session, as plain values.
#[derive(Debug, Clone, Default)]
pub struct CacheSettings {
    /// `op_compiler_cache_mode`; `None` is the spec's default.
    pub mode: Option<CacheMode>,
    pub op_debug_level: Option<i64>,
    pub op_debug_config: Option<OpDebugConfig>,
    /// `op_compiler_cache_dir`.
    pub dir: Option<PathBuf>,
    pub versions: Option<ToolkitVersions>,
}

/// An opened session.
#[derive(Debug)]
pub struct Session {
    pub policy: CachePolicy,
    pub dir: CacheDir,
    pub limits: Limits,
    pub versions: VersionStamp,
    /// True when `force` or a version change invalidated older entries.
    pub invalidated: bool,
    /// `None` when the policy disables the cache.
    pub cache: Option<Cache>,
}

/// `op_cache.ini` holds a section, two limits and two version stamps: a few hundred bytes.
/// Anything past this is not that file.
pub const INI_MAX_BYTES: u64 = 64 * 1024;

/// Reads `op_cache.ini` if it exists, through the input layer: opened with `O_NOFOLLOW |
/// O_NONBLOCK` (a symlink, a FIFO or a device in its place is refused, never waited on or
/// read without end), a regular file of at most `INI_MAX_BYTES` (64 KiB), a leading BOM dropped.
/// Invalid UTF-8 is replaced, then reported through the values it spoils.
pub fn read_ini(dir: &CacheDir) -> Result<Option<IniDoc>> {
    let limits = cann_input::Limits::new(INI_MAX_BYTES).no_follow();
    match cann_input::read_bytes(&dir.ini_path(), limits) {
        Ok(b) => {
            let text = b.strip_prefix(cann_input::BOM).unwrap_or(&b);
            Ok(Some(IniDoc::parse(&String::from_utf8_lossy(text))))
        }
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The limits in force for `dir` (ini, then environment, then defaults).
pub fn resolve_limits(dir: &CacheDir, env: &EnvSnapshot) -> Result<Limits> {
    let doc = read_ini(dir)?;
    Ok(Limits::resolve(
        doc.as_ref().map(|d| (dir.ini_path(), d)),
        env,
    ))
}

/// Writes `text` as `op_cache.ini` atomically, keeping the old file's permissions. With
/// `create`, an existing file is never replaced (another writer won the race).
fn write_ini(dir: &CacheDir, text: &str, mode: Option<u32>, create: bool) -> Result<bool> {
    let e = |op| {
        let p = dir.ini_path();
        move |err: std::io::Error| CacheError::io(op, p, err)
    };
    let base = rustix::fs::open(
        &dir.base,
        OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|x| e(IoOp::OpenDirectoryOf)(x.into()))?;
    let tmp = fsx::write_tmp(base.as_fd(), dir::OP_CACHE_INI, text.as_bytes(), true)
        .map_err(e(IoOp::Write))?;
    if let Some(m) = mode {
        if let Ok(fd) = fsx::open_beneath(base.as_fd(), tmp.as_ref(), OFlags::RDONLY, Mode::empty())
        {
            let _ = rustix::fs::fchmod(&fd, Mode::from_raw_mode(m & 0o7777));
        }
    }
    let flags = if create {
        RenameFlags::NOREPLACE
    } else {
        RenameFlags::empty()
    };
    let res = rustix::fs::renameat_with(
        base.as_fd(),
        tmp.as_str(),
        base.as_fd(),
        dir::OP_CACHE_INI,
        flags,
    );
    match res {
        Ok(()) => {
            let _ = rustix::fs::fsync(&base);
            Ok(true)
        }
        Err(err) => {
            let _ = fsx::unlink_at(base.as_fd(), tmp.as_ref());
            if create && err == rustix::io::Errno::EXIST {
                Ok(false)
            } else {
                Err(e(IoOp::Replace)(err.into()))
            }
        }
    }
}

/// Makes `op_cache.ini` carry `v`, creating the file if needed. Only the two stamp lines
/// change; the user's limits, comments and unknown keys stay byte for byte.
pub fn stamp_versions(dir: &CacheDir, v: &ToolkitVersions) -> Result<VersionStamp> {
    for _ in 0..3 {
        let path = dir.ini_path();
        let meta = std::fs::symlink_metadata(&path);
        let Some(mut doc) = read_ini(dir)? else {
            if write_ini(dir, &ini::new_ini_text(&v.adk, &v.ops), None, true)? {
                return Ok(VersionStamp::Created);
            }
            continue;
        };
        let old_adk = doc.get(SECTION, KEY_ADK_VERSION).map(str::to_owned);
        let old_ops = doc.get(SECTION, KEY_OPS_VERSION).map(str::to_owned);
        if old_adk.as_deref() == Some(v.adk.as_str()) && old_ops.as_deref() == Some(v.ops.as_str())
        {
            return Ok(VersionStamp::Same);
        }
        doc.set(SECTION, KEY_ADK_VERSION, &v.adk);
        doc.set(SECTION, KEY_OPS_VERSION, &v.ops);
        let mode = meta
            .ok()
            .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()));
        write_ini(dir, &doc.render(), mode, false)?;
        return Ok(VersionStamp::Changed { old_adk, old_ops });
    }
    Err(CacheError::IniUnstable(dir.ini_path()))
}

/// Opens a compilation session: decides the policy; when the cache is on, resolves the
/// directory, stamps versions, reads limits, opens the cache and applies `force`.
pub fn open_session(
    settings: &CacheSettings,
    env: &EnvSnapshot,
    clock: Arc<dyn Clock>,
) -> Result<Session> {
    // Unset: the spec's default (the generated enum's `Default`).
    let mode = settings.mode.unwrap_or_default();
    let policy = CachePolicy::resolve(
        mode,
        settings.op_debug_level,
        settings.op_debug_config.as_ref(),
    );
    let dir = dir::resolve(settings.dir.as_deref(), env)?;
    if let CachePolicy::Disabled(_) = policy {
        let limits = resolve_limits(&dir, env)?;
        return Ok(Session {
            policy,
            dir,
            limits,
            versions: VersionStamp::NotChecked,
            invalidated: false,
            cache: None,
        });
    }
    std::fs::create_dir_all(&dir.base)
        .map_err(|e| CacheError::io(IoOp::CreateDirectory, &dir.base, e))?;
    let versions = match &settings.versions {
        Some(v) => stamp_versions(&dir, v)?,
        None => VersionStamp::NotChecked,
    };
    let limits = resolve_limits(&dir, env)?;
    let cache = Cache::open(
        &dir,
        OpenOptions {
            limits: limits.clone(),
            clock,
            ..OpenOptions::default()
        },
    )?;
    let invalidated = mode.behaviour() == CacheBehaviour::Rebuild
        || matches!(
            versions,
            VersionStamp::Created | VersionStamp::Changed { .. }
        );
    if invalidated {
        cache.invalidate_all()?;
    }
    Ok(Session {
        policy,
        dir,
        limits,
        versions,
        invalidated,
        cache: Some(cache),
    })
}
