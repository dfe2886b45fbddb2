//! `cannctl cache verify`: torn, in-progress, orphaned and foreign entries; exit 1 on an
//! error.

use std::io::Write;

use cann_i18n::bytes::exact as mb;
use cann_i18n::catalog::cache as msg;
use cann_i18n::Lang;
use cann_runtime::cache::{EnvSnapshot, TornWhy};

use super::common::{opened, Access, BoxError};
use crate::cli::{CacheArgs, OutputFormat};

pub(super) fn verify(
    args: &CacheArgs,
    env: &EnvSnapshot,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let o = opened(args, env, Access::Read, msg::label_verifying)?;
    let l = o.lang;
    let rep = o.cache.verify(&o.bar)?;
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
