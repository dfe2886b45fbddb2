//! Lints a generated tree of training code, timed in the same run against
//! `ruff check --select E9 --no-cache` (ruff parsing every file and reporting only syntax
//! errors) on the same tree. ruff is optional: without it on PATH only our times print.
//!
//! `cargo bench -p cann-lint`; `CANN_LINT_BENCH_FILES=N` changes the tree size (default
//! 5000), `CANN_LINT_BENCH_RUNS=N` the number of timed runs per tool (default 5), and
//! `CANNCTL_BIN=path/to/cannctl` adds `cannctl lint` as a process, end to end like ruff.
//!
//! Two trees: a realistic one where 3% of the scripts set NPU options (most files of a real
//! repository are models, data pipelines and utilities), and a worst case where every
//! script does, so every file is parsed by tree-sitter and checked.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cann_lint::{lint_paths, LintOptions};

/// A small deterministic generator, so every run lints the same tree.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn ordinary(rng: &mut Rng, i: usize) -> String {
    let mut s = format!(
        "\"\"\"Module {i}: layers, data and helpers.\"\"\"\nimport os\nimport math\n\
         import numpy as np\nimport tensorflow as tf\n\nLOG = tf.get_logger()\n\n"
    );
    for f in 0..(8 + rng.below(16)) {
        let width = 64 << rng.below(4);
        let _ = write!(
            s,
            "\n\nclass Block{i}_{f}(tf.keras.layers.Layer):\n    \"\"\"A residual block.\"\"\"\n\n\
             \x20   def __init__(self, units={width}, rate=0.{r}, **kwargs):\n\
             \x20       super().__init__(**kwargs)\n        self.units = units\n\
             \x20       self.dense = tf.keras.layers.Dense(units, activation=\"relu\")\n\
             \x20       self.drop = tf.keras.layers.Dropout(rate)\n\n\
             \x20   def call(self, x, training=False):\n        y = self.dense(x)\n\
             \x20       y = self.drop(y, training=training)\n        if training and {width} > 128:\n\
             \x20           y = y * math.sqrt(1.0 / {width})\n        return x + y\n\n\n\
             def load_{f}(path, batch_size={b}):\n    files = sorted(os.listdir(path))\n\
             \x20   ds = tf.data.TFRecordDataset([os.path.join(path, p) for p in files])\n\
             \x20   ds = ds.map(lambda r: tf.io.parse_single_example(r, {{\"x\": tf.io.FixedLenFeature([{width}], tf.float32)}}))\n\
             \x20   return ds.shuffle(10000).batch(batch_size, drop_remainder=True)\n",
            r = rng.below(9) + 1,
            b = 16 << rng.below(3),
        );
    }
    s
}

fn with_options(rng: &mut Rng, i: usize) -> String {
    let mut s = ordinary(rng, i);
    let policy = rng.below(6);
    match i % 3 {
        0 => {
            let _ = write!(
                s,
                "\n\nfrom npu_bridge.npu_init import *\n\ndef run_config():\n    return NPURunConfig(\n\
                 \x20       model_dir=\"./ckpt\", save_checkpoints_steps=1000, iterations_per_loop=100,\n\
                 \x20       precision_mode=\"allow_mix_precision\", op_compiler_cache_mode=\"enable\",\n\
                 \x20       memory_config=MemoryConfig(static_memory_policy={policy}, atomic_clean_policy=1),\n    )\n"
            );
        }
        1 => {
            let _ = write!(
                s,
                "\n\ndef session_config():\n    config = tf.ConfigProto()\n\
                 \x20   custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n\
                 \x20   custom_op.name = \"NpuOptimizer\"\n\
                 \x20   custom_op.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"allow_mix_precision\")\n\
                 \x20   custom_op.parameter_map[\"static_memory_policy\"].i = {policy}\n\
                 \x20   custom_op.parameter_map[\"op_compiler_cache_mode\"].i = 1\n    return config\n"
            );
        }
        _ => {
            let _ = write!(
                s,
                "\n\nimport npu_device as npu\nnpu.global_options().precision_mode = \"allow_mix_precision\"\n\
                 npu.global_options().memory_config.static_memory_policy = {policy}\nnpu.open().as_default()\n"
            );
        }
    }
    s
}

fn generate(root: &Path, files: usize, touching_percent: u64) -> std::io::Result<u64> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut bytes = 0;
    for i in 0..files {
        // Like a real repository: packages of a few dozen modules each.
        let dir = root.join(format!("pkg{:03}/sub{}", i / 40, i % 4));
        std::fs::create_dir_all(&dir)?;
        let text = if rng.below(100) < touching_percent {
            with_options(&mut rng, i)
        } else {
            ordinary(&mut rng, i)
        };
        bytes += text.len() as u64;
        std::fs::write(dir.join(format!("mod_{i}.py")), text)?;
    }
    Ok(bytes)
}

fn ruff_available() -> bool {
    Command::new("ruff")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn time_ruff(root: &Path) -> Option<Duration> {
    let start = Instant::now();
    let status = Command::new("ruff")
        .args(["check", "--select", "E9", "--no-cache", "--quiet"])
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    // Exit 1 means syntax errors were found; only a failure to run counts.
    (status.code().is_some()).then(|| start.elapsed())
}

fn time_cannctl(bin: &str, root: &Path) -> Option<Duration> {
    let start = Instant::now();
    let status = Command::new(bin)
        .args(["lint", "--no-progress", "--format", "json"])
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    // Exit 1 means error findings; 2 or a signal means it did not run properly.
    matches!(status.code(), Some(0 | 1)).then(|| start.elapsed())
}

fn time_lint(root: &Path) -> Option<(Duration, usize, usize)> {
    let start = Instant::now();
    let out = lint_paths(&[root.to_path_buf()], &LintOptions::default()).ok()?;
    Some((start.elapsed(), out.parsed, out.findings().count()))
}

fn stats(mut v: Vec<Duration>) -> String {
    v.sort();
    match (v.first(), v.get(v.len() / 2)) {
        (Some(min), Some(median)) => format!(
            "min {:>7.1} ms  median {:>7.1} ms",
            min.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3
        ),
        _ => "no runs".into(),
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn bench(
    label: &str,
    files: usize,
    touching: u64,
    runs: usize,
    ruff: bool,
    cannctl: Option<&str>,
) -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    let bytes = generate(dir.path(), files, touching)?;
    println!(
        "\n{label}: {files} scripts, {:.1} MB, {touching}% set NPU options",
        bytes as f64 / 1e6
    );
    // One untimed run each, so both tools see a warm page cache.
    let _ = time_lint(dir.path());
    if ruff {
        let _ = time_ruff(dir.path());
    }
    let (mut ours, mut theirs, mut process) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = (0, 0);
    for _ in 0..runs {
        if let Some((d, parsed, found)) = time_lint(dir.path()) {
            ours.push(d);
            last = (parsed, found);
        }
        if ruff {
            theirs.extend(time_ruff(dir.path()));
        }
        if let Some(bin) = cannctl {
            process.extend(time_cannctl(bin, dir.path()));
        }
    }
    println!(
        "  cann-lint                          {}  ({} parsed, {} findings)",
        stats(ours),
        last.0,
        last.1
    );
    if cannctl.is_some() {
        println!("  cannctl lint (process)             {}", stats(process));
    }
    if ruff {
        println!("  ruff check --select E9 --no-cache  {}", stats(theirs));
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    let files = env_usize("CANN_LINT_BENCH_FILES", 5000);
    let runs = env_usize("CANN_LINT_BENCH_RUNS", 5).max(1);
    let ruff = ruff_available();
    if !ruff {
        println!("ruff not found on PATH: timing cann-lint only (pip install ruff to compare)");
    }
    println!(
        "threads: {} (rayon); runs per tool: {runs}",
        rayon::current_num_threads()
    );
    let cannctl = std::env::var("CANNCTL_BIN").ok();
    bench("realistic tree", files, 3, runs, ruff, cannctl.as_deref())?;
    bench("worst case", files, 100, runs, ruff, cannctl.as_deref())?;
    Ok(())
}
