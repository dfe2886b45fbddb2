//! Planner quality and CPU time, side by side in one run with greedy by size
//! (best gap) and, when `MINIMALLOC_BIN` names its binary, with MiniMalloc
//! (google/minimalloc, built by you from its public source).
//!
//! Instances: every CSV in `shared/data/memplan/` beside the repository,
//! planted perfect packings of 300 to 2,000 buffers (OPT = LOAD), and a
//! dense 100k-buffer instance. `cargo bench -p cann-memsim --bench planner`
//! prints one row per instance: arena over the best known arena (LOAD, or
//! the capacity the MiniMalloc challenging set is packable in), whether it is
//! proven optimal, the best lower bound, and CPU seconds.
//! `PLANNER_BENCH_ONLY=substring` runs only the matching instances;
//! `PLANNER_BENCH_LIMIT_S=seconds` sets the time limit of both planners (on
//! a loaded machine a wall-clock limit buys less CPU: raise it, and the work
//! budget still ends our search where it would on an idle one).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cann_memsim::generate::{dense, planted};
use cann_memsim::greedy::sweep;
use cann_memsim::{
    greedy, load, parse_csv, plan_with, verify, Buffer, Overlaps, Placement, PlanOptions,
};
use rustix::time::{clock_gettime, ClockId};

fn cpu_now() -> Duration {
    let t = clock_gettime(ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The arena of greedy by size with best-gap placement (the SOMAS / TFLite
/// baseline), by the sweep when the overlap graph is too big.
fn greedy_by_size(bufs: &[Buffer]) -> u64 {
    let mut order: Vec<usize> = (0..bufs.len()).collect();
    order.sort_by(|&a, &b| bufs[b].size.cmp(&bufs[a].size).then(a.cmp(&b)));
    match Overlaps::new(bufs, cann_memsim::planner::overlaps::MAX_PAIRS) {
        Some(ov) => greedy(bufs, &ov, &order, Placement::BestGap).1,
        None => {
            let mut b = cann_memsim::planner::budget::Budget::new(
                u64::MAX,
                Instant::now() + Duration::from_secs(3600),
            );
            sweep(bufs, Placement::BestGap, &mut b).1
        }
    }
}

/// MiniMalloc's arena and wall seconds (it runs single-threaded), if its
/// binary is given: `--minimize_capacity` from the greedy arena down, under
/// the same time limit as ours.
fn minimalloc(bin: &Path, bufs: &[Buffer], start_cap: u64, limit: Duration) -> Option<(u64, f64)> {
    let dir = std::env::temp_dir().join(format!("planner-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let input = dir.join("in.csv");
    let output = dir.join("out.csv");
    let mut csv = String::from("id,lower,upper,size\n");
    for (i, b) in bufs.iter().enumerate() {
        csv.push_str(&format!("{i},{},{},{}\n", b.lower, b.upper, b.size));
    }
    std::fs::write(&input, csv).ok()?;
    let _ = std::fs::remove_file(&output);
    let t = Instant::now();
    let status = std::process::Command::new(bin)
        .arg(format!("--capacity={start_cap}"))
        .arg(format!("--input={}", input.display()))
        .arg(format!("--output={}", output.display()))
        .arg(format!("--timeout={}s", limit.as_secs_f64()))
        .arg("--minimize_capacity=true")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    let secs = t.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&output).ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    let _ = status;
    let mut arena = 0u64;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (Some(size), Some(off)) = (f.get(3), f.last()) else {
            continue;
        };
        arena = arena.max(size.parse::<u64>().ok()? + off.parse::<u64>().ok()?);
    }
    Some((arena, secs))
}

struct Instance {
    name: String,
    bufs: Vec<Buffer>,
    best_known: u64,
}

fn instances() -> Vec<Instance> {
    let mut out = Vec::new();
    // Beside the repository, whatever the checkout's depth; or MEMPLAN_DIR.
    let dir = std::env::var_os("MEMPLAN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .ancestors()
                .map(|a| a.join("shared/data/memplan"))
                .find(|d| d.is_dir())
                .unwrap_or_else(|| PathBuf::from("shared/data/memplan"))
        });
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            let mut files: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "csv"))
                .collect();
            files.sort();
            for path in files {
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                let bufs = parse_csv(&name, &std::fs::read_to_string(&path).unwrap()).unwrap();
                let lb = load(&bufs);
                // The challenging set is packable at 2^20 (its file names say
                // so); elsewhere LOAD is the best known.
                let best_known = if name.contains("challenging") {
                    lb.max(1 << 20)
                } else {
                    lb
                };
                out.push(Instance {
                    name,
                    bufs,
                    best_known,
                });
            }
        }
        Err(_) => println!("{} not found; only generated instances", dir.display()),
    }
    for (n, seed) in [(300, 11), (500, 12), (1000, 13), (2000, 14)] {
        let (bufs, _) = planted(n, 1 << 20, 1 << 20, seed);
        out.push(Instance {
            name: format!("planted-{n}"),
            best_known: load(&bufs),
            bufs,
        });
    }
    let bufs = dense(100_000, 1_000_000, 21);
    out.push(Instance {
        name: "dense-100k".into(),
        best_known: load(&bufs),
        bufs,
    });
    out
}

fn main() {
    let only = std::env::var("PLANNER_BENCH_ONLY").ok();
    let mm = std::env::var_os("MINIMALLOC_BIN").map(PathBuf::from);
    let mut opts = PlanOptions::default();
    if let Some(s) = std::env::var("PLANNER_BENCH_LIMIT_S")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
    {
        opts.time_limit = Duration::from_secs_f64(s);
    }
    println!(
        "time limit {:?}, threads {}, MiniMalloc: {}",
        opts.time_limit,
        opts.threads,
        mm.as_ref()
            .map_or("not run (set MINIMALLOC_BIN)".into(), |p| p
                .display()
                .to_string())
    );
    println!(
        "{:<28} {:>7} {:>8} {:>8} {:>9} {:>8} {:>7}  MiniMalloc (ratio, s)",
        "instance", "buffers", "greedy", "ours", "bound", "ours CPU", "proven"
    );
    for inst in instances() {
        if only
            .as_ref()
            .is_some_and(|o| !inst.name.contains(o.as_str()))
        {
            continue;
        }
        let bk = inst.best_known as f64;
        let g = greedy_by_size(&inst.bufs);
        let c0 = cpu_now();
        let p = plan_with(&inst.bufs, opts).unwrap();
        let cpu = (cpu_now() - c0).as_secs_f64();
        verify(&inst.bufs, &p.offsets, p.arena).unwrap();
        let mm_col = mm.as_ref().map_or(String::from("-"), |bin| {
            match minimalloc(bin, &inst.bufs, g, opts.time_limit) {
                Some((a, s)) => format!("{:.4} in {s:.2} s", a as f64 / bk),
                None => "no answer".into(),
            }
        });
        println!(
            "{:<28} {:>7} {:>8.4} {:>8.4} {:>9.4} {:>7.2}s {:>7}  {mm_col}   [{}]",
            inst.name,
            inst.bufs.len(),
            g as f64 / bk,
            p.arena as f64 / bk,
            p.lower_bound as f64 / bk,
            cpu,
            if p.proven_optimal { "yes" } else { "no" },
            p.found_by
        );
    }
}
