//! Finding an option by any name a user may know it by.
//!
//! Users arrive with whatever their code or log says: the dotted path of a config file, the
//! option's name, a `ge.*` key, an Estimator keyword (`HCCL_algorithm`), a session
//! `parameter_map` name, a TF2 global-options path, an environment variable, a spelling the
//! adapter no longer reads, or the tail of a dotted path (`memory_config.static_memory_policy`).

use cann_config::meta::{Lang, OptionMeta};
use cann_config::OPTIONS;
use cann_i18n::catalog::explain as msg;

use crate::CliError;

/// The option `query` names. Exact spellings win over path tails, and those over matches that
/// ignore case; a query that names several options at the first level it matches is refused
/// with their paths.
pub fn find(query: &str, lang: Lang) -> Result<&'static OptionMeta, CliError> {
    let q = strip_surface(query.trim());
    let levels: [&dyn Fn(&OptionMeta) -> bool; 4] = [
        &|o| o.path == q,
        &|o| names(o).any(|n| n == q),
        &|o| tails(o).any(|t| t == q),
        &|o| names(o).chain(tails(o)).any(|n| n.eq_ignore_ascii_case(q)),
    ];
    for matches in levels {
        let found: Vec<&'static OptionMeta> = OPTIONS.iter().filter(|o| matches(o)).collect();
        match found.as_slice() {
            [] => continue,
            [o] => return Ok(o),
            many => {
                let live = prefer_live(many);
                return match live.as_slice() {
                    [o] => Ok(o),
                    _ => Err(ambiguous(q, &live, lang)),
                };
            }
        }
    }
    let hint = cann_spec::did_you_mean(q, OPTIONS.iter().map(|o| o.name))
        .map(|s| msg::did_you_mean(lang, s))
        .unwrap_or_else(|| msg::list_options(lang));
    Err(CliError::Usage(msg::unknown_option(lang, q), Some(hint)))
}

/// Several options answer to one name only where a retired one shared it with a living one;
/// then the living one is meant.
fn prefer_live(many: &[&'static OptionMeta]) -> Vec<&'static OptionMeta> {
    let live: Vec<_> = many
        .iter()
        .copied()
        .filter(|o| o.removal().is_none())
        .collect();
    if live.is_empty() {
        many.to_vec()
    } else {
        live
    }
}

fn ambiguous(q: &str, found: &[&'static OptionMeta], lang: Lang) -> CliError {
    let paths = lang.join(found.iter().map(|o| format!("`{}`", o.path)));
    CliError::Usage(
        msg::ambiguous(lang, q, &paths),
        Some(msg::ambiguous_hint(lang)),
    )
}

/// The query without the code around a name: `npu.global_options().x`, `parameter_map["x"].i`,
/// `NPURunConfig(x=...)`, `$X` and `export X=...` name `x`/`X`.
fn strip_surface(q: &str) -> &str {
    if let Some(rest) = q.split_once("parameter_map[").map(|(_, r)| r) {
        let rest = rest.trim_start_matches(['"', '\'']);
        if let Some(end) = rest.find(['"', '\'', ']']) {
            return &rest[..end];
        }
    }
    let q = q.strip_prefix("npu.global_options().").unwrap_or(q);
    let q = q
        .strip_prefix("export ")
        .unwrap_or(q)
        .trim_start_matches('$');
    let q = match q.split_once('(') {
        Some((_, args)) if q.ends_with(')') => args.trim_end_matches(')'),
        _ => q,
    };
    q.split_once('=').map_or(q, |(name, _)| name).trim()
}

/// Every exact name of `o`: its name, environment variable, `ge.*` keys (in any release),
/// Estimator keyword, session name, TF2 path, and the spellings it had before.
fn names(o: &OptionMeta) -> impl Iterator<Item = &'static str> + '_ {
    let own = [
        Some(o.name),
        o.env,
        o.ge_key,
        o.estimator,
        o.session.map(|(n, _)| n),
        o.tf2,
    ];
    let changed = o.changes.iter().filter_map(|c| c.ge_key);
    let retired = o.removed.iter().flat_map(|r| {
        [
            r.surfaces.estimator,
            r.surfaces.session.map(|(n, _)| n),
            r.surfaces.tf2,
            r.surfaces.env,
        ]
        .into_iter()
        .flatten()
    });
    own.into_iter().flatten().chain(changed).chain(retired)
}

/// The tails of `o`'s dotted paths at a dot: `memory_config.static_memory_policy`.
fn tails(o: &OptionMeta) -> impl Iterator<Item = &'static str> + '_ {
    [Some(o.path), o.tf2]
        .into_iter()
        .flatten()
        .flat_map(|p| p.match_indices('.').map(move |(i, _)| &p[i + 1..]))
        .filter(|t| t.contains('.'))
}
