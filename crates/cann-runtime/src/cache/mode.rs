//! `op_compiler_cache_mode` and the `op_debug_level` / `op_debug_config` overrides.

use std::collections::BTreeSet;

/// `op_compiler_cache_mode`: the spec's generated enum, used as is. The cache acts on each
/// value's [`CacheBehaviour`] (a spec fact), never on its name, so a value the spec adds with
/// a known behaviour needs no change here. `rebuild` drops existing entries logically, so
/// processes still reading old entries are not broken (see
/// [`crate::cache::Cache::invalidate_all`]).
pub use cann_config::OpCompilerCacheMode as CacheMode;

pub use cann_config::behaviour::CacheBehaviour;

/// The parts of an `op_debug_config` file that matter to the cache.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpDebugConfig {
    /// `op_debug_list`: operator names, or `opType::Type` for every operator of a type.
    /// `None` when the key is absent, which disables the cache entirely.
    pub op_debug_list: Option<Vec<String>>,
}

impl OpDebugConfig {
    /// Parses the `key=value` lines of an `op_debug_config` file; `#` starts a comment.
    /// Only `op_debug_list` is kept; its value is a comma-separated list.
    pub fn parse(text: &str) -> Self {
        let mut list = None;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            if let Some((k, v)) = line.split_once('=') {
                if k.trim() == "op_debug_list" {
                    let items: Vec<String> = v
                        .split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned)
                        .collect();
                    list = Some(items);
                }
            }
        }
        OpDebugConfig {
            op_debug_list: list,
        }
    }
}

/// Why the cache is off.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum DisabledBy {
    /// `op_compiler_cache_mode` is a value whose behaviour is `off` (`disable`).
    Mode,
    /// `op_debug_level` is set to a non-zero value.
    OpDebugLevel { level: i64 },
    /// `op_debug_config` is set but its file has no `op_debug_list`.
    OpDebugConfigWithoutList,
}

/// What the cache does for one compilation session.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum CachePolicy {
    /// No lookups and no stores.
    Disabled(DisabledBy),
    /// Lookups and stores, except for the listed operators, which are always recompiled.
    Enabled {
        /// True for a `rebuild` mode (`force`): entries committed before this session are
        /// treated as absent.
        force: bool,
        /// Operator names that bypass the cache.
        bypass_names: BTreeSet<String>,
        /// Operator types (`opType::X` in `op_debug_list`) that bypass the cache.
        bypass_types: BTreeSet<String>,
    },
}

impl CachePolicy {
    /// Applies the documented overrides: a non-zero `op_debug_level` disables the cache;
    /// an `op_debug_config` without `op_debug_list` disables it; with a list, only the listed
    /// operators bypass it.
    pub fn resolve(
        mode: CacheMode,
        op_debug_level: Option<i64>,
        op_debug_config: Option<&OpDebugConfig>,
    ) -> Self {
        if let Some(level) = op_debug_level.filter(|l| *l != 0) {
            return CachePolicy::Disabled(DisabledBy::OpDebugLevel { level });
        }
        let force = match mode.behaviour() {
            CacheBehaviour::Off => return CachePolicy::Disabled(DisabledBy::Mode),
            CacheBehaviour::Rebuild => true,
            CacheBehaviour::Reuse => false,
        };
        let mut bypass_names = BTreeSet::new();
        let mut bypass_types = BTreeSet::new();
        if let Some(cfg) = op_debug_config {
            let Some(list) = &cfg.op_debug_list else {
                return CachePolicy::Disabled(DisabledBy::OpDebugConfigWithoutList);
            };
            for item in list {
                match item.strip_prefix("opType::") {
                    Some(t) => bypass_types.insert(t.to_owned()),
                    None => bypass_names.insert(item.clone()),
                };
            }
        }
        CachePolicy::Enabled {
            force,
            bypass_names,
            bypass_types,
        }
    }

    /// True when the operator (`name`, of type `op_type`) may use the cache.
    pub fn uses_cache(&self, name: &str, op_type: &str) -> bool {
        match self {
            CachePolicy::Disabled(_) => false,
            CachePolicy::Enabled {
                bypass_names,
                bypass_types,
                ..
            } => !bypass_names.contains(name) && !bypass_types.contains(op_type),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_gives_the_default_mode() {
        assert_eq!(CacheMode::default(), CacheMode::Enable);
        assert!("Enable".parse::<CacheMode>().is_err());
    }

    #[test]
    fn debug_level_wins_over_everything() {
        let p = CachePolicy::resolve(CacheMode::Force, Some(2), None);
        assert_eq!(
            p,
            CachePolicy::Disabled(DisabledBy::OpDebugLevel { level: 2 })
        );
        let p = CachePolicy::resolve(CacheMode::Enable, Some(0), None);
        assert!(p.uses_cache("Add", "Add"));
    }

    #[test]
    fn debug_config_without_list_disables() {
        let cfg = OpDebugConfig::parse("# c\noom=1\n");
        let p = CachePolicy::resolve(CacheMode::Enable, None, Some(&cfg));
        assert_eq!(
            p,
            CachePolicy::Disabled(DisabledBy::OpDebugConfigWithoutList)
        );
    }

    #[test]
    fn listed_operators_bypass() {
        let cfg = OpDebugConfig::parse("op_debug_list = GatherV2, opType::ReduceSum\n");
        let p = CachePolicy::resolve(CacheMode::Enable, None, Some(&cfg));
        assert!(!p.uses_cache("GatherV2", "GatherV2"));
        assert!(!p.uses_cache("sum_1", "ReduceSum"));
        assert!(p.uses_cache("add_1", "Add"));
        let p = CachePolicy::resolve(CacheMode::Disable, None, Some(&cfg));
        assert!(!p.uses_cache("add_1", "Add"));
    }
}
