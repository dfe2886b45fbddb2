//! `cannctl lint` on the real ModelZoo-TensorFlow tree against `ruff check --select E9
//! --no-cache` (ruff parsing every file and reporting only syntax errors) on the same files,
//! in one run, as processes, end to end: wall time (median of the runs) and peak resident
//! memory of each process (from `wait4`), and their ratios.
//!
//! Two sets of files, as in the issue that asked for it: the scripts that mention the
//! adapter (`parameter_map`, `NPURunConfig`, `global_options`, `npu_bridge`, `npu_device`),
//! passed by name, and the whole tree, passed as its root directory.
//!
//! ```sh
//! cargo build --release -p cannctl
//! CANNCTL_MODELZOO=/path/to/ModelZoo-TensorFlow CANNCTL_BIN=target/release/cannctl \
//!   RUFF=/path/to/ruff cargo bench -p cann-lint --bench lint_corpus
//! ```
//!
//! Without `CANNCTL_BIN` it times `cann_lint::lint_paths` in the bench's own process
//! instead (no peak memory then). Without the tree or ruff (`RUFF`, else `ruff` on PATH)
//! it says what is missing and stops. `CANN_LINT_BENCH_RUNS` sets the runs per tool (default 5).
#![allow(clippy::print_stdout, unsafe_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use aho_corasick::AhoCorasick;

/// What the issue counted as "TF-related": files naming one of these.
const MENTIONS: [&str; 5] = [
    "parameter_map",
    "NPURunConfig",
    "global_options",
    "npu_bridge",
    "npu_device",
];

/// One finished process: wall time and peak resident set size in KiB.
struct Run {
    wall: Duration,
    max_rss_kib: i64,
}

/// Runs `cmd` to completion, reaping it with `wait4` to read its own peak memory.
fn measure(mut cmd: Command) -> Option<Run> {
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let child = cmd.spawn().ok()?;
    let pid = i32::try_from(child.id()).ok()?;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills in; `pid` is our own child, which
    // `std::process::Child` never reaps by itself.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::wait4(pid, &mut status, 0, &mut usage) != pid {
            return None;
        }
        usage
    };
    let wall = start.elapsed();
    // Exit 0 or 1 (findings) is a proper run; 2 or a signal is not.
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    matches!(code, Some(0 | 1)).then_some(Run {
        wall,
        max_rss_kib: usage.ru_maxrss,
    })
}

fn python_files(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ignore::WalkBuilder::new(root)
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    out.sort();
    out
}

fn mentioning(files: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(ac) = AhoCorasick::new(MENTIONS) else {
        return Vec::new();
    };
    files
        .iter()
        .filter(|p| std::fs::read(p).is_ok_and(|b| ac.is_match(&b)))
        .cloned()
        .collect()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn tool_on(bin: &Path, args: &[&str], targets: &[PathBuf]) -> Command {
    let mut c = Command::new(bin);
    c.args(args).args(targets);
    c
}

/// `cann_lint::lint_paths` in this process, the files read and every finding made: what
/// `cannctl lint` does short of printing. Peak memory is not known per run here.
fn in_process(targets: &[PathBuf]) -> Option<Run> {
    let start = Instant::now();
    let out = cann_lint::lint_paths(targets, &cann_lint::LintOptions::default()).ok()?;
    std::hint::black_box(out.findings().count());
    Some(Run {
        wall: start.elapsed(),
        max_rss_kib: 0,
    })
}

fn compare(label: &str, cannctl: Option<&Path>, ruff: &Path, targets: &[PathBuf], runs: usize) {
    let ours = || match cannctl {
        Some(bin) => measure(tool_on(
            bin,
            &["lint", "--no-progress", "--format", "json"],
            targets,
        )),
        None => in_process(targets),
    };
    let theirs = || {
        tool_on(
            ruff,
            &[
                "check",
                "--select",
                "E9",
                "--no-cache",
                "--quiet",
                "--exit-zero",
            ],
            targets,
        )
    };
    // One untimed run each, so both see a warm page cache.
    let _ = ours();
    let _ = measure(theirs());
    let (mut ow, mut tw, mut om, mut tm) = (Vec::new(), Vec::new(), 0, 0);
    for _ in 0..runs {
        if let Some(r) = ours() {
            ow.push(r.wall);
            om = om.max(r.max_rss_kib);
        }
        if let Some(r) = measure(theirs()) {
            tw.push(r.wall);
            tm = tm.max(r.max_rss_kib);
        }
    }
    if ow.is_empty() || tw.is_empty() {
        println!("{label}: a tool did not run properly (exit 2 or a signal)");
        return;
    }
    let (o, t) = (median(ow), median(tw));
    let (who, memory) = match cannctl {
        Some(_) => (
            "cannctl lint",
            format!(", peak memory {:.2}x ruff", om as f64 / tm.max(1) as f64),
        ),
        None => ("lint_paths  ", String::new()),
    };
    println!(
        "{label}: {who} {:>8.1} ms {:>7} KiB | ruff E9 {:>8.1} ms {:>7} KiB | time {:.2}x ruff{memory}",
        o.as_secs_f64() * 1e3,
        om,
        t.as_secs_f64() * 1e3,
        tm,
        o.as_secs_f64() / t.as_secs_f64(),
    );
}

fn main() {
    let Some(root) = std::env::var_os("CANNCTL_MODELZOO").map(PathBuf::from) else {
        println!("skipped: set CANNCTL_MODELZOO to a checkout of Ascend/ModelZoo-TensorFlow");
        return;
    };
    let cannctl = std::env::var_os("CANNCTL_BIN").map(PathBuf::from);
    if cannctl.is_none() {
        println!("CANNCTL_BIN unset: timing cann_lint::lint_paths in this process (no memory)");
    }
    let ruff = std::env::var_os("RUFF").map_or_else(|| PathBuf::from("ruff"), PathBuf::from);
    let ruff_runs = Command::new(&ruff)
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ruff_runs {
        println!("skipped: ruff not found (pip install ruff; set RUFF to its path)");
        return;
    }
    let runs = std::env::var("CANN_LINT_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5usize)
        .max(1);
    let all = python_files(&root);
    let related = mentioning(&all);
    println!(
        "{} Python files, {} mention the adapter; {runs} runs per tool",
        all.len(),
        related.len()
    );
    compare("adapter scripts", cannctl.as_deref(), &ruff, &related, runs);
    compare("whole tree     ", cannctl.as_deref(), &ruff, &[root], runs);
}
