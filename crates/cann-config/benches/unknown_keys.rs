//! A config of 100,000 unknown keys (1.6 MB of JSON, issue #31 item 8), read as
//! `cannctl check` reads it, beside the floor: the same text parsed into a
//! YAML tree alone, with no finding made. The keys sit in three places: at the
//! top level (4 names to suggest from), under `npu_run_config` (the most names)
//! and under `env` (warnings). `cargo bench -p cann-config --bench unknown_keys`
//! prints one row per place: seconds for the floor, seconds to read (now: the
//! first 1,000 unknown keys get suggestions, `ReadLimits::default`), seconds
//! to read as before (every key scored for a hint), the ratios to the floor,
//! and the findings made. Each is run once: the point is the order of
//! magnitude (the `npu_run_config` file took 30 s before the limit).

use std::time::Instant;

use cann_config::meta::Lang;
use cann_config::ReadLimits;

/// `n` unknown keys as a JSON object, nested under `under` when given.
fn document(n: usize, under: Option<&str>) -> String {
    let mut body = String::with_capacity(n * 18);
    for i in 0..n {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&format!("\"key_{i:06}\":1"));
    }
    match under {
        Some(k) => format!("{{\"{k}\":{{{body}}}}}"),
        None => format!("{{{body}}}"),
    }
}

fn main() {
    let n = 100_000;
    println!(
        "{:<16} {:>9} {:>9} {:>9} {:>7} {:>10} {:>7} {:>9}",
        "keys under", "bytes", "floor s", "read s", "ratio", "before s", "ratio", "findings"
    );
    for under in [None, Some("npu_run_config"), Some("env")] {
        let text = document(n, under);
        let t = Instant::now();
        let tree = cann_spec::yaml::parse(&text);
        let floor = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let file = cann_config::parse_json_config_in(&text, Lang::En);
        let read = t.elapsed().as_secs_f64();
        let findings = file.as_ref().map_or(0, |f| f.diagnostics.len());
        // As before the limit: every unknown key scored (JSON validity checked as above).
        let every = ReadLimits {
            suggested_keys: usize::MAX,
        };
        let t = Instant::now();
        let _ = serde_json::from_str::<serde_json::Value>(&text);
        let before = cann_spec::yaml::parse(&text)
            .ok()
            .map(|doc| cann_config::read_document_with(&doc, Lang::En, every));
        let before_s = t.elapsed().as_secs_f64();
        let before_n = before
            .and_then(Result::ok)
            .map_or(0, |f| f.diagnostics.len());
        println!(
            "{:<16} {:>9} {:>9.3} {:>9.3} {:>7.1} {:>10.3} {:>7.1} {:>9}{}",
            under.unwrap_or("(top level)"),
            text.len(),
            floor,
            read,
            read / floor.max(1e-9),
            before_s,
            before_s / floor.max(1e-9),
            format!("{findings}/{before_n}"),
            if tree.is_ok() { "" } else { "  (tree failed)" }
        );
    }
}
