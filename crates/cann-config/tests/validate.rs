//! Validation against products and releases: support, ranges, paths, cores, deprecation,
//! and the seed rules, each triggered and not triggered.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::meta::Severity;
use common::*;

const MEM: &str = "npu_run_config:\n  memory_config:\n";

#[test]
fn example_is_clean_on_its_target() {
    let ds = check(
        include_str!("../../../examples/train-a2.yaml"),
        "atlas-a2-training",
        "9.0.0",
    );
    assert!(errors(&ds).is_empty(), "{ds:#?}");
}

#[test]
fn memory_config_products_follow_each_release() {
    let cfg = format!("{MEM}    atomic_clean_policy: 1\n");
    // Seed 000 (8.3.RC1): A2 inference not supported; seed 001 (9.0.0): supported.
    assert_eq!(
        errors(&check(&cfg, "atlas-a2-inference", "8.3.RC1")).len(),
        1
    );
    assert!(errors(&check(&cfg, "atlas-a2-inference", "9.0.0")).is_empty());
    // Atlas 350 exists only from 9.0.0.
    assert!(errors(&check(&cfg, "atlas-350", "9.0.0")).is_empty());
    assert!(!errors(&check(&cfg, "atlas-350", "8.3.RC1")).is_empty());
    for p in ["atlas-200i-500-a2", "atlas-inference"] {
        let ds = check(&cfg, p, "9.0.0");
        assert_eq!(errors(&ds).len(), 1, "{p}: {ds:#?}");
        assert_eq!(errors(&ds)[0].option, "npu_run_config.memory_config");
    }
    for p in [
        "atlas-a3-training",
        "atlas-a3-inference",
        "atlas-a2-training",
        "atlas-training",
    ] {
        assert!(errors(&check(&cfg, p, "8.3.RC1")).is_empty(), "{p}");
        assert!(errors(&check(&cfg, p, "9.0.0")).is_empty(), "{p}");
    }
}

#[test]
fn huge_page_option_has_its_own_products() {
    let cfg = format!("{MEM}    variable_use_1g_huge_page: 2\n");
    assert!(errors(&check(&cfg, "atlas-a2-training", "8.3.RC1")).is_empty());
    // Supported by MemoryConfig but not by this option.
    let ds = check(&cfg, "atlas-training", "9.0.0");
    assert_eq!(errors(&ds).len(), 1);
    assert_eq!(
        errors(&ds)[0].option,
        "npu_run_config.memory_config.variable_use_1g_huge_page"
    );
    assert!(errors(&check(&cfg, "atlas-a2-inference", "9.0.0")).is_empty());
    assert!(errors(&check(&cfg, "atlas-350", "9.0.0")).is_empty());
    // Not yet documented in 8.0.0.
    assert!(!errors(&check(&cfg, "atlas-a2-training", "8.0.0")).is_empty());
}

#[test]
fn memory_optimization_policy_is_read_before_its_page_lists_it() {
    // Read by the adapter since 6.3.RC1, though the MemoryConfig pages before 8.5.0 leave
    // it out: a config setting it is valid in 8.0.RC2 as in 9.0.0.
    let cfg = format!("{MEM}    memory_optimization_policy: MemoryPriority\n");
    for release in ["8.0.RC2", "8.3.RC1", "9.0.0"] {
        let ds = check(&cfg, "atlas-a2-training", release);
        assert!(errors(&ds).is_empty(), "{release}: {ds:#?}");
    }
}

#[test]
fn aicore_num_products() {
    let cfg = "npu_run_config:\n  aicore_num: \"8|16\"\n";
    assert!(errors(&check(cfg, "atlas-a3-training", "9.0.0")).is_empty());
    assert!(errors(&check(cfg, "atlas-a2-inference", "9.0.0")).is_empty());
    assert_eq!(errors(&check(cfg, "atlas-training", "9.0.0")).len(), 1);
}

#[test]
fn product_unknown_to_the_release() {
    let ds = check("npu_run_config: {}\n", "atlas-350", "8.3.RC1");
    assert_eq!(errors(&ds)[0].option, "product");
}

#[test]
fn env_ranges() {
    let ok = "env:\n  ASCEND_MAX_OP_CACHE_SIZE: -1\n  ASCEND_REMAIN_CACHE_SIZE_RATIO: 100\n";
    assert!(errors(&check(ok, "atlas-a2-training", "9.0.0")).is_empty());
    // The compiler takes a ratio of 0 from the environment (not from op_cache.ini).
    let zero = "env:\n  ASCEND_REMAIN_CACHE_SIZE_RATIO: 0\n";
    assert!(errors(&check(zero, "atlas-a2-training", "9.0.0")).is_empty());
    for bad in [
        "env:\n  ASCEND_REMAIN_CACHE_SIZE_RATIO: -1\n",
        "env:\n  ASCEND_MAX_OP_CACHE_SIZE: 0\n",
        "env:\n  ASCEND_MAX_OP_CACHE_SIZE: 2147483647\n",
        "env:\n  ASCEND_REMAIN_CACHE_SIZE_RATIO: 101\n",
        "env:\n  ASCEND_MAX_OP_CACHE_SIZE: -2\n",
    ] {
        let ds = check(bad, "atlas-a2-training", "9.0.0");
        assert_eq!(errors(&ds).len(), 1, "{bad}");
        assert!(errors(&ds)[0].expected.is_some());
    }
}

#[test]
fn cache_dir_characters() {
    for ok in ["/home/test/kernel_cache", "/data/缓存/kernel-cache.v2"] {
        let cfg = format!("npu_run_config:\n  op_compiler_cache_dir: \"{ok}\"\n");
        assert!(
            errors(&check(&cfg, "atlas-a2-training", "9.0.0")).is_empty(),
            "{ok}"
        );
    }
    for bad in ["/tmp/cache dir", "/tmp/$HOME", "C:\\\\cache", "/tmp/a;rm"] {
        let cfg = format!("npu_run_config:\n  op_compiler_cache_dir: \"{bad}\"\n");
        assert_eq!(
            errors(&check(&cfg, "atlas-a2-training", "9.0.0")).len(),
            1,
            "{bad}"
        );
    }
}

#[test]
fn deprecated_option_warns_with_its_replacement() {
    let ds = check(
        "npu_run_config:\n  op_debug_level: 0\n",
        "atlas-a2-training",
        "9.0.0",
    );
    let w: Vec<_> = ds
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .collect();
    assert_eq!(w.len(), 1);
    assert!(w[0].hint.as_deref().unwrap().contains("op_debug_config"));
}

#[test]
fn rule_op_debug_level_disables_cache() {
    let on = check(
        "npu_run_config:\n  op_debug_level: 1\n",
        "atlas-a2-training",
        "9.0.0",
    );
    assert!(fired(&on, "op-debug-level-disables-cache"));
    let off = check(
        "npu_run_config:\n  op_debug_level: 0\n",
        "atlas-a2-training",
        "9.0.0",
    );
    assert!(!fired(&off, "op-debug-level-disables-cache"));
}

#[test]
fn rule_op_debug_config_may_disable_cache() {
    let on = check(
        "npu_run_config:\n  op_debug_config: /root/debug.cfg\n",
        "atlas-a2-training",
        "9.0.0",
    );
    assert!(fired(&on, "op-debug-config-may-disable-cache"));
    let off = check(
        "npu_run_config:\n  op_compiler_cache_mode: enable\n",
        "atlas-a2-training",
        "9.0.0",
    );
    assert!(!fired(&off, "op-debug-config-may-disable-cache"));
}

#[test]
fn rule_static_policy_not_concurrent_follows_the_release() {
    let four = format!("{MEM}    static_memory_policy: 4\n");
    let two = format!("{MEM}    static_memory_policy: 2\n");
    let three = format!("{MEM}    static_memory_policy: 3\n");
    assert!(fired(
        &check(&four, "atlas-a2-training", "9.0.0"),
        "static-memory-policy-not-concurrent"
    ));
    assert!(fired(
        &check(&two, "atlas-a2-training", "9.0.0"),
        "static-memory-policy-not-concurrent"
    ));
    assert!(!fired(
        &check(&three, "atlas-a2-training", "9.0.0"),
        "static-memory-policy-not-concurrent"
    ));
    // 8.0.RC2 and 8.0.RC3 documented the restriction for 2 only.
    let old4 = check(&four, "atlas-a2-training", "8.0.RC3");
    assert!(!fired(&old4, "static-memory-policy-not-concurrent"));
    assert!(!fired(&old4, "static-memory-policy-not-concurrent-2"));
    assert!(fired(
        &check(&two, "atlas-a2-training", "8.0.RC2"),
        "static-memory-policy-not-concurrent-2"
    ));
}

#[test]
fn rule_expandable_memory_costs_speed() {
    assert!(fired(
        &check(
            &format!("{MEM}    static_memory_policy: 3\n"),
            "atlas-a2-training",
            "9.0.0"
        ),
        "expandable-memory-costs-speed"
    ));
    assert!(!fired(
        &check(
            &format!("{MEM}    static_memory_policy: 0\n"),
            "atlas-a2-training",
            "9.0.0"
        ),
        "expandable-memory-costs-speed"
    ));
}

#[test]
fn rule_env_and_option_both_set() {
    let both = format!("{MEM}    static_memory_policy: 3\nenv:\n  GE_USE_STATIC_MEMORY: 2\n");
    let ds = check(&both, "atlas-a2-training", "9.0.0");
    assert!(fired(&ds, "ge-use-static-memory-with-option"));
    let env_only = "env:\n  GE_USE_STATIC_MEMORY: 2\n";
    assert!(!fired(
        &check(env_only, "atlas-a2-training", "9.0.0"),
        "ge-use-static-memory-with-option"
    ));
}

#[test]
fn rule_force_mode() {
    assert!(fired(
        &check(
            "npu_run_config:\n  op_compiler_cache_mode: force\n",
            "atlas-a2-training",
            "9.0.0"
        ),
        "force-cache-mode-and-parallel-builds"
    ));
    assert!(!fired(
        &check(
            "npu_run_config:\n  op_compiler_cache_mode: enable\n",
            "atlas-a2-training",
            "9.0.0"
        ),
        "force-cache-mode-and-parallel-builds"
    ));
}

#[test]
fn rule_constant_folding_off() {
    assert!(fired(
        &check(
            "npu_run_config:\n  oo_constant_folding: false\n",
            "atlas-a2-training",
            "9.0.0"
        ),
        "constant-folding-off"
    ));
    assert!(!fired(
        &check(
            "npu_run_config:\n  oo_constant_folding: true\n",
            "atlas-a2-training",
            "9.0.0"
        ),
        "constant-folding-off"
    ));
}

#[test]
fn rule_cache_aging_off() {
    assert!(fired(
        &check(
            "env:\n  ASCEND_MAX_OP_CACHE_SIZE: -1\n",
            "atlas-a2-training",
            "9.0.0"
        ),
        "cache-aging-off"
    ));
    assert!(!fired(
        &check(
            "env:\n  ASCEND_MAX_OP_CACHE_SIZE: 100\n",
            "atlas-a2-training",
            "9.0.0"
        ),
        "cache-aging-off"
    ));
}

#[test]
fn typed_construction_is_validated_too() {
    use cann_config::{Config, CoreCounts, Environment, NpuRunConfig};
    let cfg = Config {
        npu_run_config: Some(NpuRunConfig {
            aicore_num: Some(CoreCounts { cube: 0, vector: 2 }),
            ..Default::default()
        }),
        env: Some(Environment {
            ascend_remain_cache_size_ratio: Some(500),
            ..Default::default()
        }),
    };
    let r = cann_config::validate(&cfg, target("atlas-a2-training", "9.0.0"));
    assert_eq!(r.count(Severity::Error), 2, "{:#?}", r.diagnostics);
}

#[test]
fn chinese_messages() {
    let f = parse("npu_run_config:\n  memory_config:\n    atomic_clean_policy: 1\n");
    let mut r = cann_config::Report::new(cann_config::meta::Lang::Zh);
    cann_config::validate_into(&f.config, target("atlas-inference", "9.0.0"), &mut r);
    assert!(
        r.diagnostics[0].message.contains("不支持"),
        "{:#?}",
        r.diagnostics
    );
}

#[test]
fn tf2_gets_the_type_it_checks_for() {
    let f = parse("npu_run_config:\n  enable_small_channel: 1\n");
    let out = cann_config::emit::emit(&f.config, cann_config::emit::Format::Tf2).unwrap();
    assert!(
        out.contains("npu.global_options().enable_small_channel = True"),
        "{out}"
    );
    let session = cann_config::emit::emit(&f.config, cann_config::emit::Format::Session).unwrap();
    assert!(
        session.contains("parameter_map[\"enable_small_channel\"].i = 1"),
        "{session}"
    );
}
