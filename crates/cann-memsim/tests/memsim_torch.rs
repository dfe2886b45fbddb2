//! Import of torch / torch_npu memory snapshots. The fixtures were written by
//! Python's own `pickle` (protocol 4, as `_dump_snapshot` does) and `json`
//! from the documented structure; see `fixtures/README.md` for the scenario.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use cann_memsim::{import_snapshot, load_trace, replay, ImportOptions, MemsimError, ReplayConfig};
use cann_runtime::memory::StaticMemoryPolicy;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn check_scenario(bytes: &[u8], form: &str) {
    let (trace, rep) = import_snapshot("snap", bytes, ImportOptions::default()).unwrap();
    assert_eq!(rep.form, form);
    assert_eq!((rep.device, rep.devices, rep.entries), (0, 2, 11));
    assert_eq!((rep.allocs, rep.frees), (3, 1));
    // A (free_requested + free_completed) and E (free_completed only) were
    // allocated before the window opened.
    assert_eq!((rep.unmatched_frees, rep.unmatched_free_bytes), (2, 3072));
    assert_eq!(rep.first_unmatched.len(), 2);
    assert_eq!(rep.first_unmatched[0].0, 0);
    assert_eq!(rep.first_unmatched[1].0, 9);
    // F is allocated at dump time and never seen in the window.
    assert_eq!((rep.prelive_blocks, rep.prelive_block_bytes), (1, 1536));
    assert_eq!(rep.oom_events, 1);
    assert_eq!(rep.double_allocs, 0);
    assert!(rep.ignored_actions.is_empty());
    assert_eq!(rep.recorded_peak_reserved_bytes, Some(2 << 20));

    // Live bytes by hand: 4608 at the start (A, E, F), -1024, +4096, +8192
    // (peak 15872), -4096, +512, -2048 -> 10240 = what the segments say is allocated.
    let r = replay(&trace, ReplayConfig::new(StaticMemoryPolicy::Dynamic)).unwrap();
    assert_eq!(r.stats.peak_live_bytes, 15872);
    let lives: Vec<u64> = r.timeline.iter().map(|s| s.live).collect();
    assert!(lives.contains(&4608));
    assert_eq!(r.timeline[r.timeline.len() - 2].live, 10240);
    assert_eq!(r.stats.executions, 1);
    let r3 = replay(
        &trace,
        ReplayConfig::new(StaticMemoryPolicy::DynamicShapeExpand),
    )
    .unwrap();
    assert_eq!(r3.stats.peak_live_bytes, 15872);
    assert!(r3.stats.peak_reserved_bytes >= 15872);
}

#[test]
fn pickle_fixture() {
    let bytes = std::fs::read(fixture("torch_snapshot.pickle")).unwrap();
    check_scenario(&bytes, "pickle");
}

#[test]
fn json_fixture() {
    let bytes = std::fs::read(fixture("torch_snapshot.json")).unwrap();
    check_scenario(&bytes, "json");
}

#[test]
fn pickle_written_by_serde_pickle_too() {
    // The same dict through another pickle writer (protocol 3, no framing).
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("torch_snapshot.json")).unwrap()).unwrap();
    let bytes = serde_pickle::to_vec(&v, serde_pickle::SerOptions::new()).unwrap();
    check_scenario(&bytes, "pickle");
}

#[test]
fn entries_shared_through_the_memo_are_read_at_each_use() {
    // Device 1's history is three of device 0's entry dicts, which Python's pickle writes
    // as memo references (see fixtures/make_shared_pickle.py).
    let bytes = std::fs::read(fixture("torch_snapshot_shared.pickle")).unwrap();
    check_scenario(&bytes, "pickle");
    let opts = ImportOptions { device: Some(1) };
    let (trace, rep) = import_snapshot("shared", &bytes, opts).unwrap();
    assert_eq!((rep.entries, rep.allocs, rep.frees), (3, 1, 1));
    let r = replay(&trace, ReplayConfig::new(StaticMemoryPolicy::Dynamic)).unwrap();
    assert_eq!(r.stats.peak_live_bytes, 4096);
}

#[test]
fn pickle_budgets_and_type_errors_are_placed() {
    // 20 000 nested lists in 40 KB: refused at the 257th level, not a stack overflow.
    let mut deep = vec![0x80, 4];
    deep.extend(std::iter::repeat_n(b']', 20_000));
    deep.extend(std::iter::repeat_n(b'a', 19_999));
    deep.push(b'.');
    let err = import_snapshot("deep.pickle", &deep, ImportOptions::default()).unwrap_err();
    assert!(matches!(err, MemsimError::Input { .. }));
    assert!(
        err.to_string().starts_with(
            "deep.pickle: not a readable torch memory snapshot pickle at byte 20258: \
             containers nested more than 256 deep"
        ),
        "{err}"
    );
    // {"device_traces": [[{"action": "alloc", "size": "big"}]]}
    let wrong = b"\x80\x04}(\x8c\x0ddevice_traces]]}(\x8c\x06action\x8c\x05alloc\x8c\x04size\x8c\x03biguaau.";
    let err = import_snapshot("w.pickle", wrong, ImportOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("device_traces[0][0].size: expected an integer, found a string"),
        "{err}"
    );
    assert!(err.to_string().contains("at byte 44:"), "{err}");
}

#[test]
fn load_trace_detects_the_form_by_content() {
    for name in [
        "torch_snapshot.pickle",
        "torch_snapshot_shared.pickle",
        "torch_snapshot.json",
    ] {
        let (trace, rep) = load_trace(&fixture(name), ImportOptions::default()).unwrap();
        assert!(rep.is_some(), "{name}");
        assert_eq!(trace.graphs.len(), 1);
    }
}

#[test]
fn device_selection() {
    let bytes = std::fs::read(fixture("torch_snapshot.pickle")).unwrap();
    let (trace, rep) = import_snapshot("s", &bytes, ImportOptions { device: Some(1) }).unwrap();
    assert_eq!((rep.device, rep.allocs, rep.unmatched_frees), (1, 1, 0));
    // Device 1 has no segments in the dump, so its reserved curve starts at 0.
    assert_eq!(rep.recorded_peak_reserved_bytes, Some(2 << 20));
    assert_eq!(trace.graphs[0].name, "torch-device-1");
    let err = import_snapshot("s", &bytes, ImportOptions { device: Some(5) }).unwrap_err();
    assert!(
        err.to_string().contains("device 5 is not in the snapshot"),
        "{err}"
    );
}

#[test]
fn unknown_actions_are_counted_not_fatal() {
    let text = r#"{"device_traces": [[
        {"action": "alloc", "addr": 4096, "size": 512},
        {"action": "segment_teleport", "addr": 0, "size": 0},
        {"action": "free_completed", "addr": 4096, "size": 512}
    ]]}"#;
    let (trace, rep) =
        import_snapshot("s.json", text.as_bytes(), ImportOptions::default()).unwrap();
    assert_eq!(rep.ignored_actions.get("segment_teleport"), Some(&1));
    assert_eq!((rep.allocs, rep.frees), (1, 1));
    assert_eq!(rep.recorded_peak_reserved_bytes, None);
    assert_eq!(trace.tensors.len(), 1);
}

#[test]
fn missed_free_is_counted() {
    let text = r#"{"device_traces": [[
        {"action": "alloc", "addr": 4096, "size": 512},
        {"action": "alloc", "addr": 4096, "size": 1024}
    ]]}"#;
    let (_, rep) = import_snapshot("s.json", text.as_bytes(), ImportOptions::default()).unwrap();
    assert_eq!(rep.double_allocs, 1);
}

#[test]
fn errors_name_the_file() {
    let empty = r#"{"segments": [], "device_traces": [[]]}"#;
    let err = import_snapshot("e.json", empty.as_bytes(), ImportOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("e.json: the snapshot has no allocation history"),
        "{err}"
    );

    let bad = "{\"device_traces\": [[{\"addr\": 1}]]}";
    let err = import_snapshot("b.json", bad.as_bytes(), ImportOptions::default()).unwrap_err();
    assert!(matches!(err, MemsimError::Input { .. }));
    assert!(err.to_string().contains("missing field `action`"), "{err}");

    let truncated = &std::fs::read(fixture("torch_snapshot.pickle")).unwrap()[..200];
    let err = import_snapshot("t.pickle", truncated, ImportOptions::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("t.pickle: not a readable torch memory snapshot pickle"),
        "{err}"
    );
}

/// A long history cut by the ring buffer: the allocator cycles through 64
/// slots; the window keeps the last 20 000 entries of a longer run.
#[test]
fn long_ring_buffer_window() {
    let mut entries = Vec::new();
    let mut live = [0u64; 64];
    let mut seed = 7u64;
    for step in 0..30_000u64 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let slot = (seed % 64) as usize;
        let addr = 0x7f00_0000_0000 + slot as u64 * (1 << 24);
        if live[slot] == 0 {
            let size = 512 * (1 + seed % 4096);
            live[slot] = size;
            entries.push(
                serde_json::json!({"action": "alloc", "addr": addr, "size": size, "time_us": step}),
            );
        } else {
            let size = live[slot];
            live[slot] = 0;
            entries
                .push(serde_json::json!({"action": "free_requested", "addr": addr, "size": size}));
            entries
                .push(serde_json::json!({"action": "free_completed", "addr": addr, "size": size}));
        }
    }
    let window: Vec<_> = entries[entries.len() - 20_000..].to_vec();
    let snap = serde_json::json!({"segments": [], "device_traces": [window]});
    let bytes = serde_pickle::to_vec(&snap, serde_pickle::SerOptions::new()).unwrap();
    let (trace, rep) = import_snapshot("ring.pickle", &bytes, ImportOptions::default()).unwrap();
    assert_eq!(rep.entries, 20_000);
    assert!(
        rep.unmatched_frees > 0 && rep.unmatched_frees <= 64,
        "{}",
        rep.unmatched_frees
    );
    assert_eq!(rep.first_unmatched.len(), rep.unmatched_frees.min(10));
    let mut peaks = Vec::new();
    for p in [
        StaticMemoryPolicy::Dynamic,
        StaticMemoryPolicy::DynamicShapeExpand,
    ] {
        let r = replay(&trace, ReplayConfig::new(p)).unwrap();
        assert!(r.stats.peak_reserved_bytes >= r.stats.peak_live_bytes);
        peaks.push(r.stats.peak_live_bytes);
    }
    assert_eq!(peaks[0], peaks[1], "live bytes do not depend on the policy");
    let all = cann_memsim::compare(
        &trace,
        cann_runtime::memory::AtomicCleanPolicy::Centralized,
        cann_runtime::memory::GrowthMode::Documented,
    )
    .unwrap();
    let svg =
        cann_memsim::render_svg("ring", trace.events.len(), &all, cann_i18n::Lang::En).unwrap();
    assert!(svg.len() < 3_000_000, "{}", svg.len());
}
