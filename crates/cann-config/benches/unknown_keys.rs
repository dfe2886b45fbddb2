//! A config of 100,000 unknown keys (1.6 MB of JSON, issue #31 item 8), read as
//! `cannctl check` reads it, beside the floor: the same text parsed into a
//! YAML tree alone, with no finding made. The keys sit in three places: at the
//! top level (4 names to suggest from), under `npu_run_config` (the most names)
//! and under `env` (warnings). `cargo bench -p cann-config --bench unknown_keys`
//! prints one row per place: seconds for the floor, seconds to read, their
//! ratio, and the findings made. Each is run once: the point is the order of
//! magnitude (it took 40 s before suggestions were made cheap).

use std::time::Instant;

use cann_config::meta::Lang;

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
        "{:<16} {:>9} {:>10} {:>10} {:>7} {:>9}",
        "keys under", "bytes", "floor s", "read s", "ratio", "findings"
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
        println!(
            "{:<16} {:>9} {:>10.3} {:>10.3} {:>7.1} {:>9}{}",
            under.unwrap_or("(top level)"),
            text.len(),
            floor,
            read,
            read / floor.max(1e-9),
            findings,
            if tree.is_ok() { "" } else { "  (tree failed)" }
        );
    }
}
