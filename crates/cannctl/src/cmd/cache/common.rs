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

/// How a subcommand opens the local cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// To read it: creates, locks and writes nothing, so `info` and `verify` work for a
    /// group member without write permission and on a read-only mount.
    Read,
    /// To change it.
    Write,
    /// To change it, else to read it: a dry run changes nothing, so on a cache this user
    /// cannot write it still says what a pass would do.
    WriteElseRead,
}

/// What every local subcommand starts from: the directory, the limits read for it, the
/// language, the open cache and the progress bar of the operation.
pub(crate) struct Opened {
    pub(crate) dir: CacheDir,
    pub(crate) limits: Limits,
    pub(crate) lang: Lang,
    pub(crate) cache: Cache,
    pub(crate) bar: Progress,
}

/// Resolves the directory and its limits, opens the existing cache for `access` (a
/// missing cache is an input error, never created by a command) and makes the progress
/// bar labelled `label`.
pub(crate) fn opened(
    args: &CacheArgs,
    env: &EnvSnapshot,
    access: Access,
    label: fn(Lang) -> String,
) -> Result<Opened, BoxError> {
    let dir = resolve(args, env)?;
    let limits = cache::resolve_limits(&dir, env)?;
    let l = lang(args);
    must_exist(&dir, l)?;
    let options = OpenOptions {
        limits: limits.clone(),
        ..OpenOptions::default()
    };
    let cache = match access {
        Access::Read => Cache::open_read_only(&dir, options)?,
        Access::Write => Cache::open(&dir, options)?,
        Access::WriteElseRead => match Cache::open(&dir, options.clone()) {
            Ok(c) => c,
            Err(_) => Cache::open_read_only(&dir, options)?,
        },
    };
    Ok(Opened {
        bar: bar(l, &label(l)),
        dir,
        limits,
        lang: l,
        cache,
    })
}

/// A missing cache is an input error, never created by a query.
fn must_exist(dir: &CacheDir, l: Lang) -> Result<(), BoxError> {
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
