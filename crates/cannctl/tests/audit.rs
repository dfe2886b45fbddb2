//! The Chinese audit: every command path a user can take (each command over the examples and
//! the mistake configs, in human and JSON form, and the usage errors of each command), run in
//! Chinese, and the English prose left in what it prints counted with the detector the `zh`
//! snapshots use. A command that takes `--lang` is run with `--lang zh` under an English
//! locale (so the flag is what asks for Chinese); one that does not, under `LANG=zh_CN.UTF-8`.
//!
//! Re-run it to see where English remains:
//! `cargo test -p cannctl --test audit -- --nocapture` prints each path's words and the total;
//! with `CANNCTL_AUDIT_BIN=path/to/cannctl` it audits that build instead (an installed
//! command, or a build from before a change, to compare counts), asked for Chinese by the
//! locale only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod prose;
use prose::{english_words, names};

/// Paths whose messages another change moves into the catalog: their words are counted and
/// shown, not failed on. Each entry is a prefix of the arguments. Empty: every path reads
/// in Chinese; add one only with the change that will move it.
const NOT_YET_IN_THE_CATALOG: &[&[&str]] = &[];

/// Fields of a JSON report that hold text for people (the rest are names, codes, numbers).
const PROSE_KEYS: &[&str] = &[
    "message",
    "hint",
    "expected",
    "note",
    "notes",
    "summary",
    "label",
    "help",
    "reason",
    "title",
    "text",
    "description",
    "why",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command path as a user types it.
struct Case {
    args: Vec<String>,
    stdin: Option<String>,
}

fn case(args: &[&str]) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        stdin: None,
    }
}

/// The Chinese command tree, to know which commands take `--lang`.
fn takes_lang(args: &[String]) -> bool {
    let mut cmd = cannctl::cli::localize::command(cann_config::meta::Lang::Zh);
    for a in args.iter().take_while(|a| !a.starts_with('-')) {
        match cmd.find_subcommand(a) {
            Some(s) => cmd = s.clone(),
            None => break,
        }
    }
    let takes = cmd.get_arguments().any(|a| a.get_id() == "lang");
    takes
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs a case with `HOME` and `ASCEND_CACHE_PATH` inside `scratch`, so a cache command
/// without a directory never touches the user's own cache.
fn run(c: &Case, scratch: &Path) -> Run {
    let other = std::env::var_os("CANNCTL_AUDIT_BIN");
    let mut cmd = Command::new(other.as_deref().map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_cannctl")),
        PathBuf::from,
    ));
    cmd.args(&c.args)
        .current_dir(repo())
        .env("HOME", scratch)
        .env("ASCEND_CACHE_PATH", scratch.join("no-cache"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES");
    // Another build may lack a `--lang` this one has: the locale asks it for Chinese.
    if other.is_none() && takes_lang(&c.args) {
        cmd.args(["--lang", "zh"]).env("LANG", "C.UTF-8");
    } else {
        cmd.env("LANG", "zh_CN.UTF-8");
    }
    cmd.stdin(if c.stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if let Some(text) = &c.stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let o = child.wait_with_output().unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The text for people in a JSON document: the strings under [`PROSE_KEYS`], one a line.
fn json_prose(v: &serde_json::Value, under_prose: bool, out: &mut String) {
    match v {
        serde_json::Value::String(s) if under_prose => {
            out.push_str(s);
            out.push('\n');
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_prose(x, under_prose, out)),
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                json_prose(x, PROSE_KEYS.contains(&k.as_str()), out);
            }
        }
        _ => {}
    }
}

/// Roff's font and dash escapes, and its string definitions, are markup, not words.
fn roff_text(man: &str) -> String {
    let text: Vec<&str> = man
        .lines()
        .filter(|l| ![".ie ", ".el ", ".ds "].iter().any(|r| l.starts_with(r)))
        .collect();
    text.join("\n")
        .replace("\\fB", "")
        .replace("\\fI", "")
        .replace("\\fR", "")
        .replace("\\fP", "")
        .replace("\\-", "-")
        .replace("\\(bu", "")
        .replace("\\(em", "")
        .replace("\\(aq", "'")
        .replace("\\*(Aq", "'")
}

/// The descriptions fish completions carry (`-d '...'`): the only prose in a completion script.
fn fish_descriptions(script: &str) -> String {
    let mut out = String::new();
    for line in script.lines() {
        if let Some((_, rest)) = line.split_once(" -d '") {
            out.push_str(rest.split('\'').next().unwrap_or(""));
            out.push('\n');
        }
    }
    out
}

/// What a user reads from one run.
fn prose_of(c: &Case, r: &Run) -> String {
    let json = c.args.windows(2).any(|w| w == ["--format", "json"]);
    let first = c.args.first().map(String::as_str);
    let stdout = if first == Some("emit") {
        // Emitted code is code; its comments are prose.
        let comments: Vec<&str> = r
            .stdout
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix('#'))
            .collect();
        comments.join("\n")
    } else if first == Some("lint") && c.args.iter().any(|a| a == "--diff") {
        // A diff of the user's own script.
        String::new()
    } else if c.args.first().is_some_and(|a| a == "completions") {
        if c.args.get(1).is_some_and(|s| s == "fish") {
            fish_descriptions(&r.stdout)
        } else {
            String::new()
        }
    } else if c.args.first().is_some_and(|a| a == "man") {
        roff_text(&r.stdout)
    } else if c.args.first().is_some_and(|a| a == "schema") {
        // The schema's descriptions are the spec's, for editors; the command itself says
        // nothing.
        String::new()
    } else if json {
        let mut text = String::new();
        for doc in serde_json::Deserializer::from_str(&r.stdout).into_iter::<serde_json::Value>() {
            match doc {
                Ok(v) => json_prose(&v, false, &mut text),
                Err(e) => panic!(
                    "{}: stdout is not JSON ({e}):\n{}",
                    c.args.join(" "),
                    r.stdout
                ),
            }
        }
        text
    } else {
        r.stdout.clone()
    };
    format!("{stdout}{}", r.stderr)
}

/// The Chinese-locale subcommand paths (`check`, `cache info`, ...), from the command tree.
fn command_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, at: &mut Vec<String>, all: &mut Vec<Vec<String>>) {
        for s in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            at.push(s.get_name().to_string());
            if s.has_subcommands() {
                walk(s, at, all);
            } else {
                all.push(at.clone());
            }
            at.pop();
        }
    }
    let mut all = Vec::new();
    walk(
        &cannctl::cli::localize::command(cann_config::meta::Lang::Zh),
        &mut Vec::new(),
        &mut all,
    );
    all
}

fn configs() -> Vec<String> {
    let mut all = Vec::new();
    for dir in ["examples", "tests/fixtures/valid", "tests/fixtures/invalid"] {
        let mut files: Vec<String> = std::fs::read_dir(repo().join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".json"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        files.sort();
        all.extend(files);
    }
    all
}

/// Every path, with the scratch files some of them need (kept alive by the returned dir).
fn cases() -> (tempfile::TempDir, Vec<Case>) {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();

    // A cache with one entry and its manifest, a buffer list, a script to fix.
    let cache = dir.path().join("cache");
    std::fs::create_dir_all(cache.join("kernel_cache/Ascend910B1")).unwrap();
    std::fs::write(cache.join("kernel_cache/Ascend910B1/te_add_1.o"), [0u8; 64]).unwrap();
    std::fs::write(
        cache.join("kernel_cache/Ascend910B1/te_add_1.json"),
        "{\"binFileName\": \"te_add_1\"}",
    )
    .unwrap();
    std::fs::write(
        at("buffers.csv"),
        "id,lower,upper,size\na,0,2,10\nb,1,3,20\nc,2,4,10\n",
    )
    .unwrap();
    std::fs::write(at("bad.csv"), "id,lower,upper,size\na,0,x,10\n").unwrap();
    std::fs::write(at("bad.jsonl"), "{\"op\": \"alloc\"\n").unwrap();
    // A trace the reader takes but the engine refuses: no address space holds the variable.
    std::fs::write(
        at("refused.jsonl"),
        format!(
            "{{\"ev\":\"var_alloc\",\"var\":\"w\",\"size\":{}}}\n",
            u64::MAX
        ),
    )
    .unwrap();
    let script = std::fs::read_to_string(
        repo().join("crates/cann-lint/tests/fixtures/patterns/unknown_names.py"),
    )
    .unwrap();
    std::fs::write(at("fix.py"), &script).unwrap();
    let cache = cache.display().to_string();

    let mut all = Vec::new();
    for file in configs() {
        all.push(case(&["check", &file]));
        all.push(case(&["check", &file, "--format", "json"]));
    }
    let mistakes = std::fs::read_to_string(repo().join("examples/mistakes.yaml")).unwrap();
    all.push(Case {
        args: ["check", "-", "--stdin-filename", "job.yaml"]
            .map(String::from)
            .to_vec(),
        stdin: Some(mistakes),
    });
    for bad in [
        &["check", "examples/train-a2.yaml", "--product", "atlas-9"][..],
        &["check", "examples/train-a2.yaml", "--release", "1.0.0"],
        &["check", "no/such.yaml"],
        &["check", "no/such.yaml", "--format", "json"],
        &["check", "examples"],
        &[
            "check",
            "examples/train-a2.yaml",
            "--soc-ini",
            "no/such.ini",
        ],
    ] {
        all.push(case(bad));
    }

    let lint = "crates/cann-lint/tests/fixtures";
    all.push(case(&["lint", lint, "--no-progress"]));
    all.push(case(&["lint", lint, "--no-progress", "--format", "json"]));
    all.push(case(&[
        "lint",
        lint,
        "--no-progress",
        "--product",
        "atlas-inference",
        "--release",
        "8.3.RC1",
    ]));
    all.push(case(&["lint", &at("fix.py"), "--diff"]));
    all.push(case(&["lint", &at("fix.py"), "--fix"]));
    all.push(case(&["lint", "no/such/dir"]));

    for (to, _) in cann_config::emit::Format::ALL {
        all.push(case(&["emit", "examples/train-a2.yaml", "--to", to]));
        all.push(case(&["emit", "examples/distributed-8p.yaml", "--to", to]));
    }
    all.push(case(&["emit", "examples/mistakes.yaml", "--to", "ge"]));
    all.push(case(&["emit", "no/such.yaml", "--to", "ge"]));

    for option in [
        "static_memory_policy",
        "ge.exec.staticMemoryPolicy",
        "HCCL_algorithm",
        "memory_config.static_memory_policy",
        "precision_mode",
        "op_compiler_cache_mode",
    ] {
        all.push(case(&["explain", option]));
    }
    all.push(case(&["explain", "precision_mode", "--format", "json"]));
    all.push(case(&["explain", "aicore_num", "--release", "8.0.RC1"]));
    all.push(case(&["explain", "static_memory"]));
    all.push(case(&["explain", "static_memory", "--format", "json"]));
    all.push(case(&["explain", "precision_mode", "--release", "1.0"]));

    all.push(case(&["options"]));
    all.push(case(&["options", "--format", "json"]));
    all.push(case(&["options", "HCCL_algorithm"]));
    all.push(case(&[
        "options",
        "--product",
        "atlas-inference",
        "--release",
        "8.3.RC1",
    ]));
    all.push(case(&["options", "no_such_option"]));
    all.push(case(&["options", "--product", "atlas-9"]));

    all.push(case(&["products"]));
    all.push(case(&["products", "--release", "8.3.RC1"]));
    all.push(case(&["products", "--format", "json"]));
    all.push(case(&["products", "--release", "1.0"]));

    all.push(case(&["diff", "8.3.RC1", "9.0.0"]));
    all.push(case(&[
        "diff",
        "8.0.RC1",
        "9.0.0",
        "--product",
        "atlas-a2-training",
    ]));
    all.push(case(&["diff", "8.3.RC1", "9.0.0", "--format", "json"]));
    all.push(case(&["diff", "8.3.RC1", "10.0.0"]));

    all.push(case(&["schema"]));

    // The memory commands, one a line as a user types them.
    let trace = "examples/traces/training.jsonl";
    let (bad_trace, buffers, bad_buffers) = (at("bad.jsonl"), at("buffers.csv"), at("bad.csv"));
    let mut mem = vec![];
    for policy in ["0", "1", "2"] {
        mem.push(format!("mem simulate --trace {trace} --policy {policy}"));
    }
    mem.extend([
        format!("mem simulate --trace {trace} --policy 2 --format json"),
        format!("mem simulate --trace {trace} --policy 9"),
        format!("mem simulate --trace {bad_trace} --policy 0"),
        format!("mem simulate --trace {} --policy 0", at("refused.jsonl")),
        format!("mem compare --trace {}", at("refused.jsonl")),
        "mem simulate --trace no/such.jsonl --policy 0".to_string(),
        format!("mem compare --trace {trace}"),
        "mem compare --trace examples/traces/dynamic-seq.jsonl".to_string(),
        format!("mem compare --trace {trace} --format json"),
        "mem compare --trace no/such.jsonl".to_string(),
        format!("mem plan --buffers {buffers} --time-limit 1"),
        format!("mem plan --buffers {buffers} --time-limit 1 --format json"),
        format!("mem plan --buffers {bad_buffers}"),
        format!("mem plan --buffers {buffers} --threads 300"),
        format!("mem plan --buffers {buffers} --time-limit 0"),
    ]);
    for line in &mem {
        all.push(case(&line.split_whitespace().collect::<Vec<_>>()));
    }
    for sub in ["info", "verify"] {
        all.push(case(&["cache", sub, &cache]));
        all.push(case(&["cache", sub, &cache, "--format", "json"]));
    }
    all.push(case(&["cache", "gc", &cache, "--dry-run"]));
    all.push(case(&["cache", "gc", &cache]));
    all.push(case(&["cache", "info", "no/such/cache"]));
    all.push(case(&["cache", "clear", &cache]));
    // The cache library's own errors: a directory name the spec does not allow, and a state
    // directory that is a file (every I/O failure is worded by its operation and kind).
    let spaced = dir.path().join("a b").display().to_string();
    all.push(case(&["cache", "gc", &spaced]));
    all.push(case(&["cache", "gc", &spaced, "--format", "json"]));
    let blocked = dir.path().join("blocked");
    std::fs::create_dir_all(blocked.join("kernel_cache")).unwrap();
    std::fs::write(blocked.join("kernel_cache/.cann-cache"), "not a directory").unwrap();
    let blocked = blocked.display().to_string();
    for sub in ["gc", "clear"] {
        all.push(case(&["cache", sub, &blocked]));
        all.push(case(&["cache", sub, &blocked, "--format", "json"]));
    }
    remote_cases(dir.path(), &cache, &mut all);

    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        all.push(case(&["completions", shell]));
    }
    all.push(case(&["man"]));

    // The usage errors of each command: a misspelled flag, and no arguments at all.
    for path in command_paths() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        all.push(case(&args));
        args.push("--no-such-flag");
        all.push(case(&args));
        args.extend(["--format", "json"]);
        all.push(case(&args));
    }
    all.push(case(&[]));
    all.push(case(&["chek"]));
    (dir, all)
}

/// A node's cache for the shared tier: toolkit stamps, and entries whose binaries are ELF
/// objects of `machine` (`(stem, machine)` pairs).
fn remote_node(dir: &Path, entries: &[(&str, u16)]) {
    let meta = dir.join("kernel_cache/Ascend910B/kernel_meta");
    std::fs::create_dir_all(&meta).unwrap();
    std::fs::write(
        dir.join("op_cache.ini"),
        "[op_compiler_cache]\nadk_version=7.0.RC1\nops_version=7.0.RC1\n",
    )
    .unwrap();
    for (stem, machine) in entries {
        let mut bin = b"\x7fELF\x02\x01\x01".to_vec();
        bin.resize(16, 0);
        bin.extend(1u16.to_le_bytes());
        bin.extend(machine.to_le_bytes());
        bin.extend(stem.bytes().cycle().take(3000));
        std::fs::write(meta.join(format!("{stem}.o")), bin).unwrap();
        std::fs::write(
            meta.join(format!("{stem}.json")),
            format!(
                r#"{{"kernelName":"{stem}__kernel0","binFileName":"{stem}","binFileSuffix":".o"}}"#
            ),
        )
        .unwrap();
    }
}

/// `cache push|pull|gc --remote` on a directory store: each report and note (two binary
/// formats stored, a fresh node that cannot tell its own, one told, one that can), each
/// refusal (a corrupted object, objects of the first layout), and each mistake (a URL with
/// credentials or of no store, no version stamps, a bad SoC or format name).
fn remote_cases(scratch: &Path, no_stamps: &str, all: &mut Vec<Case>) {
    let p = |n: &str| scratch.join(n).display().to_string();
    remote_node(
        &scratch.join("arm"),
        &[("te_add_1", 183), ("te_mul_2", 183)],
    );
    remote_node(&scratch.join("x86"), &[("te_add_1", 62), ("te_sub_3", 62)]);
    for fresh in ["fresh", "fresh2"] {
        remote_node(&scratch.join(fresh), &[]);
    }
    let (arm, x86, fresh, shared) = (p("arm"), p("x86"), p("fresh"), p("shared"));
    let nowhere = p("no-such-cache");
    let soc = ["--soc", "Ascend910B"];
    let lines: Vec<Vec<&str>> = vec![
        vec!["push", &arm, "--remote", &shared, "--dry-run"],
        vec!["push", &arm, "--remote", &shared, "--format", "json"],
        vec!["push", &arm, "--remote", &shared],
        vec!["push", &x86, "--remote", &shared],
        vec!["pull", &fresh, "--remote", &shared],
        [&["pull", &fresh, "--remote", &shared][..], &soc].concat(),
        [
            &["pull", &fresh, "--remote", &shared, "--format", "json"][..],
            &soc,
        ]
        .concat(),
        [
            &["pull", &fresh, "--remote", &shared, "--dry-run"][..],
            &soc,
            &["--binary-format", "elf64le-em183"],
        ]
        .concat(),
        [
            &["pull", &fresh, "--remote", &shared][..],
            &soc,
            &["--binary-format", "elf64le-em183"],
        ]
        .concat(),
        vec!["pull", &fresh, "--remote", &shared],
        vec!["pull", &fresh, "--remote", &shared, "--format", "json"],
        vec![
            "pull",
            &fresh,
            "--remote",
            &shared,
            "--binary-format",
            "ELF 64",
        ],
        vec!["pull", &fresh, "--remote", &shared, "--soc", "a/b"],
        vec!["gc", &arm, "--remote", &shared, "--max-size", "0"],
        vec![
            "gc",
            &arm,
            "--remote",
            &shared,
            "--max-size",
            "0",
            "--dry-run",
        ],
        vec!["gc", &arm, "--remote", &shared, "--format", "json"],
        vec!["push", &arm, "--remote", "redis://:s3cret@127.0.0.1:1/0"],
        vec!["push", &arm, "--remote", "ftp://host/x"],
        vec!["push", no_stamps, "--remote", &shared],
        vec!["push", &nowhere, "--remote", &shared],
    ];
    for l in lines {
        all.push(case(&[&["cache"][..], &l].concat()));
    }

    // A store with one corrupted object and one of the first layout (made now, before the
    // cases run: the push below is set-up, not a case).
    let bad = scratch.join("bad");
    let setup = run(
        &case(&["cache", "push", &arm, "--remote", &p("bad")]),
        scratch,
    );
    assert_eq!(setup.code, 0, "{}", setup.stderr);
    let object = walk_files(&bad.join("cce2"))
        .into_iter()
        .find(|f| !f.ends_with("scope.json"))
        .unwrap();
    let mut b = std::fs::read(&object).unwrap();
    let last = b.len() - 1;
    b[last] ^= 1;
    std::fs::write(&object, b).unwrap();
    let old = cann_cache_remote::Scope {
        soc: "Ascend910B".into(),
        adk_version: "7.0.RC1".into(),
        ops_version: "7.0.RC1".into(),
        binary_format: String::new(),
    }
    .old_dir();
    let old = bad.join(old).join("kernel_meta");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(old.join(format!("te_old.{}", "a".repeat(64))), b"old").unwrap();
    let fresh2 = p("fresh2");
    for json in [false, true] {
        let mut args = vec!["cache", "pull", &fresh2, "--remote"];
        let bad = p("bad");
        args.extend([bad.as_str(), "--soc", "Ascend910B", "--dry-run"]);
        if json {
            args.extend(["--format", "json"]);
        }
        all.push(case(&args));
    }
}

fn walk_files(d: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(d).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            out.extend(walk_files(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

#[test]
fn every_command_path_reads_in_chinese() {
    let names = names();
    let (dir, cases) = cases();
    let mut failing = Vec::new();
    let mut total = 0;
    let mut allowed = 0;
    let mut seen = BTreeSet::new();
    for c in &cases {
        let r = run(c, dir.path());
        let label = c.args.join(" ");
        assert!(
            (0..=2).contains(&r.code),
            "{label}: exit {}\n{}",
            r.code,
            r.stderr
        );
        // What the user typed (`check examples`) is theirs, not prose.
        let mut names = names.clone();
        names.extend(c.args.iter().cloned());
        let words = english_words(&prose_of(c, &r), &names);
        if words.is_empty() {
            continue;
        }
        total += words.len();
        seen.insert(label.clone());
        let pending = NOT_YET_IN_THE_CATALOG
            .iter()
            .any(|p| c.args.len() >= p.len() && c.args.iter().zip(p.iter()).all(|(a, b)| a == b));
        let line = format!("{label} [{}]: {}", words.len(), words.join(" "));
        eprintln!("{}{line}", if pending { "(allowed) " } else { "" });
        if pending {
            allowed += words.len();
        } else {
            failing.push(line);
        }
    }
    eprintln!(
        "audit: {total} English words over {} command paths ({} with English; {allowed} allowed)",
        cases.len(),
        seen.len()
    );
    assert!(
        failing.is_empty(),
        "English prose in Chinese output:\n{}",
        failing.join("\n")
    );
}
