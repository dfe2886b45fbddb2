//! `cannctl cache clear`: everything goes, except what a concurrent reader still holds.

use std::io::Write;

use cann_i18n::bytes::exact as mb;
use cann_i18n::catalog::cache as msg;
use cann_runtime::cache::EnvSnapshot;

use super::common::{opened, Access, BoxError};
use crate::cli::{CacheArgs, OutputFormat};

pub(super) fn clear(
    args: &CacheArgs,
    env: &EnvSnapshot,
    out: &mut dyn Write,
) -> Result<u8, BoxError> {
    let o = opened(args, env, Access::Write, msg::label_clearing)?;
    let l = o.lang;
    let rep = o.cache.clear(&o.bar)?;
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
