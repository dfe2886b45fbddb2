//! `cannctl cache push|pull [DIR] --remote URL`: the shared tier of `cann-cache-remote`, with
//! the local directory resolved as the other cache commands resolve it. This file only
//! opens, renders and maps exit codes.

use std::io::Write;
use std::sync::Arc;

use cann_cache_remote as remote;
use cann_i18n::bytes::exact as bytes;
use cann_i18n::catalog::remote as msg;
use cann_i18n::Lang;
use cann_runtime::cache::{self, Cache, CacheDir, EnvSnapshot, OpenOptions};

use super::common::{bar as progress_bar, lang, BoxError};
use crate::cli::{CacheArgs, OutputFormat, RemoteArgs};

/// Everything both directions open: the local cache, the store, the toolkit stamps.
struct Opened {
    cache: Arc<Cache>,
    store: remote::Remote,
    versions: (String, String),
    opts: remote::Options,
}

fn open(
    dir: &CacheDir,
    env: &EnvSnapshot,
    r: &RemoteArgs,
    need_existing: bool,
    l: Lang,
) -> Result<Opened, remote::RemoteError> {
    let spec = remote::parse_url(&r.remote, &remote::ProcessEnv)?;
    if need_existing && !dir.kernel_cache().is_dir() {
        return Err(remote::RemoteError::NoCache {
            dir: dir.base.display().to_string(),
        });
    }
    let versions = remote::versions(dir)?;
    let limits = cache::resolve_limits(dir, env)?;
    let c = Cache::open(
        dir,
        OpenOptions {
            limits,
            ..OpenOptions::default()
        },
    )?;
    let store = remote::Remote::open(&spec, &remote::ProcessEnv)?;
    let opts = remote::Options {
        dry_run: r.dry_run,
        jobs: usize::from(r.jobs),
        lang: l,
        binary_formats: Vec::new(),
    };
    Ok(Opened {
        cache: Arc::new(c),
        store,
        versions,
        opts,
    })
}

fn scope_lines(lang: Lang, scopes: &[remote::Scope], out: &mut dyn Write) -> std::io::Result<()> {
    for s in scopes {
        writeln!(
            out,
            "{}",
            msg::scope_line(
                lang,
                &s.soc,
                &s.adk_version,
                &s.ops_version,
                &s.binary_format
            )
        )?;
    }
    Ok(())
}

/// `cache push`.
pub fn push(
    args: &CacheArgs,
    dir: &CacheDir,
    env: &EnvSnapshot,
    r: &RemoteArgs,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let l = lang(args);
    let o = open(dir, env, r, true, l).map_err(|e| e.message(l))?;
    let bar = progress_bar(l, &msg::label_pushing(l));
    let rep =
        remote::push(&o.cache, &o.store, &o.versions, &o.opts, &bar).map_err(|e| e.message(l))?;
    drop(bar);
    if args.format == OutputFormat::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rep)?)?;
        return Ok(0);
    }
    scope_lines(l, &rep.scopes, out)?;
    for s in &rep.skipped {
        writeln!(out, "{}", msg::skipped(l, &s.key, &s.why))?;
    }
    let summary = if rep.dry_run {
        msg::push_dry_summary
    } else {
        msg::push_summary
    };
    writeln!(
        out,
        "{}",
        summary(
            l,
            rep.pushed,
            &bytes(l, rep.pushed_bytes),
            rep.present,
            &rep.store
        )
    )?;
    Ok(0)
}

/// What a pull asks for: `--soc` and `--binary-format`, each repeatable.
pub struct Want<'a> {
    pub socs: &'a [String],
    pub binary_formats: &'a [String],
}

/// `cache pull`. Exit 1 when an object was refused (the others still arrived).
pub fn pull(
    args: &CacheArgs,
    dir: &CacheDir,
    env: &EnvSnapshot,
    r: &RemoteArgs,
    want: &Want<'_>,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let l = lang(args);
    for s in want.socs {
        remote::check_soc(s).map_err(|e| e.message(l))?;
    }
    for f in want.binary_formats {
        remote::check_binary_format(f).map_err(|e| e.message(l))?;
    }
    let mut socs = want.socs.to_vec();
    if socs.is_empty() {
        socs = remote::local_socs(dir);
    }
    if socs.is_empty() {
        return Err(remote::RemoteError::NoSoc {
            dir: dir.kernel_cache().display().to_string(),
        }
        .message(l)
        .into());
    }
    let mut o = open(dir, env, r, false, l).map_err(|e| e.message(l))?;
    o.opts.binary_formats = want.binary_formats.to_vec();
    let bar = progress_bar(l, &msg::label_pulling(l));
    let rep = remote::pull(&o.cache, &o.store, &o.versions, &socs, &o.opts, &bar)
        .map_err(|e| e.message(l))?;
    drop(bar);
    let code = u8::from(rep.has_errors());
    if args.format == OutputFormat::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rep)?)?;
        return Ok(code);
    }
    scope_lines(l, &rep.scopes, out)?;
    for x in &rep.refused {
        writeln!(out, "{}", msg::refused(l, &x.object, &x.why))?;
    }
    if rep.conflicts > 0 {
        writeln!(out, "{}", msg::conflicts(l, rep.conflicts))?;
    }
    for f in &rep.other_formats {
        writeln!(
            out,
            "{}",
            msg::other_format(l, &f.soc, f.objects, &f.reason)
        )?;
    }
    if rep.old_layout > 0 {
        writeln!(out, "{}", msg::old_layout(l, rep.old_layout))?;
    }
    let summary = if rep.dry_run {
        msg::pull_dry_summary
    } else {
        msg::pull_summary
    };
    writeln!(
        out,
        "{}",
        summary(
            l,
            rep.pulled,
            &bytes(l, rep.pulled_bytes),
            rep.present,
            &rep.store
        )
    )?;
    Ok(code)
}

/// `cache gc --remote URL`: the store aged by last push or pull, under DIR's limits (or
/// `--max-size`), with the local rules (retained share, 30-minute floor).
pub fn gc(
    args: &CacheArgs,
    dir: &CacheDir,
    env: &EnvSnapshot,
    url: &str,
    max_size: Option<u32>,
    dry_run: bool,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let l = lang(args);
    let spec = remote::parse_url(url, &remote::ProcessEnv).map_err(|e| e.message(l))?;
    let local = cache::resolve_limits(dir, env)?;
    let limits = match max_size {
        Some(mb) => cache::Limits::fixed(cache::MaxSize::Mb(mb), local.remain_ratio),
        None => local,
    };
    let Some(max_bytes) = limits.max_bytes() else {
        writeln!(out, "{}", msg::gc_off(l))?;
        return Ok(0);
    };
    let store = remote::Remote::open(&spec, &remote::ProcessEnv).map_err(|e| e.message(l))?;
    let rep = remote::gc_remote(
        &store,
        &remote::GcLimits {
            max_bytes,
            target_bytes: limits.retained_bytes().unwrap_or(max_bytes),
            floor_ns: cache::limits::AGING_FLOOR,
            now_ns: cache::clock::system_now(),
            dry_run,
        },
    )
    .map_err(|e| e.message(l))?;
    if args.format == OutputFormat::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rep)?)?;
        return Ok(0);
    }
    let freed: u64 = rep.removed.iter().map(|r| r.bytes).sum();
    let summary = if dry_run {
        msg::gc_dry_summary
    } else {
        msg::gc_summary
    };
    writeln!(
        out,
        "{}",
        summary(l, rep.removed.len() as u64, &bytes(l, freed), &rep.store)
    )?;
    writeln!(
        out,
        "{}",
        msg::gc_sizes(
            l,
            &bytes(l, rep.bytes_before),
            &bytes(l, rep.bytes_after),
            rep.entries_before,
            rep.entries_after,
            &bytes(l, rep.limit_bytes),
            &bytes(l, rep.target_bytes),
        )
    )?;
    if rep.stopped_by_floor {
        writeln!(out, "{}", msg::gc_floor(l))?;
    }
    Ok(0)
}
