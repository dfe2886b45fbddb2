//! Release differences for the seed options, as the two MemoryConfig pages and the older
//! pages document them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_config::diff::{diff, Change};
use cann_config::{Product, Release};

fn find<'a>(cs: &'a [Change], kind: &str, subject: &str) -> Vec<&'a Change> {
    cs.iter()
        .filter(|c| c.kind == kind && c.subject == subject)
        .collect()
}

#[test]
fn seed_000_to_seed_001() {
    let d = diff(Release::V8_3_RC1, Release::V9_0_0, None);
    let p = find(&d.changes, "product", "atlas-350");
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].change, "added");
    // The 8.3.RC1 page leaves memory_optimization_policy out, but the adapter has read it
    // since 6.3.RC1 (spec/history/upstream-refs.json): it is no news of 9.0.0.
    let o = find(
        &d.changes,
        "option",
        "npu_run_config.memory_config.memory_optimization_policy",
    );
    assert!(o.is_empty(), "{o:?}");
    let s = find(
        &d.changes,
        "support",
        "npu_run_config.memory_config.static_memory_policy",
    );
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].detail.as_deref(), Some("atlas-a2-inference"));
    assert_eq!(
        (s[0].before.as_deref(), s[0].after.as_deref()),
        (Some("not supported"), Some("supported"))
    );
    // Atlas 350 is new to the release, so it is reported once, not per option.
    assert!(!d
        .changes
        .iter()
        .any(|c| c.kind == "support" && c.detail.as_deref() == Some("atlas-350")));
}

#[test]
fn huge_pages_arrive_in_8_1() {
    let d = diff(Release::V8_0_0, Release::V8_1_RC1, None);
    assert_eq!(
        find(
            &d.changes,
            "option",
            "npu_run_config.memory_config.variable_use_1g_huge_page"
        )[0]
        .change,
        "added"
    );
    // The 8.1.RC1 table drops the A2 inference line and the 200I/500 A2 line.
    let lost: Vec<_> = find(&d.changes, "support", "npu_run_config.memory_config")
        .iter()
        .map(|c| c.detail.clone().unwrap())
        .collect();
    assert_eq!(lost, ["atlas-a2-inference", "atlas-200i-500-a2"]);
}

#[test]
fn product_view() {
    let d = diff(
        Release::V8_3_RC1,
        Release::V9_0_0,
        Some(Product::AtlasA2Inference),
    );
    assert!(
        find(
            &d.changes,
            "option",
            "npu_run_config.memory_config.static_memory_policy"
        )[0]
        .change
            == "added"
    );
    let none = diff(Release::V9_0_0, Release::V9_0_0, None);
    assert!(none.changes.is_empty());
}

#[test]
fn backwards_diff_mirrors_forwards() {
    let f = diff(Release::V8_3_RC1, Release::V9_0_0, None);
    let b = diff(Release::V9_0_0, Release::V8_3_RC1, None);
    assert_eq!(f.changes.len(), b.changes.len());
    assert_eq!(
        find(&b.changes, "product", "atlas-350")[0].change,
        "removed"
    );
}

/// `cannctl diff 8.0.RC2 9.0.0` as checked by hand against the adapter's branches and tags
/// (spec/history/upstream-refs.json) and the pages: each line is one audited fact.
#[test]
fn release_note_8_0_rc2_to_9_0_0() {
    let d = diff(Release::V8_0_RC2, Release::V9_0_0, None);
    let of = |kind: &str| -> Vec<(&str, &str)> {
        let mut v: Vec<(&str, &str)> = d
            .changes
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| (c.change, c.subject.as_str()))
            .collect();
        v.sort();
        v
    };
    // Products: the A3 lines arrive with 8.3.RC1's tables, Atlas 350 with 9.0.0's.
    assert_eq!(
        of("product"),
        [
            ("added", "atlas-350"),
            ("added", "atlas-a3-inference"),
            ("added", "atlas-a3-training"),
        ]
    );
    assert_eq!(
        of("option"),
        [
            // First on the 8.1.RC1 page; not in the 7.0.0 build, in the 9.0.0 tag.
            (
                "added",
                "npu_run_config.memory_config.variable_use_1g_huge_page"
            ),
            // Forwarded by the 9.0.0 adapter, refused by its graph engine.
            ("removed", "npu_run_config.auto_tune_mode"),
            // In every 6.3.RC1 .. 7.0.0 build, gone from the 9.0.0 tag.
            ("removed", "npu_run_config.es_cluster_config"),
        ]
    );
    // aicore_num's first release is not known (after the 7.0.0 build, by the 9.0.0 tag), as
    // oo_constant_folding's: neither is dated as new in between (issue 33).
    for unknown in [
        "npu_run_config.aicore_num",
        "npu_run_config.oo_constant_folding",
    ] {
        assert!(
            !d.changes
                .iter()
                .any(|c| c.kind == "option" && c.subject == unknown),
            "{unknown}"
        );
    }
    // Nothing retired before 8.0.RC2 or never read shows up as a change between them:
    // enable_options (r1.1.1), graph_compiler_cache_dir (6.3.RC2 builds), and the keys no
    // release reads (enable_reduce_precision, the misspelt TF2 nable_scope_fusion_passes).
    for gone in [
        "npu_run_config.profiling_config.enable_options",
        "npu_run_config.graph_compiler_cache_dir",
        "npu_run_config.enable_reduce_precision",
        "npu_run_config.nable_scope_fusion_passes",
        // Read by the adapter since 6.3.RC1: present at both ends.
        "npu_run_config.memory_config.memory_optimization_policy",
    ] {
        assert!(
            !d.changes
                .iter()
                .any(|c| c.kind == "option" && c.subject == gone),
            "{gone}"
        );
    }
    assert!(
        !d.changes
            .iter()
            .any(|c| c.kind == "support" && c.subject == "npu_run_config.aicore_num"),
        "aicore_num is new, not newly supported"
    );
    // The two memory limits the 9.0.0 pages list for removal.
    assert_eq!(
        of("deprecation"),
        [
            ("added", "npu_run_config.graph_memory_max_size"),
            ("added", "npu_run_config.variable_memory_max_size"),
        ]
    );
}
