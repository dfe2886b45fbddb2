//! `cannctl cache info|gc|verify|clear [DIR] [--format human|json]`.
//!
//! DIR is what a user gives as `op_compiler_cache_dir` (the folder holding `op_cache.ini`
//! and `kernel_cache/`); without it the directory is resolved as the compiler would
//! (`${ASCEND_CACHE_PATH}`, then `$HOME/atc_data`). All rules live in
//! `cann_runtime::cache`; this file only parses, renders and maps exit codes.

use std::io::Write;
use std::path::PathBuf;

use cann_runtime::cache::{
    self, AgingNeed, Cache, CacheDir, DirSource, EnvSnapshot, GcOptions, GcOutcome, Limits,
    MaxSize, OpenOptions, Origin, Reason, TornWhy,
};

use cann_i18n::bytes::exact as mb;
use cann_i18n::catalog::cache as msg;
use cann_i18n::Lang;

use crate::cli::{CacheArgs, CacheCommand, OutputFormat};
use crate::render::progress::Progress;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The progress bar of a cache operation labelled `what`.
pub(super) fn bar(l: Lang, what: &str) -> Progress {
    Progress::bar(&msg::progress_template(l), what)
}

fn resolve(args: &CacheArgs, env: &EnvSnapshot) -> Result<CacheDir, BoxError> {
    Ok(match &args.dir {
        Some(d) => CacheDir::explicit(d)?,
        None => cache::resolve_dir(None, env)?,
    })
}

/// Opens an existing cache for reading: creates, locks and writes nothing, so `info` and
/// `verify` work for a group member without write permission and on a read-only mount.
fn open_to_read(dir: &CacheDir, limits: Limits, l: Lang) -> Result<Cache, BoxError> {
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

/// Opens an existing cache to change it.
fn open_existing(dir: &CacheDir, limits: Limits, l: Lang) -> Result<Cache, BoxError> {
    must_exist(dir, l)?;
    Ok(Cache::open(
        dir,
        OpenOptions {
            limits,
            ..OpenOptions::default()
        },
    )?)
}

fn origin(l: Lang, o: &Origin) -> String {
    match o {
        Origin::Ini { path } => msg::origin_file(l, &path.display().to_string()),
        Origin::Env { var } => msg::origin_file(l, var),
        Origin::Default => msg::origin_default(l),
    }
}

fn dir_source(l: Lang, s: DirSource) -> String {
    match s {
        DirSource::Option => msg::dir_given(l),
        DirSource::AscendCachePath => msg::dir_ascend_cache_path(l),
        DirSource::HomeDefault => msg::dir_home_default(l),
    }
}

fn ago(l: Lang, now_ns: i64, t_ns: i64) -> String {
    let s = (now_ns - t_ns).max(0) / 1_000_000_000;
    let rel = match s {
        0..=119 => msg::ago_seconds(l, s),
        120..=7199 => msg::ago_minutes(l, s / 60),
        7200..=172_799 => msg::ago_hours(l, s / 3600),
        _ => msg::ago_days(l, s / 86_400),
    };
    msg::ago_at(l, &rel, t_ns / 1_000_000_000)
}

fn warn_limits(l: Lang, limits: &Limits, out: &mut dyn Write) -> std::io::Result<()> {
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

/// The language `--lang` (or the locale) asks for.
pub(super) fn lang(args: &CacheArgs) -> Lang {
    args.lang.into()
}

/// Runs a cache command. `Ok(0)` clean, `Ok(1)` errors found (verify), `Err` bad input.
pub fn run(cmd: &CacheCommand, out: &mut dyn Write) -> Result<u8, BoxError> {
    let (args, env) = with_config(cmd.args(), EnvSnapshot::from_process())?;
    let args = &args;
    match cmd {
        CacheCommand::Info { .. } => info(args, &env, out),
        CacheCommand::Gc {
            dry_run,
            remote: Some(url),
            max_size,
            ..
        } => super::remote::gc(
            args,
            &resolve(args, &env)?,
            &env,
            url,
            *max_size,
            *dry_run,
            out,
        ),
        CacheCommand::Gc { dry_run, .. } => gc(args, *dry_run, &env, out),
        CacheCommand::Verify { .. } => verify(args, &env, out),
        CacheCommand::Clear { .. } => clear(args, &env, out),
        CacheCommand::Push { remote, .. } => {
            super::remote::push(args, &resolve(args, &env)?, &env, remote, out)
        }
        CacheCommand::Pull {
            remote,
            soc,
            binary_format,
            ..
        } => {
            let want = super::remote::Want {
                socs: soc,
                binary_formats: binary_format,
            };
            super::remote::pull(args, &resolve(args, &env)?, &env, remote, &want, out)
        }
    }
}

/// Applies a config file: its cache directory (unless DIR is given) and its environment
/// variables over the process's.
fn with_config(
    args: &CacheArgs,
    mut env: EnvSnapshot,
) -> Result<(CacheArgs, EnvSnapshot), BoxError> {
    let mut args = args.clone();
    let Some(path) = &args.config else {
        return Ok((args, env));
    };
    // The same reader and parser as `check`, so both accept and refuse the same files.
    let file = super::load(path, lang(&args))?.file;
    struct EnvVars(Vec<(&'static str, String)>);
    impl cann_config::Visitor for EnvVars {
        fn value(
            &mut self,
            o: &'static cann_config::meta::OptionMeta,
            v: cann_config::ValueRef<'_>,
        ) {
            if let Some(name) = o.env {
                self.0.push((name, cann_config::emit::plain(v)));
            }
        }
    }
    let mut vars = EnvVars(Vec::new());
    cann_config::Visit::visit(&file.config, &mut vars);
    for (name, value) in vars.0 {
        env = env.with(name, value);
    }
    if args.dir.is_none() {
        args.dir = file
            .config
            .npu_run_config
            .as_ref()
            .and_then(|r| r.op_compiler_cache_dir.as_ref())
            .map(PathBuf::from);
    }
    Ok((args, env))
}

fn info(args: &CacheArgs, env: &EnvSnapshot, out: &mut dyn Write) -> Result<u8, BoxError> {
    let dir = resolve(args, env)?;
    let limits = cache::resolve_limits(&dir, env)?;
    let l = lang(args);
    let c = open_to_read(&dir, limits.clone(), l)?;
    let rep = c.info(&bar(l, &msg::label_scanning(l)))?;
    let ini = cache::read_ini(&dir)?;
    let stamp = |k| {
        ini.as_ref()
            .and_then(|d| d.get(cache::ini::SECTION, k).map(str::to_owned))
    };
    let (adk, ops) = (
        stamp(cache::ini::KEY_ADK_VERSION),
        stamp(cache::ini::KEY_OPS_VERSION),
    );
    if args.format == OutputFormat::Json {
        let v = serde_json::json!({
            "dir": dir, "kernel_cache": dir.kernel_cache(), "limits": limits,
            "limit_bytes": limits.max_bytes(), "retained_bytes": limits.retained_bytes(),
            "adk_version": adk, "ops_version": ops, "info": rep,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        return Ok(0);
    }
    let now = cache::clock::system_now();
    let mut out_lines = vec![
        msg::info_dir(
            l,
            &dir.base.display().to_string(),
            &dir_source(l, dir.source),
        ),
        msg::info_kernel_cache(l, &dir.kernel_cache().display().to_string()),
        match limits.max {
            MaxSize::Mb(m) => msg::info_limit(l, m, &origin(l, &limits.max_origin)),
            MaxSize::AgingOff => msg::info_limit_off(l, &origin(l, &limits.max_origin)),
        },
        msg::info_ratio(l, limits.remain_ratio, &origin(l, &limits.ratio_origin)),
        msg::info_size(
            l,
            &mb(l, rep.bytes),
            rep.entries,
            &match rep.source {
                cache::InfoSource::Ledger => msg::source_ledger(l),
                cache::InfoSource::Walk => msg::source_walk(l),
                cache::InfoSource::Changed => msg::source_changed(l, rep.dirs_listed),
            },
        ),
    ];
    if let Some(t) = rep.oldest_access_ns {
        out_lines.push(msg::info_oldest(l, &ago(l, now, t)));
    }
    let stale = rep.startup.age_ns.is_some_and(|a| a > cache::BLIND_BOUND);
    let counted = rep.startup.counted_ns.map(|t| ago(l, now, t));
    let bound = (cache::BLIND_BOUND / cache::clock::MINUTE) as u64;
    let need = match (rep.startup.need, counted) {
        (AgingNeed::No, Some(at)) if rep.startup.blind_to_rewrites => {
            msg::need_no_blind(l, &at, bound)
        }
        (AgingNeed::Unknown, Some(at)) if stale && !rep.startup.foreign_changes => {
            msg::need_unknown_stale(l, &at, bound)
        }
        _ => match rep.startup.need {
            AgingNeed::No => msg::need_no(l),
            AgingNeed::Yes => msg::need_yes(l),
            AgingNeed::Off => msg::need_off(l),
            AgingNeed::Unknown if rep.startup.foreign_changes => msg::need_unknown_foreign(l),
            AgingNeed::Unknown => msg::need_unknown_unreconciled(l),
        },
    };
    out_lines.push(msg::info_startup(l, &need));
    if !rep.skipped_dirs.is_empty() {
        out_lines.push(msg::info_skipped(
            l,
            rep.skipped_dirs.len() as u64,
            &rep.skipped_dirs.join(", "),
        ));
    }
    let none = msg::stamp_none(l);
    out_lines.push(msg::info_stamps(
        l,
        adk.as_deref().unwrap_or(&none),
        ops.as_deref().unwrap_or(&none),
    ));
    for t in out_lines {
        writeln!(out, "{t}")?;
    }
    warn_limits(l, &limits, out)?;
    Ok(0)
}

fn gc(
    args: &CacheArgs,
    dry_run: bool,
    env: &EnvSnapshot,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let dir = resolve(args, env)?;
    let limits = cache::resolve_limits(&dir, env)?;
    let l = lang(args);
    // A dry run changes nothing: on a cache this user cannot write (a read-only mount, no
    // permission) it still says what a pass would remove.
    let c = match open_existing(&dir, limits.clone(), l) {
        Err(_) if dry_run => open_to_read(&dir, limits.clone(), l)?,
        other => other?,
    };
    let outcome = c.gc_with_progress(
        &GcOptions {
            dry_run,
            ..GcOptions::default()
        },
        &bar(l, &msg::label_aging(l)),
    )?;
    if args.format == OutputFormat::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&outcome)?)?;
        return Ok(0);
    }
    let GcOutcome::Done(r) = outcome else {
        writeln!(out, "{}", msg::gc_skipped(l))?;
        return Ok(0);
    };
    let removed = if dry_run {
        msg::gc_would_remove
    } else {
        msg::gc_removed
    };
    for (reason, what) in [
        (Reason::Aged, msg::reason_aged(l)),
        (Reason::Invalidated, msg::reason_invalidated(l)),
        (Reason::Torn, msg::reason_torn(l)),
        (Reason::Orphan, msg::reason_orphan(l)),
        (Reason::Temporary, msg::reason_temporary(l)),
    ] {
        let (n, b) = r
            .removed
            .iter()
            .filter(|x| x.reason == reason)
            .fold((0, 0), |(n, b), x| (n + 1, b + x.bytes));
        if n > 0 {
            writeln!(out, "{}", removed(l, n, &what, &mb(l, b)))?;
        }
    }
    if r.removed.is_empty() {
        writeln!(out, "{}", msg::gc_nothing(l))?;
    }
    writeln!(
        out,
        "{}",
        msg::gc_sizes(
            l,
            &mb(l, r.bytes_before),
            &mb(l, r.bytes_after),
            r.entries_before,
            r.entries_after
        )
    )?;
    if r.stopped_by_floor {
        writeln!(out, "{}", msg::gc_floor(l))?;
    }
    warn_limits(l, &limits, out)?;
    Ok(0)
}

fn verify(args: &CacheArgs, env: &EnvSnapshot, out: &mut dyn Write) -> Result<u8, BoxError> {
    let dir = resolve(args, env)?;
    let l = lang(args);
    let c = open_to_read(&dir, cache::resolve_limits(&dir, env)?, l)?;
    let rep = c.verify(&bar(l, &msg::label_verifying(l)))?;
    let code = u8::from(rep.has_errors());
    if args.format == OutputFormat::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rep)?)?;
        return Ok(code);
    }
    for t in &rep.torn {
        writeln!(out, "{}", msg::verify_torn(l, &t.rel, &why(l, &t.why)))?;
    }
    for t in &rep.in_progress {
        writeln!(
            out,
            "{}",
            msg::verify_in_progress(l, &t.rel, &why(l, &t.why))
        )?;
    }
    for m in &rep.raw_manifests {
        writeln!(out, "{}", msg::verify_raw_manifest(l, m))?;
    }
    for o in &rep.orphans {
        writeln!(out, "{}", msg::verify_orphan(l, o))?;
    }
    for o in &rep.temporaries {
        writeln!(out, "{}", msg::verify_temporary(l, o))?;
    }
    for (p, kind) in &rep.foreign {
        writeln!(out, "{}", msg::verify_foreign(l, kind, p))?;
    }
    if !rep.ledger_matches {
        writeln!(out, "{}", msg::verify_ledger_stale(l))?;
    }
    let n = |v: usize| v as u64;
    writeln!(
        out,
        "{}",
        msg::verify_summary(
            l,
            rep.entries,
            &mb(l, rep.bytes),
            n(rep.torn.len()),
            n(rep.orphans.len()),
            n(rep.temporaries.len()),
            n(rep.foreign.len())
        )
    )?;
    Ok(code)
}

fn why(l: Lang, w: &TornWhy) -> String {
    match w {
        // The reason by its kind in the catalog's words; the system's text only where the
        // catalog has none for it.
        TornWhy::DirUnreadable { errno, detail } => {
            let reason = match errno {
                Some(n) => cann_input::io_reason(&std::io::Error::from_raw_os_error(*n), l),
                None => detail.clone(),
            };
            msg::why_dir_unreadable(l, &reason)
        }
        TornWhy::ManifestUnreadable => msg::why_manifest_unreadable(l),
        TornWhy::ManifestInvalid { detail } => msg::why_manifest_invalid(l, detail),
        TornWhy::ManifestBadName { name } => msg::why_manifest_bad_name(l, name),
        TornWhy::SizeMismatch {
            file,
            bytes,
            expected,
        } => msg::why_size_mismatch(l, file, *bytes, *expected),
        TornWhy::NotRegular { file } => msg::why_not_regular(l, file),
        TornWhy::Missing { file } => msg::why_missing(l, file),
    }
}

fn clear(args: &CacheArgs, env: &EnvSnapshot, out: &mut dyn Write) -> Result<u8, BoxError> {
    let dir = resolve(args, env)?;
    let l = lang(args);
    let c = open_existing(&dir, cache::resolve_limits(&dir, env)?, l)?;
    let rep = c.clear(&bar(l, &msg::label_clearing(l)))?;
    if args.format == OutputFormat::Json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rep)?)?;
    } else {
        writeln!(
            out,
            "{}",
            msg::clear_summary(
                l,
                rep.files_removed,
                &mb(l, rep.bytes_removed),
                rep.links_removed,
                rep.dirs_removed
            )
        )?;
        if rep.in_flight_kept > 0 {
            writeln!(out, "{}", msg::clear_kept(l, rep.in_flight_kept))?;
        }
    }
    Ok(0)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn args(dir: &std::path::Path, format: OutputFormat) -> CacheArgs {
        CacheArgs {
            dir: Some(dir.to_path_buf()),
            format,
            config: None,
            lang: crate::cli::LangArg::En,
        }
    }

    fn run_str(cmd: &CacheCommand) -> (Result<u8, String>, String) {
        let mut buf = Vec::new();
        let r = run(cmd, &mut buf).map_err(|e| e.to_string());
        (r, String::from_utf8(buf).unwrap())
    }

    fn populated() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        let dir = CacheDir::explicit(t.path()).unwrap();
        let c = Cache::open(&dir, OpenOptions::default()).unwrap();
        c.put("soc/te_a", b"bin", ".o", None).unwrap();
        std::fs::write(
            t.path().join("op_cache.ini"),
            "[op_compiler_cache]\nmax_op_cache_size=0\nremain_cache_size_ratio=80\n",
        )
        .unwrap();
        t
    }

    #[test]
    fn info_human_and_json() {
        let t = populated();
        let (r, text) = run_str(&CacheCommand::Info {
            cache: args(t.path(), OutputFormat::Human),
        });
        assert_eq!(r, Ok(0));
        assert!(
            text.contains("1 entries") && text.contains("limit:           500 MB (default)"),
            "{text}"
        );
        assert!(
            text.contains("warning:") && text.contains("max_op_cache_size = `0`"),
            "{text}"
        );
        let (r, text) = run_str(&CacheCommand::Info {
            cache: args(t.path(), OutputFormat::Json),
        });
        assert_eq!(r, Ok(0));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["info"]["entries"], 1);
    }

    #[test]
    fn info_and_gc_speak_the_language_asked_for() {
        let t = populated();
        let zh = |format| CacheArgs {
            lang: crate::cli::LangArg::Zh,
            ..args(t.path(), format)
        };
        let (r, text) = run_str(&CacheCommand::Info {
            cache: zh(OutputFormat::Human),
        });
        assert_eq!(r, Ok(0));
        assert!(
            text.contains("启动检查") && text.contains("默认值") && !text.contains("start-up"),
            "{text}"
        );
        // The limit findings of op_cache.ini too.
        assert!(text.contains("警告："), "{text}");
        let (_, text) = run_str(&CacheCommand::Gc {
            cache: zh(OutputFormat::Human),
            dry_run: true,
            remote: None,
            max_size: None,
        });
        assert!(text.contains("没有需要删除的内容"), "{text}");
        let (r, _) = run_str(&CacheCommand::Info {
            cache: CacheArgs {
                lang: crate::cli::LangArg::Zh,
                ..args(&t.path().join("nope"), OutputFormat::Human)
            },
        });
        assert!(r.unwrap_err().contains("没有算子编译缓存"));
    }

    #[test]
    fn verify_exit_codes() {
        let t = populated();
        assert_eq!(
            run_str(&CacheCommand::Verify {
                cache: args(t.path(), OutputFormat::Human)
            })
            .0,
            Ok(0)
        );
        std::fs::write(
            t.path().join("kernel_cache/soc/te_b.json"),
            r#"{"binFileName":"te_b","binFileSuffix":".o"}"#,
        )
        .unwrap();
        // Just written: possibly a compiler still at work, a warning.
        let (r, text) = run_str(&CacheCommand::Verify {
            cache: args(t.path(), OutputFormat::Human),
        });
        assert_eq!(r, Ok(0));
        assert!(
            text.contains("warning: entry soc/te_b.json incomplete"),
            "{text}"
        );
        // Written an hour ago and still missing its binary: torn.
        let hour_ago = cache::clock::system_now() - 3_600_000_000_000;
        cache::set_file_times(
            &t.path().join("kernel_cache/soc/te_b.json"),
            hour_ago,
            hour_ago,
        )
        .unwrap();
        let (r, text) = run_str(&CacheCommand::Verify {
            cache: args(t.path(), OutputFormat::Human),
        });
        assert_eq!(r, Ok(1));
        assert!(text.contains("error: torn entry soc/te_b.json"), "{text}");
    }

    #[test]
    fn gc_dry_run_and_clear() {
        let t = populated();
        let (r, text) = run_str(&CacheCommand::Gc {
            cache: args(t.path(), OutputFormat::Human),
            dry_run: true,
            remote: None,
            max_size: None,
        });
        assert_eq!(r, Ok(0));
        assert!(text.contains("nothing to remove"), "{text}");
        let (r, text) = run_str(&CacheCommand::Clear {
            cache: args(t.path(), OutputFormat::Json),
        });
        assert_eq!(r, Ok(0));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["files_removed"], 2);
    }

    #[test]
    fn missing_cache_and_bad_characters_are_input_errors() {
        let t = tempfile::tempdir().unwrap();
        let (r, _) = run_str(&CacheCommand::Info {
            cache: args(&t.path().join("nope"), OutputFormat::Human),
        });
        assert!(r.unwrap_err().contains("no operator compile cache"));
        let (r, _) = run_str(&CacheCommand::Gc {
            cache: args(std::path::Path::new("/tmp/a b"), OutputFormat::Human),
            dry_run: false,
            remote: None,
            max_size: None,
        });
        assert!(r.unwrap_err().contains("allowed are"));
        assert!(!t.path().join("nope").exists(), "a query creates nothing");
    }
}
