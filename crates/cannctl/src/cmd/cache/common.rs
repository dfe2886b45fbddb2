//! What the cache subcommands share: resolving and opening the cache, the language, the
//! progress bar, and the warnings about the limits that were read.

use std::io::Write;

use cann_i18n::catalog::cache as msg;
use cann_i18n::Lang;
use cann_runtime::cache::{self, Cache, CacheDir, EnvSnapshot, Limits, OpenOptions, Origin};

use crate::cli::CacheArgs;
use crate::render::progress::Progress;

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The progress bar of a cache operation labelled `what`.
pub(crate) fn bar(l: Lang, what: &str) -> Progress {
    Progress::bar(&msg::progress_template(l), what)
}

/// The language `--lang` (or the locale) asks for.
pub(crate) fn lang(args: &CacheArgs) -> Lang {
    args.lang.into()
}

pub(crate) fn resolve(args: &CacheArgs, env: &EnvSnapshot) -> Result<CacheDir, BoxError> {
    Ok(match &args.dir {
        Some(d) => CacheDir::explicit(d)?,
        None => cache::resolve_dir(None, env)?,
    })
}

/// Opens an existing cache for reading: creates, locks and writes nothing, so `info` and
/// `verify` work for a group member without write permission and on a read-only mount.
pub(crate) fn open_to_read(dir: &CacheDir, limits: Limits, l: Lang) -> Result<Cache, BoxError> {
    must_exist(dir, l)?;
    Ok(Cache::open_read_only(
        dir,
        OpenOptions {
            limits,
            ..OpenOptions::default()
        },
    )?)
}

/// A missing cache is an input error, never created by a query.
pub(crate) fn must_exist(dir: &CacheDir, l: Lang) -> Result<(), BoxError> {
    if !dir.kernel_cache().is_dir() {
        return Err(msg::no_cache(
            l,
            &dir.base.display().to_string(),
            &dir.kernel_cache().display().to_string(),
        )
        .into());
    }
    Ok(())
}

/// Opens an existing cache to change it.
pub(crate) fn open_existing(dir: &CacheDir, limits: Limits, l: Lang) -> Result<Cache, BoxError> {
    must_exist(dir, l)?;
    Ok(Cache::open(
        dir,
        OpenOptions {
            limits,
            ..OpenOptions::default()
        },
    )?)
}

pub(crate) fn warn_limits(l: Lang, limits: &Limits, out: &mut dyn Write) -> std::io::Result<()> {
    for f in &limits.findings {
        let place = match &f.origin {
            Origin::Ini { path } => path.display().to_string(),
            Origin::Env { var } => msg::place_env(l, var),
            Origin::Default => msg::origin_default(l),
        };
        writeln!(out, "{}", msg::limit_warning(l, &place, &f.message(l)))?;
    }
    Ok(())
}
