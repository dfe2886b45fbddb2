//! Reading user config files: types, positions, unknown keys, legacy spellings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::meta::Severity;
use cann_config::{
    parse_config, AtomicCleanPolicy, OpCompilerCacheMode, Product, Release, StaticMemoryPolicy,
};
use common::*;

#[test]
fn example_config_reads_into_typed_values() {
    let f = parse(include_str!("../../../examples/train-a2.yaml"));
    assert!(f.diagnostics.is_empty(), "{:#?}", f.diagnostics);
    assert_eq!(f.product, Some(Product::AtlasA2Training));
    assert_eq!(f.release, Some(Release::V9_0_0));
    let run = f.config.npu_run_config.as_ref().unwrap();
    assert_eq!(
        run.op_compiler_cache_mode,
        Some(OpCompilerCacheMode::Enable)
    );
    assert_eq!(
        run.aicore_num,
        Some(cann_config::CoreCounts {
            cube: 24,
            vector: 48
        })
    );
    let mem = run.memory_config.as_ref().unwrap();
    assert_eq!(
        mem.static_memory_policy,
        Some(StaticMemoryPolicy::StaticShapeExpand)
    );
    assert_eq!(
        mem.atomic_clean_policy, None,
        "unset stays unset, not default"
    );
    assert_eq!(
        f.config.env.as_ref().unwrap().ascend_max_op_cache_size,
        Some(2000)
    );
}

#[test]
fn json_is_read_too() {
    let f = parse(
        r#"{"product": "atlas-350", "npu_run_config": {"memory_config": {"atomic_clean_policy": 1}}}"#,
    );
    assert_eq!(f.product, Some(Product::Atlas350));
    let mem = f.config.npu_run_config.unwrap().memory_config.unwrap();
    assert_eq!(mem.atomic_clean_policy, Some(AtomicCleanPolicy::Separate));
}

#[test]
fn wrong_type_is_reported_with_position_and_allowed_values() {
    let f = parse("npu_run_config:\n  memory_config:\n    static_memory_policy: \"two\"\n");
    let d = &f.diagnostics[0];
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(
        d.option,
        "npu_run_config.memory_config.static_memory_policy"
    );
    assert_eq!((d.line, d.column), (Some(3), Some(27)));
    assert!(d.message.contains("must be an integer"), "{}", d.message);
    assert!(d
        .expected
        .as_deref()
        .unwrap()
        .contains("2 (static-shape-expand)"));
}

#[test]
fn quoted_number_gets_a_hint() {
    let f = parse("npu_run_config:\n  op_debug_level: \"0\"\n");
    assert_eq!(
        f.diagnostics[0].hint.as_deref(),
        Some("write 0 without quotes")
    );
}

#[test]
fn unknown_option_has_did_you_mean() {
    let f = parse("npu_run_config:\n  memory_config:\n    static_memory_polcy: 2\n");
    let d = &f.diagnostics[0];
    assert_eq!(d.option, "npu_run_config.memory_config.static_memory_polcy");
    assert_eq!(
        d.hint.as_deref(),
        Some("did you mean `static_memory_policy`?")
    );
    assert_eq!((d.line, d.column), (Some(3), Some(5)));
}

#[test]
fn unknown_top_level_key() {
    let f = parse("npu_run_cfg: {}\n");
    assert_eq!(
        f.diagnostics[0].hint.as_deref(),
        Some("did you mean `npu_run_config`?")
    );
}

#[test]
fn legacy_alias_is_accepted_with_a_warning() {
    let f = parse("npu_run_config:\n  memory_config:\n    static_memory_policy: 1\n");
    let mem = f.config.npu_run_config.unwrap().memory_config.unwrap();
    assert_eq!(
        mem.static_memory_policy,
        Some(StaticMemoryPolicy::StaticShapeExpand)
    );
    let d = &f.diagnostics[0];
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.hint.as_deref(), Some("write 2"));
}

#[test]
fn invalid_enum_value_lists_the_values() {
    let f = parse("npu_run_config:\n  op_compiler_cache_mode: enabled\n");
    let d = &f.diagnostics[0];
    let expected = d.expected.as_deref().unwrap();
    // A value whose name only repeats it is listed once.
    assert!(expected.contains("\"force\""), "{expected}");
    assert!(!expected.contains("(force)"), "{expected}");
    assert_eq!(d.hint.as_deref(), Some("did you mean \"enable\"?"));
}

#[test]
fn every_problem_is_reported_at_once() {
    let f = parse("npu_run_config:\n  aicore_num: 24\n  oo_constant_folding: \"yes\"\n  bogus: 1\n  memory_config:\n    atomic_clean_policy: 7\n");
    assert_eq!(f.diagnostics.len(), 4, "{:#?}", f.diagnostics);
}

#[test]
fn malformed_core_pairs() {
    for bad in [
        "\"24\"",
        "\"a|b\"",
        "\"0|4\"",
        "\"4|0\"",
        "\"-1|4\"",
        "\"99999999999|1\"",
    ] {
        let f = parse(&format!("npu_run_config:\n  aicore_num: {bad}\n"));
        assert_eq!(f.diagnostics.len(), 1, "{bad}: {:#?}", f.diagnostics);
        assert_eq!(f.diagnostics[0].severity, Severity::Error);
    }
}

#[test]
fn documents_that_are_not_configs() {
    for (text, want) in [
        ("", "the file is empty"),
        ("# only a comment\n", "the file is empty"),
        ("- a\n- b\n", "must be a mapping"),
        ("42\n", "must be a mapping"),
        ("a: [1, 2\n", "`[` is never closed"),
    ] {
        let e = parse_config(text).unwrap_err();
        assert!(e.message.contains(want), "{text:?}: {}", e.message);
        assert!(e.pos.is_some());
    }
}

#[test]
fn unknown_product_or_release_in_the_file() {
    let e = parse_config("product: atlas-a2-trainng\n").unwrap_err();
    assert!(
        e.message.contains("did you mean `atlas-a2-training`"),
        "{}",
        e.message
    );
    assert_eq!(e.pos.map(|p| p.line), Some(1));
    let e = parse_config("release: 9.0\n").unwrap_err();
    assert!(
        e.message.contains("unknown release `9`") || e.message.contains("unknown release `9.0`"),
        "{}",
        e.message
    );
    assert!(e.hint.as_deref().unwrap().contains("quote"));
}

#[test]
fn alias_bomb_is_refused() {
    let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        doc.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    assert!(parse_config(&doc).is_err());
}

#[test]
fn enums_round_trip_through_text() {
    for v in StaticMemoryPolicy::ALL {
        assert_eq!(v.to_string().parse::<StaticMemoryPolicy>().unwrap(), *v);
    }
    assert_eq!(
        "1".parse::<StaticMemoryPolicy>().unwrap(),
        StaticMemoryPolicy::StaticShapeExpand
    );
    assert_eq!(
        "dynamic".parse::<StaticMemoryPolicy>().unwrap(),
        StaticMemoryPolicy::Dynamic
    );
    assert!("5".parse::<StaticMemoryPolicy>().is_err());
    assert_eq!(
        "force".parse::<OpCompilerCacheMode>().unwrap(),
        OpCompilerCacheMode::Force
    );
}

#[test]
fn json_files_are_held_to_json_with_positions() {
    use cann_config::{meta::Lang, parse_json_config_in};
    let e = parse_json_config_in("{\"env\": {\"路径\": 1,\n }}\n", Lang::En).unwrap_err();
    assert!(
        e.message.contains("comma after the last item"),
        "{}",
        e.message
    );
    // At the comma, counted in characters.
    let p = e.pos.unwrap();
    assert_eq!((p.line, p.col), (1, 17));
    let e = parse_json_config_in("{\"a\": 1 \"b\": 2}", Lang::Zh).unwrap_err();
    assert_eq!(e.message, "此处应为 `,` 或 `}`");
    let e = parse_json_config_in("{\"a\": [1, 2", Lang::En).unwrap_err();
    assert_eq!(e.message, "`[` is never closed");
    // Valid JSON reads as before, positions kept.
    let f = parse_json_config_in(
        "{\"npu_run_config\": {\"op_compiler_cache_mod\": \"enable\"}}",
        Lang::En,
    )
    .unwrap();
    assert_eq!(f.diagnostics[0].column, Some(21));
    // The same text as YAML is accepted: YAML allows the comma.
    assert!(cann_config::parse_config_in("{\"env\": {\"x\": 1,}}", Lang::En).is_ok());
}

#[test]
fn syntax_errors_are_said_in_the_users_words() {
    use cann_config::{meta::Lang, parse_config_in};
    let e = parse_config_in("a: 1\na: 2\n", Lang::En).unwrap_err();
    assert_eq!(e.message, "`a` is set twice in one mapping");
    assert!(!e.message.contains("DuplicateKeyPolicy"));
    let e = parse_config_in("a: 1\na: 2\n", Lang::Zh).unwrap_err();
    assert_eq!(e.message, "`a` 在同一映射中重复设置");
    let e = parse_config_in("npu_run_config:\n  aicore_num: [1, 2\n", Lang::Zh).unwrap_err();
    assert_eq!(e.message, "`[` 没有对应的右括号");
    assert_eq!(e.hint.as_deref(), Some("请在最后一项之后用 `]` 闭合"));
}
