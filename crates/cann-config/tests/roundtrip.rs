//! parse . emit = id: any typed config written as JSON (or YAML-compatible JSON) reads back
//! to the same config, with no findings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_config::emit::{emit, Format};
use cann_config::{
    AtomicCleanPolicy, Config, CoreCounts, Environment, MemoryConfig, NpuRunConfig,
    OpCompilerCacheMode, OpDebugLevel, StaticMemoryPolicy, VariableUse1gHugePage,
};
use proptest::prelude::*;

fn pick<T: Copy + std::fmt::Debug + 'static>(
    all: &'static [T],
) -> impl Strategy<Value = Option<T>> {
    proptest::option::of(proptest::sample::select(all))
}

fn config() -> impl Strategy<Value = Config> {
    let mem = (
        pick(AtomicCleanPolicy::ALL),
        pick(StaticMemoryPolicy::ALL),
        pick(VariableUse1gHugePage::ALL),
    )
        .prop_map(|(a, s, v)| MemoryConfig {
            atomic_clean_policy: a,
            static_memory_policy: s,
            variable_use_1g_huge_page: v,
            ..Default::default()
        });
    let run = (
        proptest::option::of(mem),
        pick(OpCompilerCacheMode::ALL),
        proptest::option::of("[a-zA-Z0-9_/.\u{4e00}-\u{4e20}-]{1,24}"),
        proptest::option::of(
            (1u32..64, 1u32..128).prop_map(|(c, v)| CoreCounts { cube: c, vector: v }),
        ),
        proptest::option::of(any::<bool>()),
        pick(OpDebugLevel::ALL),
        proptest::option::of("[^\\x00]{0,20}"),
    )
        .prop_map(|(m, mode, dir, cores, fold, lvl, dbg)| NpuRunConfig {
            memory_config: m,
            op_compiler_cache_mode: mode,
            op_compiler_cache_dir: dir,
            aicore_num: cores,
            oo_constant_folding: fold,
            op_debug_level: lvl,
            op_debug_config: dbg,
            ..Default::default()
        });
    let env = (
        proptest::option::of(-1i64..100_000),
        proptest::option::of(1i64..=100),
    )
        .prop_map(|(m, r)| Environment {
            ascend_max_op_cache_size: m,
            ascend_remain_cache_size_ratio: r,
            ..Default::default()
        });
    (proptest::option::of(run), proptest::option::of(env)).prop_map(|(r, e)| Config {
        npu_run_config: r,
        env: e,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn json_round_trip(cfg in config()) {
        let text = emit(&cfg, Format::Json).unwrap();
        let back = cann_config::parse_config(&text);
        // An empty config emits `{}`, which is a valid, empty file.
        let back = back.unwrap();
        prop_assert!(back.diagnostics.is_empty(), "{:?}\n{text}", back.diagnostics);
        prop_assert_eq!(back.config, cfg);
    }
}
