//! Planner quality and CPU time, side by side in one run with greedy by size
//! (best gap) and, when `MINIMALLOC_BIN` names its binary, with MiniMalloc
//! (google/minimalloc, built by you from its public source).
//!
//! Instances: every CSV in `shared/data/memplan/` beside the repository,
//! planted perfect packings of 300 to 100,000 buffers (OPT = LOAD), dense
//! random instances of 20,000 to 100,000 buffers (uniform lifetimes and
//! sizes, two seeds each), and instances of 20,000 to 100,000 buffers whose
//! lifetimes and sizes are drawn from somas-pangu-2.6b.
//! `cargo bench -p cann-memsim --bench planner` prints one row per instance:
//! the sweep (greedy by start time, the planner's floor), our plan at the
//! default time limit and at the long limit (30 s), each over the best known
//! arena (LOAD, or the capacity the MiniMalloc challenging set is packable
//! in), the best lower bound, wall seconds of the long run, and whether it is
//! proven optimal; every plan is verified.
//! `PLANNER_BENCH_ONLY=substring` runs only the matching instances;
//! `PLANNER_BENCH_LIMIT_S=seconds` sets the long limit (of both planners);
//! `PLANNER_BENCH_THREADS` the threads (2 by default). On a loaded machine
//! a wall-clock limit buys less CPU: say so beside the numbers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cann_memsim::generate::{dense, planted, resample};
use cann_memsim::greedy::sweep;
use cann_memsim::{load, parse_csv, plan_with, verify, Buffer, Placement, PlanOptions};
use rustix::time::{clock_gettime, ClockId};

fn cpu_now() -> Duration {
    let t = clock_gettime(ClockId::ProcessCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The arena of the sweep (greedy by start time, best gap): the planner's
/// floor, which no plan it returns may exceed.
fn sweep_arena(bufs: &[Buffer]) -> u64 {
    let mut b = cann_memsim::planner::budget::Budget::new(
        u64::MAX,
        Instant::now() + Duration::from_secs(3600),
    );
    sweep(bufs, Placement::BestGap, &mut b).1
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
    for (n, seed) in [
        (300, 11),
        (500, 12),
        (1000, 13),
        (2000, 14),
        (20_000, 15),
        (100_000, 16),
    ] {
        let (bufs, _) = planted(n, 1 << 30, 1 << 24, seed);
        out.push(Instance {
            name: format!("planted-{n}"),
            best_known: load(&bufs),
            bufs,
        });
    }
    for (n, seed) in [(20_000, 21), (50_000, 22), (100_000, 21), (100_000, 23)] {
        let bufs = dense(n, 10 * n as u64, seed);
        out.push(Instance {
            name: format!("dense-{}k-s{seed}", n / 1000),
            best_known: load(&bufs),
            bufs,
        });
    }
    let pangu = out
        .iter()
        .find(|i| i.name.contains("pangu"))
        .map(|i| i.bufs.clone());
    if let Some(from) = pangu {
        for (n, seed) in [(20_000, 31), (50_000, 32), (100_000, 33)] {
            let bufs = resample(&from, n, 20 * n as u64, seed);
            out.push(Instance {
                name: format!("pangu-like-{}k-s{seed}", n / 1000),
                best_known: load(&bufs),
                bufs,
            });
        }
    }
    out
}

fn main() {
    let only = std::env::var("PLANNER_BENCH_ONLY").ok();
    let mm = std::env::var_os("MINIMALLOC_BIN").map(PathBuf::from);
    let threads = std::env::var("PLANNER_BENCH_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(2);
    let short = PlanOptions {
        threads,
        ..PlanOptions::default()
    };
    let long = PlanOptions {
        time_limit: Duration::from_secs_f64(
            std::env::var("PLANNER_BENCH_LIMIT_S")
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                .unwrap_or(30.0),
        ),
        ..short
    };
    println!(
        "time limits {:?} (default) and {:?}, threads {threads}, {} cores seen, MiniMalloc: {}",
        short.time_limit,
        long.time_limit,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        mm.as_ref()
            .map_or("not run (set MINIMALLOC_BIN)".into(), |p| p
                .display()
                .to_string())
    );
    println!(
        "{:<26} {:>7} {:>8} {:>8} {:>8} {:>8} {:>7} {:>6} {:>6}  MiniMalloc (ratio, s)",
        "instance", "buffers", "sweep", "ours 5s", "ours", "bound", "wall", "CPU", "proven"
    );
    for inst in instances() {
        if only
            .as_ref()
            .is_some_and(|o| !inst.name.contains(o.as_str()))
        {
            continue;
        }
        let bk = inst.best_known as f64;
        let g = sweep_arena(&inst.bufs);
        let p5 = plan_with(&inst.bufs, short).unwrap();
        verify(&inst.bufs, &p5.offsets, p5.arena).unwrap();
        assert!(p5.arena <= g, "{}: worse than the sweep", inst.name);
        let (c0, w0) = (cpu_now(), Instant::now());
        let p = plan_with(&inst.bufs, long).unwrap();
        let (cpu, wall) = ((cpu_now() - c0).as_secs_f64(), w0.elapsed().as_secs_f64());
        verify(&inst.bufs, &p.offsets, p.arena).unwrap();
        let mm_col = mm.as_ref().map_or(String::from("-"), |bin| {
            match minimalloc(bin, &inst.bufs, g, long.time_limit) {
                Some((a, s)) => format!("{:.4} in {s:.2} s", a as f64 / bk),
                None => "no answer".into(),
            }
        });
        println!(
            "{:<26} {:>7} {:>8.4} {:>8.4} {:>8.4} {:>8.4} {:>6.1}s {:>5.1}s {:>6}  {mm_col}   [{:?}]",
            inst.name,
            inst.bufs.len(),
            g as f64 / bk,
            p5.arena as f64 / bk,
            p.arena as f64 / bk,
            p.lower_bound as f64 / bk,
            wall,
            cpu,
            if p.proven_optimal { "yes" } else { "no" },
            p.found_by
        );
    }
}
