//! The trace format and the replay on the engine: errors at their line,
//! round trips, and hand-computed numbers for each policy.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use cann_i18n::Lang;
use cann_memsim::{
    compare, load_trace, parse_jsonl, replay, write_jsonl, ImportOptions, ReplayConfig,
};
use cann_runtime::memory::{AtomicCleanPolicy, GrowthMode, StaticMemoryPolicy as P};

const MIB: u64 = 1 << 20;

fn run(text: &str, policy: P) -> cann_memsim::Replay {
    replay(
        &parse_jsonl("t.jsonl", text).unwrap(),
        ReplayConfig::new(policy),
    )
    .unwrap()
}

fn err(text: &str) -> String {
    parse_jsonl("t.jsonl", text).unwrap_err().to_string()
}

const STATIC: &str = r#"
{"ev":"static_graph","graph":"small","feature_map_bytes":4194304}
{"ev":"static_graph","graph":"big","feature_map_bytes":8388608}
{"ev":"begin","exec":1,"graph":"small"}
{"ev":"end","exec":1}
{"ev":"begin","exec":2,"graph":"big"}
{"ev":"end","exec":2}
{"ev":"begin","exec":3,"graph":"small"}
{"ev":"end","exec":3}
"#;

#[test]
fn policy_0_allocates_every_execution() {
    let s = run(STATIC, P::Dynamic).stats;
    assert_eq!((s.backend_alloc_calls, s.backend_free_calls), (3, 3));
    assert_eq!(
        (s.peak_reserved_bytes, s.peak_live_bytes),
        (8 * MIB, 8 * MIB)
    );
    assert_eq!(s.executions, 3);
}

#[test]
fn policy_2_documented_growth_replaces_the_pool() {
    let s = run(STATIC, P::StaticShapeExpand).stats;
    // 4 MiB pool, then freed and an 8 MiB one allocated; the third run reuses it.
    assert_eq!((s.backend_alloc_calls, s.backend_free_calls), (2, 1));
    assert_eq!(s.peak_reserved_bytes, 8 * MIB);
    assert_eq!(s.reserved_bytes, 8 * MIB, "the pool stays reserved");
    // A trace's legacy policy 1 is the spec's alias of 2, read as 2.
    let legacy: P = "1".parse().unwrap();
    assert_eq!(run(STATIC, legacy).stats.policy, P::StaticShapeExpand);
}

#[test]
fn policy_2_engine_growth_adds_the_shortfall() {
    let trace = parse_jsonl("t", STATIC).unwrap();
    let cfg = ReplayConfig {
        growth: GrowthMode::EngineCode,
        ..ReplayConfig::new(P::StaticShapeExpand)
    };
    let s = replay(&trace, cfg).unwrap().stats;
    assert_eq!(s.backend_free_calls, 0, "nothing is given back");
    assert_eq!(s.peak_reserved_bytes, 8 * MIB);
}

const OVERLAP: &str = r#"
{"ev":"static_graph","graph":"a","feature_map_bytes":4194304}
{"ev":"static_graph","graph":"b","feature_map_bytes":8388608}
{"ev":"begin","exec":"x","graph":"a"}
{"ev":"begin","exec":"y","graph":"b","concurrent":true}
{"ev":"step","exec":"y","step":1}
{"ev":"end","exec":"y"}
{"ev":"end","exec":"x"}
"#;

#[test]
fn overlapping_executions_are_refused_under_2_and_4() {
    for p in [P::StaticShapeExpand, P::AllShapeExpand] {
        let r = run(OVERLAP, p);
        assert_eq!(r.stats.refused_concurrent, 1, "{p:?}");
        assert_eq!(r.stats.executions, 1);
        assert_eq!(r.refusals.len(), 1);
        assert_eq!((r.refusals[0].line, r.refusals[0].exec.as_str()), (5, "y"));
        assert_eq!(r.stats.peak_live_bytes, 4 * MIB);
    }
    for p in [P::Dynamic, P::DynamicShapeExpand] {
        let r = run(OVERLAP, p);
        assert_eq!(r.stats.refused_concurrent, 0);
        assert_eq!(r.stats.peak_live_bytes, 12 * MIB);
    }
}

const DYNAMIC: &str = r#"
{"ev":"dynamic_graph","graph":"d"}
{"ev":"begin","exec":"x","graph":"d"}
{"ev":"alloc","exec":"x","tensor":"t1","size":3145728}
{"ev":"alloc","exec":"x","tensor":"t2","size":1048576}
{"ev":"free","tensor":"t1"}
{"ev":"alloc","exec":"x","tensor":"t3","size":2097152}
{"ev":"end","exec":"x"}
"#;

#[test]
fn dynamic_graph_under_0_and_3() {
    let s0 = run(DYNAMIC, P::Dynamic).stats;
    assert_eq!((s0.backend_alloc_calls, s0.backend_free_calls), (3, 3));
    assert_eq!(
        (s0.peak_reserved_bytes, s0.peak_live_bytes),
        (4 * MIB, 4 * MIB)
    );
    let s3 = run(DYNAMIC, P::DynamicShapeExpand).stats;
    // 2 MiB pages: t1 and t2 fill two pages; the page t1 alone held goes back.
    assert_eq!(
        (s3.peak_reserved_bytes, s3.peak_live_bytes),
        (4 * MIB, 4 * MIB)
    );
    assert!(s3.backend_free_calls >= 1);
}

const CLEAN: &str = r#"
{"ev":"static_graph","graph":"g","feature_map_bytes":1048576,"memset":[{"size":1000,"producer":2,"end":5},{"size":2000,"producer":6,"end":8}]}
{"ev":"begin","exec":1,"graph":"g"}
{"ev":"step","exec":1,"step":2}
{"ev":"step","exec":1,"step":6}
{"ev":"end","exec":1}
{"ev":"begin","exec":2,"graph":"g"}
{"ev":"end","exec":2}
"#;

#[test]
fn atomic_clean_ops_and_bytes() {
    let trace = parse_jsonl("t", CLEAN).unwrap();
    let mut cfg = ReplayConfig::new(P::Dynamic);
    let s = replay(&trace, cfg).unwrap().stats;
    // One clean of the 512-aligned region (1024 + 2048) per execution.
    assert_eq!((s.clean_ops, s.clean_bytes), (2, 2 * 3072));
    cfg.atomic_clean = AtomicCleanPolicy::Separate;
    let s = replay(&trace, cfg).unwrap().stats;
    // Each output separately; the second run's cleans happen at its end.
    assert_eq!((s.clean_ops, s.clean_bytes), (4, 2 * 3000));
    // The outputs' lifetimes do not overlap, so policy 1 needs less memory.
    let central = replay(&trace, ReplayConfig::new(P::Dynamic)).unwrap().stats;
    assert!(s.peak_live_bytes < central.peak_live_bytes);
}

#[test]
fn variables_count_as_live() {
    let s = run(
        r#"{"ev":"var_alloc","var":"w","size":1000000}
{"ev":"var_free","var":"w"}"#,
        P::Dynamic,
    )
    .stats;
    assert_eq!(s.peak_live_bytes, 1_000_000);
}

#[test]
fn timeline_follows_the_events() {
    let r = run(STATIC, P::Dynamic);
    let live: Vec<u64> = r.timeline.iter().map(|s| s.live).collect();
    assert_eq!(live, [0, 4 * MIB, 0, 8 * MIB, 0, 4 * MIB, 0]);
    assert_eq!(r.timeline.last().unwrap().event, 7);
}

#[test]
fn errors_carry_file_and_line() {
    let cases = [
        ("\n{\"ev\":\"begin\",\"exec\":1,\"graph\":\"g\"}", "t.jsonl:2: graph `g` is not registered"),
        ("{\"ev\":\"launch\"}", "t.jsonl:1: unknown event `launch`; the events are `static_graph`"),
        ("{\"ev\":\"alloc\"", "t.jsonl:1: column 13: the line ends inside a JSON value"),
        ("{\"ev\":\"dynamic_graph\"}", "the event has no `graph` field"),
        ("{\"ev\":\"dynamic_graph\",\"graph\":1,\"extra\":2}", "takes no field `extra`; its fields are `graph`"),
        ("{\"ev\":\"dynamic_graph\",\"graph\":1}\n{\"ev\":\"dynamic_graph\",\"graph\":\"1\"}", "t.jsonl:2: graph `1` is already registered"),
        ("{\"ev\":\"end\",\"exec\":9}", "execution `9` is not running"),
        ("{\"ev\":\"var_free\",\"var\":\"w\"}", "variable `w` is not allocated"),
        ("{\"ev\":\"var_alloc\",\"var\":\"w\",\"size\":0}", "size 0"),
        ("{\"ev\":\"static_graph\",\"graph\":\"g\",\"feature_map_bytes\":1,\"memset\":[{\"size\":1,\"producer\":3,\"end\":3}]}", "must not be empty"),
        ("{\"ev\":\"alloc\",\"exec\":\"x\",\"tensor\":1,\"size\":-5}", "t.jsonl:1: the event does not match the trace format (invalid value: integer `-5`, expected u64)"),
        ("# nothing but a comment\n\n", "t.jsonl: the trace has no events"),
    ];
    for (text, want) in cases {
        let e = err(text);
        assert!(e.contains(want), "{text:?}: got {e:?}, want {want:?}");
    }
    let e = err(STATIC
        .replace(
            "\"exec\":2,\"graph\":\"big\"",
            "\"exec\":2,\"graph\":\"big\",\"concurrent\":true",
        )
        .as_str());
    assert!(
        e.contains("t.jsonl:6: execution `2` is marked concurrent but no other"),
        "{e}"
    );
    let e = err(&OVERLAP.replace(",\"concurrent\":true", ""));
    assert!(
        e.contains("t.jsonl:5: execution `y` begins while `x` is running"),
        "{e}"
    );
    let e = err(&format!("{STATIC}{{\"ev\":\"begin\",\"exec\":7,\"graph\":\"small\"}}\n{{\"ev\":\"alloc\",\"exec\":7,\"tensor\":1,\"size\":5}}"));
    assert!(
        e.contains("t.jsonl:11: execution `7` runs a static-shape graph"),
        "{e}"
    );
    let e = err(&DYNAMIC.replace(
        "{\"ev\":\"free\",\"tensor\":\"t1\"}",
        "{\"ev\":\"free\",\"tensor\":\"t9\"}",
    ));
    assert!(e.contains("t.jsonl:6: tensor `t9` is not live"), "{e}");
    let e = err(&DYNAMIC.replace("\"t3\"", "\"t2\""));
    assert!(e.contains("t.jsonl:7: tensor `t2` is already live"), "{e}");
}

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/traces")
}

#[test]
fn examples_round_trip_through_the_writer() {
    for name in ["training.jsonl", "dynamic-seq.jsonl"] {
        let (a, _) = load_trace(&examples().join(name), ImportOptions::default()).unwrap();
        let b = parse_jsonl("again", &write_jsonl(&a)).unwrap();
        let ops = |t: &cann_memsim::Trace| t.events.iter().map(|e| e.op).collect::<Vec<_>>();
        assert_eq!(ops(&a), ops(&b), "{name}");
        assert_eq!(
            (&a.graphs, &a.execs, &a.tensors, &a.vars),
            (&b.graphs, &b.execs, &b.tensors, &b.vars)
        );
    }
}

#[test]
fn example_training_session() {
    let (t, _) = load_trace(&examples().join("training.jsonl"), ImportOptions::default()).unwrap();
    let all = compare(&t, AtomicCleanPolicy::Centralized, GrowthMode::Documented).unwrap();
    let by = |p: P| all.iter().find(|r| r.config.policy == p).unwrap().stats;
    // The pool serves 16 executions with a handful of backend calls.
    assert!(by(P::StaticShapeExpand).backend_alloc_calls * 3 < by(P::Dynamic).backend_alloc_calls);
    assert!(all.iter().all(|r| r.stats.refused_concurrent == 0));
    // Same live curve under every policy: only the holding differs.
    assert!(all
        .iter()
        .all(|r| r.stats.peak_live_bytes == by(P::Dynamic).peak_live_bytes));
}

#[test]
fn example_dynamic_shapes() {
    let (t, _) = load_trace(
        &examples().join("dynamic-seq.jsonl"),
        ImportOptions::default(),
    )
    .unwrap();
    let all = compare(&t, AtomicCleanPolicy::Centralized, GrowthMode::Documented).unwrap();
    let by = |p: P| all.iter().find(|r| r.config.policy == p).unwrap().stats;
    assert_eq!(by(P::StaticShapeExpand).refused_concurrent, 1);
    assert_eq!(by(P::AllShapeExpand).refused_concurrent, 1);
    assert_eq!(by(P::DynamicShapeExpand).refused_concurrent, 0);
    // The arena trades backend calls for page commits: fewer calls than exact blocks.
    assert!(by(P::DynamicShapeExpand).backend_alloc_calls < by(P::Dynamic).backend_alloc_calls);
    assert!(by(P::DynamicShapeExpand).reserved_to_live() <= 1.10);
}

#[test]
fn summary_json_has_the_contract_keys() {
    let r = run(OVERLAP, P::StaticShapeExpand);
    let v = serde_json::to_value(cann_memsim::SimSummary::new(P::StaticShapeExpand, &r)).unwrap();
    for key in [
        "policy",
        "peak_reserved_bytes",
        "peak_live_bytes",
        "backend_alloc_calls",
        "backend_free_calls",
        "clean_ops",
        "clean_bytes",
        "refused_concurrent",
    ] {
        assert!(v.get(key).is_some_and(|x| x.is_number()), "{key}");
    }
    assert_eq!(v["refused_concurrent"], 1);
    assert_eq!(v["refused"][0]["line"], 5);
}

/// The text elements of an SVG, with their position.
fn svg_texts(svg: &str) -> Vec<(f64, f64, String)> {
    let mut out = Vec::new();
    for part in svg.split("<text").skip(1) {
        let attr = |name: &str| {
            part.split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|r| r.split('"').next().and_then(|v| v.parse::<f64>().ok()))
        };
        let text = part
            .split_once('>')
            .and_then(|(_, r)| r.split_once("</text>"))
            .map(|(t, _)| t.trim().to_string())
            .unwrap_or_default();
        out.push((attr("x").unwrap_or(0.0), attr("y").unwrap_or(0.0), text));
    }
    out
}

#[test]
fn plot_has_one_panel_per_policy_with_its_peak_labelled_and_a_table() {
    let (t, _) = load_trace(
        &examples().join("dynamic-seq.jsonl"),
        ImportOptions::default(),
    )
    .unwrap();
    let all = compare(&t, AtomicCleanPolicy::Centralized, GrowthMode::Documented).unwrap();
    let svg = cann_memsim::render_svg("curves", t.events.len(), &all, Lang::En).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    if let Some(path) = std::env::var_os("PLOT_SVG_OUT") {
        std::fs::write(path, &svg).unwrap();
    }
    let texts = svg_texts(&svg);
    let find = |s: &str| texts.iter().filter(|t| t.2 == s).collect::<Vec<_>>();
    // One panel caption per policy, each lower on the page than the one before,
    // and in each panel one peak label: the bytes and the event where the peak is
    // first reached.
    let mut tops = Vec::new();
    let mut wanted = Vec::new();
    for r in &all {
        let code = r.config.policy.code();
        let caption = find(&format!("policy {code}"));
        assert_eq!(caption.len(), 1, "policy {code}: {caption:?}");
        assert!(
            tops.last().is_none_or(|&y| caption[0].1 > y),
            "panels in order"
        );
        tops.push(caption[0].1);
        let peak = r
            .timeline
            .iter()
            .fold(None::<&cann_memsim::Sample>, |b, s| match b {
                Some(b) if b.reserved >= s.reserved => Some(b),
                _ => Some(s),
            })
            .unwrap();
        wanted.push(format!(
            "peak {} at event {}",
            cann_memsim::report::human_bytes(peak.reserved),
            peak.event
        ));
    }
    let last_y = *tops.last().unwrap();
    let labels: Vec<&(f64, f64, String)> = texts
        .iter()
        .filter(|t| t.2.contains(" at event "))
        .collect();
    assert_eq!(labels.len(), all.len(), "{labels:?}");
    for (k, want) in wanted.iter().enumerate() {
        let below = tops[k];
        let above = tops.get(k + 1).copied().unwrap_or(f64::MAX);
        let here: Vec<_> = labels
            .iter()
            .filter(|t| t.1 > below && t.1 < above)
            .collect();
        assert_eq!(here.len(), 1, "panel {k}: {here:?}");
        assert_eq!(&here[0].2, want, "panel {k}");
    }
    // The key above the panels, the table below them: a header and a row per policy.
    let key = find("reserved (area)");
    assert_eq!(key.len(), 1);
    assert!(key[0].1 < find("policy 0")[0].1);
    let head = find("peak reserved");
    assert_eq!(head.len(), 1);
    assert!(head[0].1 > last_y, "the table is below the panels");
    let rows = texts
        .iter()
        .filter(|t| t.1 > head[0].1 && t.0 < 100.0)
        .count();
    assert_eq!(rows, all.len(), "{texts:?}");
    // Bounded size however long the trace: at most MAX_POINTS buckets per curve.
    assert!(svg.len() < 2_000_000, "{}", svg.len());
}

#[test]
fn plot_is_worded_in_chinese() {
    let (t, _) = load_trace(
        &examples().join("dynamic-seq.jsonl"),
        ImportOptions::default(),
    )
    .unwrap();
    let all = compare(&t, AtomicCleanPolicy::Centralized, GrowthMode::Documented).unwrap();
    let svg = cann_memsim::render_svg("曲线", t.events.len(), &all, Lang::Zh).unwrap();
    let texts = svg_texts(&svg);
    assert!(texts.iter().any(|t| t.2 == "策略 0"), "{texts:?}");
    assert!(texts.iter().any(|t| t.2.starts_with("峰值 ")), "{texts:?}");
    assert!(!texts.iter().any(|t| t.2.contains("peak")), "{texts:?}");
}

#[test]
fn trace_errors_are_worded_in_the_language_asked_for() {
    let zh = |text: &str| match parse_jsonl("t.jsonl", text) {
        Err(cann_memsim::MemsimError::Trace { place, error }) => {
            format!("{place}: {}", error.message(cann_i18n::Lang::Zh))
        }
        other => panic!("{text:?}: {other:?}"),
    };
    let cases = [
        (
            "\n{\"ev\":\"begin\",\"exec\":1,\"graph\":\"g\"}",
            "t.jsonl:2: 图 `g` 尚未注册",
        ),
        (
            "{\"ev\":\"alloc\"",
            "t.jsonl:1: 第 13 列：该行在 JSON 值的中途结束",
        ),
        (
            "{\"ev\":\"launch\"}",
            "未知事件 `launch`；可用事件为 `static_graph`",
        ),
        ("{\"ev\":\"dynamic_graph\"}", "该事件缺少字段 `graph`"),
        ("{\"ev\":\"var_free\",\"var\":\"w\"}", "变量 `w` 未分配"),
        (
            "# nothing but a comment\n",
            "t.jsonl: 跟踪文件中没有任何事件",
        ),
    ];
    for (text, want) in cases {
        let e = zh(text);
        assert!(e.contains(want), "{text:?}: got {e:?}, want {want:?}");
    }
}
