//! From cann-config's typed config to the settings of the cache and the memory engine. The
//! engine takes the generated enums themselves, so a validated config drives it directly.

use cann_config::{MemoryConfig, NpuRunConfig};

use crate::cache::{CacheSettings, OpDebugConfig};
use crate::memory::{self, Resolution, SessionConfig};

/// The effective static memory policy of `cfg` combined with `GE_USE_STATIC_MEMORY`.
pub fn memory_resolution(cfg: &MemoryConfig, ge_use_static_memory: Option<&str>) -> Resolution {
    memory::resolve(cfg.static_memory_policy, ge_use_static_memory)
}

/// A session configuration for the engine: the resolved policy, with the atomic-clean and
/// huge-page settings of `cfg` (each at its default when unset).
pub fn session_config(cfg: &MemoryConfig, ge_use_static_memory: Option<&str>) -> SessionConfig {
    let r = memory_resolution(cfg, ge_use_static_memory);
    let mut s = SessionConfig::new(r.effective);
    if let Some(a) = cfg.atomic_clean_policy {
        s.atomic_clean = a;
    }
    if let Some(h) = cfg.variable_use_1g_huge_page {
        s.huge_pages = h;
    }
    s
}

/// Cache settings from the options of `run`; `op_debug_config_text` is the content of the
/// file `op_debug_config` names, when it was read.
pub fn cache_settings(run: &NpuRunConfig, op_debug_config_text: Option<&str>) -> CacheSettings {
    CacheSettings {
        mode: run.op_compiler_cache_mode,
        op_debug_level: run.op_debug_level.map(|l| l.code()),
        op_debug_config: run.op_debug_config.as_ref().map(|_| {
            op_debug_config_text
                .map(OpDebugConfig::parse)
                .unwrap_or_default()
        }),
        dir: run
            .op_compiler_cache_dir
            .as_ref()
            .map(std::path::PathBuf::from),
        versions: None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// The engine and the spec agree: every value of each option reaches the engine as
    /// itself, and unset settings take the spec's default.
    #[test]
    fn every_spec_value_reaches_the_engine() {
        for p in cann_config::StaticMemoryPolicy::ALL {
            let cfg = MemoryConfig {
                static_memory_policy: Some(*p),
                ..Default::default()
            };
            assert_eq!(memory_resolution(&cfg, None).effective, *p);
        }
        for a in cann_config::AtomicCleanPolicy::ALL {
            let cfg = MemoryConfig {
                atomic_clean_policy: Some(*a),
                ..Default::default()
            };
            assert_eq!(session_config(&cfg, None).atomic_clean, *a);
        }
        for h in cann_config::VariableUse1gHugePage::ALL {
            let cfg = MemoryConfig {
                variable_use_1g_huge_page: Some(*h),
                ..Default::default()
            };
            assert_eq!(session_config(&cfg, None).huge_pages, *h);
        }
        let unset = session_config(&MemoryConfig::default(), None);
        assert_eq!(
            unset.atomic_clean,
            cann_config::AtomicCleanPolicy::default()
        );
        assert_eq!(
            unset.huge_pages,
            cann_config::VariableUse1gHugePage::default()
        );
        assert_eq!(unset.policy, cann_config::StaticMemoryPolicy::default());
    }

    #[test]
    fn env_and_option_are_combined() {
        let cfg = MemoryConfig {
            static_memory_policy: Some(cann_config::StaticMemoryPolicy::DynamicShapeExpand),
            ..Default::default()
        };
        assert_eq!(
            memory_resolution(&cfg, Some("2")).effective,
            cann_config::StaticMemoryPolicy::AllShapeExpand
        );
    }

    #[test]
    fn cache_settings_follow_the_options() {
        let run = NpuRunConfig {
            op_compiler_cache_mode: Some(cann_config::OpCompilerCacheMode::Force),
            op_debug_level: Some(cann_config::OpDebugLevel::Debug),
            op_compiler_cache_dir: Some("/data/cache".into()),
            op_debug_config: Some("/data/debug.cfg".into()),
            ..Default::default()
        };
        let s = cache_settings(&run, Some("op_debug_list = Add,MatMul\n"));
        assert_eq!(s.mode, Some(crate::cache::CacheMode::Force));
        assert_eq!(s.op_debug_level, Some(1));
        assert_eq!(s.dir.as_deref(), Some(std::path::Path::new("/data/cache")));
        assert!(s.op_debug_config.unwrap().op_debug_list.is_some());
        assert_eq!(cache_settings(&NpuRunConfig::default(), None).mode, None);
    }
}
