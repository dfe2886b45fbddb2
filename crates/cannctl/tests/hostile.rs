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
        (0..=2).contains(&code),
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

/// Asserts an exit-2 refusal whose message says `want`.
fn refused(args: &[&str], want: &str) {
    let r = bounded(args, None);
    assert_eq!(r.code, 2, "cannctl {args:?}: {}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(want), "cannctl {args:?}: {}", r.stderr);
}

#[test]
fn dev_zero_is_refused_by_every_reader() {
    let device = "/dev/zero: a character device, not a regular file";
    refused(&["check", "/dev/zero"], device);
    refused(&["emit", "/dev/zero", "--to", "json"], device);
    refused(
        &["lint", "/dev/zero"],
        "a character device, not a regular file",
    );
    refused(
        &["check", "examples/train-a2.yaml", "--soc-ini", "/dev/zero"],
        device,
    );
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().display().to_string();
    refused(&["cache", "info", &dir, "--config", "/dev/zero"], device);
}

#[test]
fn a_fifo_without_a_writer_is_refused_at_once() {
    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("config.yaml");
    mkfifo(&fifo);
    let f = fifo.display().to_string();
    let want = "a FIFO (named pipe), not a regular file";
    refused(&["check", &f], want);
    refused(&["emit", &f, "--to", "ge"], want);
    let py = t.path().join("train.py");
    mkfifo(&py);
    refused(&["lint", &py.display().to_string()], want);
    refused(&["check", "examples/train-a2.yaml", "--soc-ini", &f], want);
    let dir = t.path().join("cache").display().to_string();
    refused(&["cache", "info", &dir, "--config", &f], want);
}

#[test]
fn cache_config_refuses_what_check_refuses() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cache").display().to_string();
    let bad = t.path().join("latin1.yaml");
    std::fs::write(&bad, b"product: atlas-a2-training\n# caf\xe9\n").unwrap();
    let b = bad.display().to_string();
    let want = ":2:6: not UTF-8 text (first bad byte at offset 32)";
    refused(&["check", &b], want);
    refused(&["cache", "info", &dir, "--config", &b], want);
    let big = t.path().join("big.yaml");
    let mut text = b"product: atlas-a2-training\n".to_vec();
    text.resize(5 * 1024 * 1024, b'#');
    std::fs::write(&big, text).unwrap();
    let g = big.display().to_string();
    refused(&["check", &g], "larger than 4194304 bytes");
    refused(
        &["cache", "info", &dir, "--config", &g],
        "larger than 4194304 bytes",
    );
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
    let r = bounded(&["check", &p.display().to_string()], None);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("c.yaml:3:7: not UTF-8 text (first bad byte at offset 49)"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("hint: save the file as UTF-8"),
        "{}",
        r.stderr
    );
    let r = bounded(&["check", &p.display().to_string(), "--lang", "zh"], None);
    assert!(
        r.stderr.contains("c.yaml:3:7: 不是 UTF-8 文本"),
        "{}",
        r.stderr
    );
}

#[test]
fn dash_reads_standard_input_under_the_same_cap() {
    let r = bounded(
        &["check", "-"],
        Some(&repo().join("examples/train-a2.yaml")),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("<stdin>: 0 errors"), "{}", r.stdout);
    // Standard input that never ends is cut at the cap, not read forever.
    let r = bounded(&["check", "-"], Some(Path::new("/dev/zero")));
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("<stdin>: larger than 4194304 bytes"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_directory_is_refused_with_a_hint() {
    refused(
        &["check", "examples"],
        "examples: a directory, not a regular file",
    );
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
    let want = "deep.pickle: not a readable torch memory snapshot pickle at byte 20258: \
                containers nested more than 256 deep";
    refused(&["mem", "simulate", "--trace", &f, "--policy", "2"], want);
    refused(&["mem", "compare", "--trace", &f], want);
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
    refused(
        &["mem", "simulate", "--trace", "/dev/zero", "--policy", "2"],
        "/dev/zero: a character device, not a regular file",
    );
    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("trace.jsonl");
    mkfifo(&fifo);
    refused(
        &["mem", "compare", "--trace", &fifo.display().to_string()],
        "a FIFO (named pipe), not a regular file",
    );
    let csv = t.path().join("b.csv");
    mkfifo(&csv);
    refused(
        &["mem", "plan", "--buffers", &csv.display().to_string()],
        "a FIFO (named pipe), not a regular file",
    );
}
