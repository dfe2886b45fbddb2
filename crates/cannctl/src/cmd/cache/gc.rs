//! `cannctl cache gc` on the local cache: one aging pass (or what it would remove), by
//! reason.

use std::io::Write;

use cann_i18n::bytes::exact as mb;
use cann_i18n::catalog::cache as msg;
use cann_runtime::cache::{EnvSnapshot, GcOptions, GcOutcome, Reason};

use super::common::{opened, warn_limits, Access, BoxError};
use crate::cli::{CacheArgs, OutputFormat};

pub(super) fn gc(
    args: &CacheArgs,
    dry_run: bool,
    env: &EnvSnapshot,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    // A dry run changes nothing: on a cache this user cannot write (a read-only mount, no
    // permission) it still says what a pass would remove.
    let access = if dry_run {
        Access::WriteElseRead
    } else {
        Access::Write
    };
    let o = opened(args, env, access, msg::label_aging)?;
    let l = o.lang;
    let outcome = o.cache.gc_with_progress(
        &GcOptions {
            dry_run,
            ..GcOptions::default()
        },
        &o.bar,
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
    warn_limits(l, &o.limits, out)?;
    Ok(0)
}
