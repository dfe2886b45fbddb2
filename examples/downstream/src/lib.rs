//! A training launcher's own view of the options it cares about, derived from the spec.
//!
//! The struct names options by field name (or `rename`); the derive checks each against
//! the spec at compile time and generates defaults, validation, emitters and serde.

use cann_config::{AtomicCleanPolicy, CoreCounts, OpCompilerCacheMode, StaticMemoryPolicy};

/// The knobs our launcher exposes to its users.
#[derive(Debug, Clone, PartialEq, cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.0.0")]
pub struct LauncherOptions {
    pub static_memory_policy: Option<StaticMemoryPolicy>,
    /// Named differently in our launcher than in the spec.
    #[cann(rename = "atomic_clean_policy")]
    pub memset_clean: Option<AtomicCleanPolicy>,
    pub op_compiler_cache_mode: Option<OpCompilerCacheMode>,
    pub op_compiler_cache_dir: Option<String>,
    pub aicore_num: Option<CoreCounts>,
    pub oo_constant_folding: Option<bool>,
    #[cann(rename = "ASCEND_MAX_OP_CACHE_SIZE")]
    pub cache_budget_mb: Option<i64>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use cann_config::emit::Format;
    use cann_config::meta::Severity;
    use cann_config::Product;

    #[test]
    fn defaults_come_from_the_spec() {
        let d = LauncherOptions::default();
        assert_eq!(d.static_memory_policy, Some(StaticMemoryPolicy::Dynamic));
        assert_eq!(d.memset_clean, Some(AtomicCleanPolicy::Centralized));
        assert_eq!(d.op_compiler_cache_mode, Some(OpCompilerCacheMode::Enable));
        assert_eq!(d.oo_constant_folding, Some(true));
        assert_eq!(d.cache_budget_mb, Some(500));
        assert_eq!(d.op_compiler_cache_dir, None, "no default in the spec");
        assert_eq!(LauncherOptions::RELEASE, cann_config::Release::V9_0_0);
    }

    #[test]
    fn validation_uses_products_and_the_declared_release() {
        let o = LauncherOptions {
            static_memory_policy: Some(StaticMemoryPolicy::StaticShapeExpand),
            op_compiler_cache_dir: Some("/tmp/cache dir".into()),
            ..LauncherOptions::default()
        };
        let r = o.validate(Product::AtlasA2Training);
        assert_eq!(r.count(Severity::Error), 1, "{:#?}", r.diagnostics);
        let r = o.validate(Product::AtlasInference);
        assert!(
            r.count(Severity::Error) >= 2,
            "MemoryConfig is not supported there"
        );
    }

    #[test]
    fn emitters_place_fields_at_their_spec_paths() {
        let o = LauncherOptions {
            static_memory_policy: Some(StaticMemoryPolicy::AllShapeExpand),
            memset_clean: None,
            aicore_num: Some("8|16".parse().unwrap()),
            cache_budget_mb: Some(1000),
            ..LauncherOptions::default()
        };
        let ge = o.emit(Format::Ge).unwrap();
        assert!(ge.contains("\"ge.exec.staticMemoryPolicy\": \"4\""), "{ge}");
        assert!(ge.contains("\"ge.aicoreNum\": \"8|16\""), "{ge}");
        assert!(o
            .emit(Format::Estimator)
            .unwrap()
            .contains("memory_config=MemoryConfig(static_memory_policy=4)"));
        assert_eq!(
            o.emit(Format::Env).unwrap(),
            "export ASCEND_MAX_OP_CACHE_SIZE=1000\n"
        );
        assert_eq!(LauncherOptions::from_config(&o.to_config()), o);
    }

    #[test]
    fn serde_uses_the_spec_names() {
        let o = LauncherOptions {
            memset_clean: Some(AtomicCleanPolicy::Separate),
            ..Default::default()
        };
        let json = serde_json::to_value(&o).unwrap();
        assert_eq!(json["atomic_clean_policy"], 1);
        assert!(
            json.get("op_compiler_cache_dir").is_none(),
            "unset options are not written"
        );
        let back: LauncherOptions = serde_json::from_value(json).unwrap();
        assert_eq!(back, o);
        assert!(serde_json::from_str::<LauncherOptions>(r#"{"static_memory_policy": 5}"#).is_err());
        assert!(serde_json::from_str::<LauncherOptions>(r#"{"bogus": 1}"#).is_err());
    }
}

/// Two derived views in one module, as a launcher with a training and an inference view
/// has them: a derive adds no named item beside its struct's, so they do not collide.
#[cfg(test)]
mod two_in_one_module {
    use cann_config::{AtomicCleanPolicy, StaticMemoryPolicy};

    #[derive(Debug, cann_macros::CannConfig)]
    #[cann(spec = "../../../spec", release = "9.0.0")]
    struct Training {
        static_memory_policy: Option<StaticMemoryPolicy>,
    }

    #[derive(Debug, cann_macros::CannConfig)]
    #[cann(spec = "../../../spec", release = "9.0.0")]
    struct Inference {
        atomic_clean_policy: Option<AtomicCleanPolicy>,
    }

    #[test]
    fn both_have_the_spec_defaults() {
        assert_eq!(
            Training::default().static_memory_policy,
            Some(StaticMemoryPolicy::Dynamic)
        );
        assert_eq!(
            Inference::default().atomic_clean_policy,
            Some(AtomicCleanPolicy::Centralized)
        );
    }
}
