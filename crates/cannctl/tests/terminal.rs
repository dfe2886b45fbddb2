//! On a terminal: progress drawn from a second thread, and the command still finishes.
//! `script` (util-linux, in every Debian) gives the command a pseudo-terminal.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Buffers the planner does not settle within a second: random lifetimes and sizes, so
/// nothing merges and no arena reaches LOAD quickly.
fn unsettled_instance() -> String {
    let mut s = String::from("id,lower,upper,size\n");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for i in 0..400 {
        let lower = next() % 1000;
        let upper = lower + 1 + next() % 200;
        let size = 64 * (1 + next() % 1024);
        s.push_str(&format!("{i},{lower},{upper},{size}\n"));
    }
    s
}

#[test]
fn mem_plan_shows_its_spinner_on_a_terminal_and_finishes() {
    if Command::new("script").arg("--version").output().is_err() {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI must have util-linux's `script`"
        );
        eprintln!("skipped: no `script` (util-linux) to give cannctl a terminal");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("buffers.csv");
    std::fs::write(&csv, unsettled_instance()).unwrap();
    let line = format!(
        "'{}' mem plan --buffers '{}' --time-limit 2 --lang zh",
        env!("CARGO_BIN_EXE_cannctl"),
        csv.display()
    );
    let mut child = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env_remove("NO_COLOR")
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        stdout.read_to_end(&mut text).map(|_| text)
    });
    // A watchdog, not a timing assertion: the plan takes 2 s; a hang never ends.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            panic!("`cannctl mem plan` on a terminal did not finish: {line}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = String::from_utf8_lossy(&reader.join().unwrap().unwrap()).into_owned();
    assert!(status.success(), "{status}: {text}");
    assert!(
        text.contains("正在规划"),
        "the spinner is drawn in the user's language: {text}"
    );
}
