//! Import of allocation histories recorded by PyTorch and torch_npu:
//! `torch.cuda.memory._record_memory_history()` (torch_npu:
//! `torch_npu.npu.memory._record_memory_history()`) then `_dump_snapshot(path)`,
//! which pickles a dict; the same dict is also shared as JSON.
//!
//! Structure used (fields not listed are ignored, so newer torch versions load):
//! `{"segments": [{"device", "address", "total_size", "blocks": [{"address"?,
//! "size", "state"}]}], "device_traces": [[{"action", "addr", "size", ...}]]}`,
//! one trace list per device, `action` one of `alloc`, `free_requested`,
//! `free_completed` (`free` in older versions), `segment_alloc`, `segment_free`,
//! `segment_map`, `segment_unmap`, `snapshot`, `oom`.
//!
//! The history is a ring buffer: it may begin after some allocations were
//! made. A free of an allocation not seen is therefore reported, not fatal;
//! that allocation was live when the window opened, so it is replayed as live
//! from the start (its size is in the free entry), as are blocks still
//! allocated at dump time that the window never saw allocated. Memory counts
//! as freed at `free_completed`: until then the caching allocator cannot reuse it.

use std::collections::{BTreeMap, HashMap};

use super::error::{without_position, MemsimError};
use super::torch_snapshot::Snapshot;
use super::trace::{GraphKind, Trace, TraceBuilder};

/// Which device's history to import.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// The device index; `None` takes the device with the longest history.
    pub device: Option<usize>,
}

/// What the import found besides the trace.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportReport {
    /// `"pickle"` or `"json"`.
    pub form: &'static str,
    /// Device imported.
    pub device: usize,
    /// Devices in the snapshot.
    pub devices: usize,
    /// Trace entries of that device.
    pub entries: usize,
    /// Allocations seen.
    pub allocs: usize,
    /// Frees matched to an allocation in the window.
    pub frees: usize,
    /// Frees of allocations made before the window opened.
    pub unmatched_frees: usize,
    /// Their bytes.
    pub unmatched_free_bytes: u64,
    /// The first few, as (entry index, address).
    pub first_unmatched: Vec<(usize, u64)>,
    /// Blocks allocated at dump time that the window never saw allocated.
    pub prelive_blocks: usize,
    /// Their bytes.
    pub prelive_block_bytes: u64,
    /// Allocations at an address that was still live (a missed free).
    pub double_allocs: usize,
    /// `oom` entries.
    pub oom_events: usize,
    /// Actions not understood, with counts.
    pub ignored_actions: BTreeMap<String, usize>,
    /// Peak reserved bytes of torch's own caching allocator over the window,
    /// from the segment events and the segments at dump time.
    pub recorded_peak_reserved_bytes: Option<u64>,
}

/// How many unmatched frees are listed by position.
const FIRST_UNMATCHED: usize = 10;

/// Whether `bytes` look like a pickle (protocol 2 and later start with 0x80).
pub fn is_pickle(bytes: &[u8]) -> bool {
    bytes.first() == Some(&0x80)
}

/// Whether JSON `text` is a torch snapshot rather than a JSONL trace.
pub fn is_snapshot_json(text: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(m)) => {
            m.contains_key("device_traces") || m.contains_key("segments")
        }
        _ => false,
    }
}

fn parse(origin: &str, bytes: &[u8]) -> Result<(Snapshot, &'static str), MemsimError> {
    if is_pickle(bytes) {
        let fail = |offset: u64, m: &str| {
            MemsimError::in_file(
                origin,
                format!("not a readable torch memory snapshot pickle at byte {offset}: {m}"),
            )
        };
        let pk = super::pickle::decode(bytes).map_err(|e| fail(e.offset, &e.message))?;
        super::torch_pickle::snapshot(&pk)
            .map(|s| (s, "pickle"))
            .map_err(|e| fail(e.offset, &e.message))
    } else {
        serde_json::from_slice(bytes)
            .map(|s| (s, "json"))
            .map_err(|e| {
                MemsimError::at(
                    origin,
                    e.line(),
                    format!(
                        "column {}: not a torch memory snapshot: {}",
                        e.column(),
                        without_position(&e)
                    ),
                )
            })
    }
}

/// Imports a snapshot (pickle or JSON, detected from the bytes) as a trace:
/// one dynamic-shape graph whose single execution spans the window.
pub fn import_snapshot(
    origin: &str,
    bytes: &[u8],
    opts: ImportOptions,
) -> Result<(Trace, ImportReport), MemsimError> {
    let (snap, form) = parse(origin, bytes)?;
    let devices = snap.device_traces.len();
    let device = match opts.device {
        Some(d) if d < devices => d,
        Some(d) => {
            return Err(MemsimError::in_file(
                origin,
                format!(
                "device {d} is not in the snapshot, which has histories for {devices} device(s)"
            ),
            ))
        }
        None => (0..devices)
            .max_by_key(|&d| (snap.device_traces[d].len(), std::cmp::Reverse(d)))
            .unwrap_or(0),
    };
    let entries = snap
        .device_traces
        .get(device)
        .map_or(&[][..], Vec::as_slice);
    if entries.is_empty() {
        return Err(MemsimError::in_file(
            origin,
            "the snapshot has no allocation history; call torch.cuda.memory._record_memory_history() \
             (torch_npu: torch_npu.npu.memory._record_memory_history()) before the workload runs",
        ));
    }
    let mut rep = ImportReport {
        form,
        device,
        devices,
        entries: entries.len(),
        ..ImportReport::default()
    };
    enum Ev {
        Alloc(String, u64),
        Free(String),
    }
    let mut pre: Vec<(String, u64)> = Vec::new();
    let mut body: Vec<Ev> = Vec::new();
    // Address -> (tensor name, allocated before the window).
    let mut live: HashMap<u64, (String, bool)> = HashMap::new();
    let mut seg_now: i128 = 0;
    let mut seg_peak: i128 = 0;
    let mut seg_events = false;
    let mut n = 0usize;
    let mut fresh = |addr: u64| {
        n += 1;
        format!("{addr:#x}#{n}")
    };
    let unmatched = |rep: &mut ImportReport, k: usize, addr: u64, size: u64| {
        rep.unmatched_frees += 1;
        rep.unmatched_free_bytes += size;
        if rep.first_unmatched.len() < FIRST_UNMATCHED {
            rep.first_unmatched.push((k, addr));
        }
    };
    for (k, e) in entries.iter().enumerate() {
        match e.action.as_str() {
            "alloc" if e.size > 0 => {
                if let Some((old, _)) = live.remove(&e.addr) {
                    rep.double_allocs += 1;
                    body.push(Ev::Free(old));
                }
                let name = fresh(e.addr);
                live.insert(e.addr, (name.clone(), false));
                body.push(Ev::Alloc(name, e.size));
                rep.allocs += 1;
            }
            "free_requested" if !live.contains_key(&e.addr) && e.size > 0 => {
                unmatched(&mut rep, k, e.addr, e.size);
                let name = fresh(e.addr);
                pre.push((name.clone(), e.size));
                live.insert(e.addr, (name, true));
            }
            "free_requested" => {}
            "free_completed" | "free" => match live.remove(&e.addr) {
                Some((name, before_window)) => {
                    body.push(Ev::Free(name));
                    rep.frees += usize::from(!before_window);
                }
                None if e.size > 0 => {
                    unmatched(&mut rep, k, e.addr, e.size);
                    let name = fresh(e.addr);
                    pre.push((name.clone(), e.size));
                    body.push(Ev::Free(name));
                }
                None => {}
            },
            "segment_alloc" | "segment_map" => {
                seg_events = true;
                seg_now += i128::from(e.size);
                seg_peak = seg_peak.max(seg_now);
            }
            "segment_free" | "segment_unmap" => {
                seg_events = true;
                seg_now -= i128::from(e.size);
            }
            "oom" => rep.oom_events += 1,
            "snapshot" | "alloc" => {}
            other => *rep.ignored_actions.entry(other.to_owned()).or_default() += 1,
        }
    }
    // Blocks allocated at dump time that the window did not see allocated
    // were live for the whole window. Older snapshots give no block address:
    // blocks then lie back to back from the segment's address.
    let mut seg_total: i128 = 0;
    let dev = i64::try_from(device).unwrap_or(i64::MAX);
    for seg in snap.segments.iter().filter(|s| s.device == dev) {
        seg_total += i128::from(seg.total_size);
        let mut at = seg.address;
        for b in &seg.blocks {
            let addr = b.address.unwrap_or(at);
            at = addr.saturating_add(b.size);
            if b.state.starts_with("active") && b.size > 0 && !live.contains_key(&addr) {
                rep.prelive_blocks += 1;
                rep.prelive_block_bytes += b.size;
                pre.push((fresh(addr), b.size));
            }
        }
    }
    if seg_events || seg_total > 0 {
        // Reserved at the window's start is what was reserved at dump time
        // minus what the window added.
        let start = (seg_total - seg_now).max(0);
        rep.recorded_peak_reserved_bytes = u64::try_from(start + seg_peak.max(0)).ok();
    }
    let fail = |error| MemsimError::Import {
        place: crate::Place::file(origin),
        error,
    };
    let mut b = TraceBuilder::new(origin);
    let graph = format!("torch-device-{device}");
    b.graph(0, graph.clone(), GraphKind::Dynamic)
        .map_err(fail)?;
    b.begin(0, "window".into(), &graph, false).map_err(fail)?;
    for (name, size) in pre {
        b.alloc(0, "window", name, size).map_err(fail)?;
    }
    for ev in body {
        match ev {
            Ev::Alloc(name, size) => b.alloc(0, "window", name, size),
            Ev::Free(name) => b.free(0, Some("window"), &name),
        }
        .map_err(fail)?;
    }
    b.end(0, "window").map_err(fail)?;
    Ok((b.finish(), rep))
}
