//! Hostile inputs (issue 17): every one ends with exit 0, 1 or 2 within 10 s, under
//! 512 MiB of address space, with bounded output. Each runs `cannctl` as a child process
//! under rlimits, so a crash, a hang or a flood fails the test instead of the test run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bounds.
const WALL: Duration = Duration::from_secs(10);
const MEMORY: u64 = 512 * 1024 * 1024;
/// Output a reproducer may write before it counts as a flood.
const OUTPUT: u64 = 4 * 1024 * 1024;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// How a bounded run ended.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Reads a pipe to its end, keeping at most `OUTPUT + 1` bytes and discarding the rest (so
/// the child never blocks on a full pipe and a flood is still measured).
fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<(Vec<u8>, u64)> {
    std::thread::spawn(move || {
        let (mut kept, mut total, mut buf) = (Vec::new(), 0u64, vec![0u8; 1 << 16]);
        while let Ok(n) = r.read(&mut buf) {
            if n == 0 {
                break;
            }
            total += n as u64;
            if (kept.len() as u64) <= OUTPUT {
                kept.extend_from_slice(&buf[..n]);
            }
        }
        (kept, total)
    })
}

/// Runs cannctl with `args` (and `stdin`) under the bounds; panics with what was exceeded.
fn bounded(args: &[&str], stdin: Option<&Path>) -> Ran {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cannctl"));
    cmd.args(args)
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .stdin(match stdin {
            Some(p) => Stdio::from(std::fs::File::open(p).unwrap()),
            None => Stdio::null(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            use rustix::process::{setrlimit, Resource, Rlimit};
            let lim = |n| Rlimit {
                current: Some(n),
                maximum: Some(n),
            };
            setrlimit(Resource::As, lim(MEMORY))?;
            // CPU time a little past the wall bound, so a spin is killed even if the
            // wall-clock watchdog below were late.
            setrlimit(Resource::Cpu, lim(WALL.as_secs() + 2))?;
            setrlimit(Resource::Core, lim(0))?;
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("cannctl starts");
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > WALL {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cannctl {args:?} ran past {WALL:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, out_total) = out.join().unwrap();
    let (stderr, err_total) = err.join().unwrap();
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    assert!(
        out_total + err_total <= OUTPUT,
        "cannctl {args:?} wrote {} bytes",
        out_total + err_total
    );
    if let Some(sig) = status.signal() {
        panic!("cannctl {args:?} was killed by signal {sig}: {stderr}");
    }
    let code = status.code().unwrap();
    assert!(
        matches!(code, 0..=2),
        "cannctl {args:?} exited {code}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    Ran {
        code,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr,
    }
}

fn mkfifo(p: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        p,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        0,
    )
    .unwrap();
}

impl Ran {
    /// What a user saw, whole, after the command line: the exit code, stdout and stderr,
    /// with `dir` (a temporary directory) shown as `[DIR]`.
    fn seen(&self, args: &[&str], dir: Option<&Path>) -> String {
        let t = format!(
            "$ cannctl {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
            args.join(" "),
            self.code,
            self.stdout,
            self.stderr
        );
        match dir {
            Some(d) => t.replace(&d.display().to_string(), "[DIR]"),
            None => t,
        }
    }
}

/// Asserts an exit-2 refusal and adds what the user saw to `all`.
fn refused(all: &mut String, args: &[&str], dir: Option<&Path>) {
    let r = bounded(args, None);
    assert_eq!(r.code, 2, "cannctl {args:?}: {}{}", r.stdout, r.stderr);
    all.push_str(&r.seen(args, dir));
}

#[test]
fn dev_zero_is_refused_by_every_reader() {
    // Each: "/dev/zero: a character device, not a regular file".
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().display().to_string();
    let mut all = String::new();
    let d = Some(t.path());
    refused(&mut all, &["check", "/dev/zero"], d);
    refused(&mut all, &["emit", "/dev/zero", "--to", "json"], d);
    refused(&mut all, &["lint", "/dev/zero"], d);
    refused(
        &mut all,
        &["check", "examples/train-a2.yaml", "--soc-ini", "/dev/zero"],
        d,
    );
    refused(
        &mut all,
        &["cache", "info", &dir, "--config", "/dev/zero"],
        d,
    );
    insta::assert_snapshot!("dev_zero", all);
}

#[test]
fn a_fifo_without_a_writer_is_refused_at_once() {
    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("config.yaml");
    mkfifo(&fifo);
    let f = fifo.display().to_string();
    // Each: "a FIFO (named pipe), not a regular file".
    let mut all = String::new();
    let d = Some(t.path());
    refused(&mut all, &["check", &f], d);
    refused(&mut all, &["emit", &f, "--to", "ge"], d);
    let py = t.path().join("train.py");
    mkfifo(&py);
    refused(&mut all, &["lint", &py.display().to_string()], d);
    refused(
        &mut all,
        &["check", "examples/train-a2.yaml", "--soc-ini", &f],
        d,
    );
    let dir = t.path().join("cache").display().to_string();
    refused(&mut all, &["cache", "info", &dir, "--config", &f], d);
    insta::assert_snapshot!("fifo", all);
}

#[test]
fn cache_config_refuses_what_check_refuses() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cache").display().to_string();
    let bad = t.path().join("latin1.yaml");
    std::fs::write(&bad, b"product: atlas-a2-training\n# caf\xe9\n").unwrap();
    let b = bad.display().to_string();
    // The same refusals from both: ":2:6: not UTF-8 text (first bad byte at offset 32)",
    // then "larger than 4194304 bytes".
    let mut all = String::new();
    let d = Some(t.path());
    refused(&mut all, &["check", &b], d);
    refused(&mut all, &["cache", "info", &dir, "--config", &b], d);
    let big = t.path().join("big.yaml");
    let mut text = b"product: atlas-a2-training\n".to_vec();
    text.resize(5 * 1024 * 1024, b'#');
    std::fs::write(&big, text).unwrap();
    let g = big.display().to_string();
    refused(&mut all, &["check", &g], d);
    refused(&mut all, &["cache", "info", &dir, "--config", &g], d);
    insta::assert_snapshot!("cache_config_as_check", all);
}

#[test]
fn not_utf8_names_the_byte_offset_line_and_column() {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("c.yaml");
    std::fs::write(
        &p,
        b"product: atlas-a2-training\nnpu_run_config:\n  x: \"\xff\"\n",
    )
    .unwrap();
    // "c.yaml:3:7: not UTF-8 text (first bad byte at offset 49)", "hint: save the file as
    // UTF-8"; in Chinese "c.yaml:3:7: 不是 UTF-8 文本".
    let c = p.display().to_string();
    let args = ["check", c.as_str()];
    let r = bounded(&args, None);
    assert_eq!(r.code, 2);
    insta::assert_snapshot!("not_utf8", r.seen(&args, Some(t.path())));
    let args = ["check", c.as_str(), "--lang", "zh"];
    let r = bounded(&args, None);
    insta::assert_snapshot!("not_utf8_zh", r.seen(&args, Some(t.path())));
}

#[test]
fn dash_reads_standard_input_under_the_same_cap() {
    let r = bounded(
        &["check", "-"],
        Some(&repo().join("examples/train-a2.yaml")),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // "<stdin>: 0 errors ...".
    insta::assert_snapshot!("stdin", r.seen(&["check", "-"], None));
    // Standard input that never ends is cut at the cap, not read forever: "<stdin>: larger
    // than 4194304 bytes".
    let r = bounded(&["check", "-"], Some(Path::new("/dev/zero")));
    assert_eq!(r.code, 2);
    insta::assert_snapshot!("stdin_endless", r.seen(&["check", "-"], None));
}

#[test]
fn a_directory_is_refused_with_a_hint() {
    // "examples: a directory, not a regular file", with a hint.
    let mut all = String::new();
    refused(&mut all, &["check", "examples"], None);
    insta::assert_snapshot!("directory", all);
}

#[test]
fn a_deeply_nested_pickle_is_refused_not_a_stack_overflow() {
    // The reproducer: 40 KB, 20 000 lists each appended into the one before.
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("deep.pickle");
    let mut deep = vec![0x80, 4];
    deep.extend(std::iter::repeat_n(b']', 20_000));
    deep.extend(std::iter::repeat_n(b'a', 19_999));
    deep.push(b'.');
    std::fs::write(&p, deep).unwrap();
    let f = p.display().to_string();
    // Both: "deep.pickle: not a readable torch memory snapshot pickle at byte 20258:
    // containers nested more than 256 deep".
    let mut all = String::new();
    let d = Some(t.path());
    refused(
        &mut all,
        &["mem", "simulate", "--trace", &f, "--policy", "2"],
        d,
    );
    refused(&mut all, &["mem", "compare", "--trace", &f], d);
    insta::assert_snapshot!("deep_pickle", all);
}

#[test]
fn a_snapshot_sharing_entries_through_the_memo_is_read() {
    let p = "crates/cann-memsim/tests/fixtures/torch_snapshot_shared.pickle";
    for device in ["0", "1"] {
        let r = bounded(
            &[
                "mem", "simulate", "--trace", p, "--policy", "2", "--device", device, "--format",
                "json",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert!(v.is_object(), "{}", r.stdout);
    }
    let r = bounded(&["mem", "compare", "--trace", p], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn mem_refuses_devices_and_fifos_as_traces() {
    // "/dev/zero: a character device, not a regular file", then twice "a FIFO (named
    // pipe), not a regular file".
    let t = tempfile::tempdir().unwrap();
    let mut all = String::new();
    let d = Some(t.path());
    refused(
        &mut all,
        &["mem", "simulate", "--trace", "/dev/zero", "--policy", "2"],
        d,
    );
    let fifo = t.path().join("trace.jsonl");
    mkfifo(&fifo);
    refused(
        &mut all,
        &["mem", "compare", "--trace", &fifo.display().to_string()],
        d,
    );
    let csv = t.path().join("b.csv");
    mkfifo(&csv);
    refused(
        &mut all,
        &["mem", "plan", "--buffers", &csv.display().to_string()],
        d,
    );
    insta::assert_snapshot!("mem_devices_and_fifos", all);
}
