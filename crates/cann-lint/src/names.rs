//! Which spec option a name on each API surface means, and which unknown names are typos.
//!
//! Everything here is read from `cann_config`'s tables; a new option in the spec is a new
//! name here without a change to this file.

use cann_config::meta::{ConfigKind, ConfigMeta, OptionMeta, RemovalMeta, TypeMeta};
use cann_config::{CONFIGS, OPTIONS};

use crate::Surface;

/// A Python class of the spec (`NPURunConfig`, `MemoryConfig`, ...) by the name it is called.
pub(crate) fn python_class(name: &str) -> Option<&'static ConfigMeta> {
    CONFIGS
        .iter()
        .find(|c| c.kind == ConfigKind::Python && c.name == name)
}

/// Names that must occur in a script for it to set any option; a file without one of them
/// is not parsed at all, which is what keeps a large tree fast.
pub(crate) fn triggers() -> Vec<&'static str> {
    let mut t = vec!["parameter_map", "global_options"];
    // Environment variables count only where a script writes them.
    t.extend(["environ", "putenv"]);
    t.extend(
        CONFIGS
            .iter()
            .filter(|c| c.kind == ConfigKind::Python)
            .map(|c| c.name),
    );
    t
}

/// The dotted path below the top of a config file where a class's options live:
/// `npu_run_config` for `NPURunConfig`, `npu_run_config.memory_config` for `MemoryConfig`.
pub(crate) fn class_path(class: &ConfigMeta) -> Option<&'static str> {
    if let Some(k) = class.root_key {
        return Some(k);
    }
    OPTIONS
        .iter()
        .find(|o| o.ty == TypeMeta::Config(class.name))
        .map(|o| o.path)
}

/// A keyword argument of `class(...)`. Options whose value is a Python object
/// (`session_config`, `distribute`) have no Estimator name in the spec, since nothing can emit
/// them, yet scripts pass them under the option's own name; such an option has no surface
/// at all. An option with a surface elsewhere but no keyword (`auto_tune_mode`) is not a
/// keyword of the class.
pub(crate) fn estimator(class: &str, kwarg: &str) -> Option<&'static OptionMeta> {
    let of_class = || OPTIONS.iter().filter(move |o| o.config == class);
    let no_surface =
        |o: &OptionMeta| o.estimator.is_none() && o.session.is_none() && o.tf2.is_none();
    of_class()
        .find(|o| o.estimator == Some(kwarg))
        .or_else(|| of_class().find(|o| no_surface(o) && o.name == kwarg))
}

pub(crate) fn estimator_names(class: &str) -> impl Iterator<Item = &'static str> + '_ {
    OPTIONS
        .iter()
        .filter(move |o| o.config == class)
        .filter_map(|o| o.estimator)
}

/// A `parameter_map["key"]` of a TF1 session.
pub(crate) fn session(key: &str) -> Option<&'static OptionMeta> {
    OPTIONS
        .iter()
        .find(|o| o.session.is_some_and(|(n, _)| n == key))
}

pub(crate) fn session_names() -> impl Iterator<Item = &'static str> {
    OPTIONS.iter().filter_map(|o| o.session.map(|(n, _)| n))
}

/// An attribute path below TF2's `npu.global_options()`.
pub(crate) fn tf2(path: &str) -> Option<&'static OptionMeta> {
    OPTIONS.iter().find(|o| o.tf2 == Some(path))
}

pub(crate) fn tf2_names() -> impl Iterator<Item = &'static str> {
    OPTIONS.iter().filter_map(|o| o.tf2)
}

/// An environment variable the spec knows.
pub(crate) fn env(name: &str) -> Option<&'static OptionMeta> {
    OPTIONS.iter().find(|o| o.env == Some(name))
}

pub(crate) fn env_names() -> impl Iterator<Item = &'static str> {
    OPTIONS.iter().filter_map(|o| o.env)
}

/// A spelling the adapter no longer takes on `surface` (`NPURunConfig(auto_tune_mode=...)`)
/// of an option that lives on under others: the option and the spec's retirement of it.
pub(crate) fn retired(
    surface: Surface,
    class: Option<&str>,
    name: &str,
) -> Option<(&'static OptionMeta, &'static RemovalMeta)> {
    OPTIONS.iter().find_map(|o| {
        let r = o.retired_surfaces().find(|r| match surface {
            Surface::Estimator => {
                r.surfaces.estimator == Some(name) && class.is_none_or(|c| o.config == c)
            }
            Surface::Session => r.surfaces.session.is_some_and(|(n, _)| n == name),
            Surface::Tf2 => r.surfaces.tf2 == Some(name),
            Surface::Env => r.surfaces.env == Some(name),
        })?;
        Some((o, r))
    })
}

/// A spec option called `name` on some other surface, or in some other class.
pub(crate) fn by_name(name: &str) -> Option<&'static OptionMeta> {
    OPTIONS.iter().find(|o| o.name == name)
}

/// The known name an unknown one is a likely misspelling of.
///
/// A loose similarity (the spec loader's did-you-mean) would offer `op_debug_level` for
/// `op_precision_mode`; a suggestion the user would dismiss costs trust. So a name counts
/// as a typo only when it is within a small edit distance of a known one, ignoring case:
/// two edits for names of eight characters or more, one for shorter names.
///
/// Also says whether no other known name is as close: a fix may rename only then.
pub(crate) fn typos<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<(&'a str, bool)> {
    let lower = name.to_ascii_lowercase();
    let budget = if name.len() >= 8 { 2 } else { 1 };
    let chars = lower.chars().count();
    let mut near: Vec<(usize, &'a str)> = known
        .into_iter()
        .filter(|k| *k != name)
        // No fewer edits than the lengths differ by: most names are never measured, which
        // made this a quarter of the language server's time per edit.
        .filter(|k| k.chars().count().abs_diff(chars) <= budget)
        .map(|k| {
            (
                strsim::damerau_levenshtein(&lower, &k.to_ascii_lowercase()),
                k,
            )
        })
        .filter(|(d, _)| *d <= budget)
        .collect();
    near.sort_unstable();
    near.dedup_by(|a, b| a.1 == b.1);
    let (best, k) = *near.first()?;
    let unique = near.get(1).is_none_or(|(d, _)| *d > best);
    Some((k, unique))
}

/// The known names of `surface` (of `class`, for keywords).
fn known_on(surface: Surface, class: Option<&str>) -> Vec<&'static str> {
    match surface {
        Surface::Estimator => estimator_names(class.unwrap_or("")).collect(),
        Surface::Session => session_names().collect(),
        Surface::Tf2 => tf2_names().collect(),
        Surface::Env => env_names().collect(),
    }
}

/// Distinct unknown names remembered per thread; past this the memory starts over.
const TYPO_MEMO: usize = 4096;

thread_local! {
    /// [`typos`] of a name among the known names of a surface, by (surface, class, name):
    /// a function of those alone, and the same unknown names (environment variables, a
    /// project's own keys) come back on every edit and in every file of a tree.
    #[allow(clippy::type_complexity)]
    static TYPOS: std::cell::RefCell<
        std::collections::HashMap<(Surface, Option<String>, String), Option<(&'static str, bool)>>,
    > = std::cell::RefCell::default();
}

/// [`typos`] of `name` among the names `surface` knows (those of `class`, for keywords),
/// remembered.
pub(crate) fn typo_on(
    surface: Surface,
    class: Option<&str>,
    name: &str,
) -> Option<(&'static str, bool)> {
    let key = (surface, class.map(str::to_string), name.to_string());
    if let Some(hit) = TYPOS.with(|m| m.borrow().get(&key).copied()) {
        return hit;
    }
    let found = typos(name, known_on(surface, class));
    TYPOS.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= TYPO_MEMO {
            m.clear();
        }
        m.insert(key, found);
    });
    found
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn typo_of<'a>(name: &str, known: [&'a str; 3]) -> Option<&'a str> {
        typos(name, known).map(|(k, _)| k)
    }

    #[test]
    fn a_tie_is_not_a_unique_suggestion() {
        assert_eq!(
            typos("dump_mod", ["dump_mode", "dump_modes", "x"]),
            Some(("dump_mode", true))
        );
        assert_eq!(
            typos("dump_modeX", ["dump_modeA", "dump_modeB", "x"]).map(|t| t.1),
            Some(false)
        );
    }

    /// The length filter leaves out only names the distance would have: over every pair
    /// of known names and their edits, the same answer as measuring all of them.
    #[test]
    fn the_length_filter_changes_no_answer() {
        let known: Vec<&str> = session_names()
            .chain(tf2_names())
            .chain(env_names())
            .collect();
        let slow = |name: &str| {
            let lower = name.to_ascii_lowercase();
            let budget = if name.len() >= 8 { 2 } else { 1 };
            let mut near: Vec<(usize, &str)> = known
                .iter()
                .filter(|k| **k != name)
                .map(|k| {
                    (
                        strsim::damerau_levenshtein(&lower, &k.to_ascii_lowercase()),
                        *k,
                    )
                })
                .filter(|(d, _)| *d <= budget)
                .collect();
            near.sort_unstable();
            near.dedup_by(|a, b| a.1 == b.1);
            let (best, k) = *near.first()?;
            Some((k, near.get(1).is_none_or(|(d, _)| *d > best)))
        };
        let mut tried = 0;
        for k in &known {
            for name in [
                k.to_string(),
                format!("{k}s"),
                format!("{k}_x"),
                k[1..].to_string(),
                k.to_uppercase(),
                k.replacen('_', "", 1),
                format!("x{k}"),
            ] {
                assert_eq!(typos(&name, known.iter().copied()), slow(&name), "{name}");
                tried += 1;
            }
        }
        assert!(tried > 300, "{tried}");
    }

    /// The remembered answer is the answer, the first time and after, per surface and class.
    #[test]
    fn remembered_typos_are_the_typos() {
        let cases = [
            (Surface::Session, None, "precision_modx"),
            (Surface::Env, None, "ASCEND_CACHE_PAT"),
            (Surface::Tf2, None, "precision_mod"),
            (Surface::Estimator, Some("NPURunConfig"), "precision_mod"),
            (Surface::Estimator, Some("MemoryConfig"), "precision_mod"),
            (Surface::Session, None, "nothing_like_it_at_all"),
        ];
        for _ in 0..2 {
            for (surface, class, name) in cases {
                let want = typos(name, known_on(surface, class));
                assert_eq!(typo_on(surface, class, name), want, "{surface:?} {name}");
            }
        }
        assert!(typo_on(Surface::Session, None, "precision_modx").is_some());
    }

    #[test]
    fn typos_are_close_and_real_upstream_names_are_not() {
        let known = ["op_debug_level", "static_memory_policy", "aicore_num"];
        assert_eq!(typo_of("op_debug_levl", known), Some("op_debug_level"));
        assert_eq!(
            typo_of("Static_Memory_Policy", known),
            Some("static_memory_policy")
        );
        assert_eq!(typo_of("aicore_nums", known), Some("aicore_num"));
        assert_eq!(typo_of("op_precision_mode", known), None);
        assert_eq!(typo_of("precision_mode", known), None);
        assert_eq!(typo_of("op_debug_level", known), None);
    }

    #[test]
    fn every_python_class_has_a_place_in_a_config_file() {
        for c in CONFIGS.iter().filter(|c| c.kind == ConfigKind::Python) {
            assert!(class_path(c).is_some(), "{}", c.name);
        }
    }
}
