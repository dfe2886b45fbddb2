//! `cannctl cache info`: where the cache is, its limits and size, whether it needs aging,
//! and the toolkit versions it was filled by.

use std::io::Write;

use cann_i18n::bytes::exact as mb;
use cann_i18n::catalog::cache as msg;
use cann_i18n::Lang;
use cann_runtime::cache::{self, AgingNeed, DirSource, EnvSnapshot, MaxSize, Origin};

use super::common::{opened, warn_limits, Access, BoxError, Opened};
use crate::cli::{CacheArgs, OutputFormat};

pub(super) fn info(
    args: &CacheArgs,
    env: &EnvSnapshot,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let Opened {
        dir,
        limits,
        lang: l,
        cache: c,
        bar,
    } = opened(args, env, Access::Read, msg::label_scanning)?;
    let rep = c.info(&bar)?;
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
