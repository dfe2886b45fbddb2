//! `--lang zh` over every example and fixture config a user might start from: the output
//! is pinned (snapshots, `cargo insta review`) and holds no English prose. Names of
//! options, values, keys and products stay as the user writes them; so do the few terms the
//! upstream Chinese docs (hicann/tensorflow docs/zh) keep in English.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use cann_config::OPTIONS;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every config a user might run first: the examples and the valid and invalid fixtures.
fn configs() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in ["examples", "tests/fixtures/valid", "tests/fixtures/invalid"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "json"))
            .collect();
        files.sort();
        all.extend(
            files
                .into_iter()
                .map(|p| Path::new(dir).join(p.file_name().unwrap())),
        );
    }
    all
}

/// What `cannctl check FILE --lang zh` prints, stdout then stderr.
fn check_zh(file: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .args(["check", &file.display().to_string(), "--lang", "zh"])
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let code = o.status.code().unwrap_or(-1);
    assert!((0..=2).contains(&code), "{}: exit {code}", file.display());
    format!(
        "{}{}",
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap()
    )
}

/// Terms the upstream Chinese docs write in English, and unit and brand names.
const KEPT_IN_ENGLISH: &[&str] = &[
    "CANN",
    "Atlas",
    "Cube",
    "Vector",
    "Core",
    "session",
    "shape",
    "MB",
    "true",
    "false",
    "null",
    "Estimator",
    "Loss",
    "Scale",
    "cannctl",
    "TF",
    "Adapter",
    "shell",
    "bash",
    "zsh",
    "fish",
    "elvish",
    "powershell",
    "man",
    "roff",
    "diff",
    "Schema",
    "pickle",
    "torch",
    "Python",
    // Operator names.
    "Gather",
];

/// Every name a message may quote bare: options, classes, values, keys, variables, products.
fn names() -> BTreeSet<String> {
    let mut n: BTreeSet<String> = KEPT_IN_ENGLISH.iter().map(|s| s.to_string()).collect();
    let mut add = |s: &str| {
        n.extend(
            // Whole names only: a segment of one (`mode` of `cache_mode`) is not a name.
            s.split('.').filter(|w| !w.is_empty()).map(str::to_string),
        );
    };
    for o in OPTIONS {
        add(o.path);
        add(o.config);
        for x in [o.ge_key, o.estimator, o.tf2, o.env].into_iter().flatten() {
            add(x);
        }
        for v in o.values {
            add(v.name);
        }
    }
    for p in cann_config::Product::ALL {
        add(p.id());
    }
    for (name, _) in cann_config::emit::Format::ALL {
        add(name);
    }
    // The values flags take (`human`, `documented`), as the help lists them.
    fn values(cmd: &clap::Command, add: &mut dyn FnMut(&str)) {
        for a in cmd.get_arguments() {
            for v in a.get_possible_values() {
                add(v.get_name());
            }
        }
        for s in cmd.get_subcommands() {
            add(s.get_name());
            values(s, add);
        }
    }
    values(
        &cannctl::cli::localize::command(cann_config::meta::Lang::Zh),
        &mut add,
    );
    n
}

/// The English words left in `out` once what is not prose is removed: the quoted source
/// lines, paths, code in backticks, quoted values, and identifiers (with `_`, digits, dots).
fn english_words(out: &str, names: &BTreeSet<String>) -> Vec<String> {
    let mut words = Vec::new();
    for line in out.lines() {
        let t = line.trim_start();
        let excerpt = t
            .split_once('|')
            .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
            || t.starts_with('|');
        if excerpt || t.starts_with("-->") {
            continue;
        }
        let mut prose = String::new();
        let mut quote = None;
        for c in line.chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '`' || c == '"' || c == '\'' => quote = Some(c),
                None => prose.push(c),
            }
        }
        for token in
            prose.split(|c: char| c.is_whitespace() || "，。：；、（）()[],:;?？".contains(c))
        {
            // Operator and class names (HcomAllReduce) and acronyms have capitals inside.
            let identifier = token.contains(['_', '.', '/', '=', '|', '-'])
                || token.chars().any(|c| c.is_ascii_digit())
                || token.chars().skip(1).any(|c| c.is_ascii_uppercase());
            if identifier {
                continue;
            }
            for w in token.split(|c: char| !c.is_ascii_alphabetic()) {
                if w.len() >= 2 && !names.contains(w) {
                    words.push(w.to_string());
                }
            }
        }
    }
    words
}

#[test]
fn every_config_reads_in_chinese() {
    let names = names();
    let mut english = Vec::new();
    for file in configs() {
        let out = check_zh(&file);
        let words = english_words(&out, &names);
        if !words.is_empty() {
            english.push(format!("{}: {}", file.display(), words.join(" ")));
        }
        let name = file.display().to_string().replace(['/', '.'], "_");
        insta::assert_snapshot!(name, out);
    }
    assert!(
        english.is_empty(),
        "English prose in --lang zh output:\n{}",
        english.join("\n")
    );
}

#[test]
fn the_prose_check_finds_english() {
    let names = names();
    let out = "错误: unknown option `op_debug_levl`\n  = 建议: did you mean `x`?\n";
    let words = english_words(out, &names);
    assert_eq!(words, ["unknown", "option", "did", "you", "mean"]);
    let zh = "错误: `npu_run_config` 中没有选项 `op_compiler_cache_mod`\n5 |   mode: enable\n";
    assert!(english_words(zh, &names).is_empty());
}

/// With no `--lang`, a Chinese locale speaks Chinese and any other English.
#[test]
fn the_language_follows_the_locale() {
    let run = |vars: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_cannctl"));
        c.args(["check", "tests/fixtures/invalid/misspelled-option.yaml"])
            .current_dir(repo())
            .env("NO_COLOR", "1")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG");
        for (k, v) in vars {
            c.env(k, v);
        }
        String::from_utf8(c.output().unwrap().stdout).unwrap()
    };
    assert!(run(&[("LANG", "zh_CN.UTF-8")]).contains("错误"));
    assert!(run(&[("LANG", "C.UTF-8")]).contains("error: unknown option"));
    assert!(run(&[]).contains("error: unknown option"));
    // LC_ALL wins over LANG, LC_MESSAGES over LANG; an empty variable does not count.
    assert!(run(&[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "en_US.UTF-8")]).contains("error:"));
    assert!(run(&[("LANG", "en_US.UTF-8"), ("LC_MESSAGES", "zh_CN.UTF-8")]).contains("错误"));
    assert!(run(&[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "")]).contains("错误"));
    // --lang wins over the locale.
    let mut c = Command::new(env!("CARGO_BIN_EXE_cannctl"));
    let o = c
        .args([
            "check",
            "tests/fixtures/invalid/misspelled-option.yaml",
            "--lang",
            "en",
        ])
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .env("LC_ALL", "zh_CN.UTF-8")
        .output()
        .unwrap();
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("error: unknown option"));
}

/// Files that cannot be read as configs at all: the error is Chinese too, at its place.
#[test]
fn unreadable_files_are_explained_in_chinese() {
    let names = names();
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            "syntax.yaml",
            "npu_run_config:\n  aicore_num: [1, 2\n",
            ":2:15",
        ),
        ("dup.yaml", "a: 1\na: 2\n", ":2:1"),
        ("tab.yaml", "a:\n\tb: 1\n", ":2:"),
        ("docs.yaml", "a: 1\n---\nb: 2\n", ":3:1"),
        ("quote.yaml", "a: \"x\n", ":1:"),
        ("trailing.json", "{\"env\": {\"路径\": 1,}}\n", ":1:17"),
        ("comma.json", "{\"a\": 1 \"b\": 2}\n", ":1:9"),
        ("open.json", "{\"a\": [1, 2\n", ":"),
        ("empty.yaml", "", ":1:1"),
        ("list.yaml", "- a\n", ":1:1"),
    ];
    let mut english = Vec::new();
    for (name, text, place) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        let out = check_zh(&p);
        assert!(out.contains("错误"), "{name}: {out}");
        assert!(
            out.contains(&format!("{}{place}", p.display())),
            "{name}: {out}"
        );
        let words = english_words(&out, &names);
        if !words.is_empty() {
            english.push(format!("{name}: {}", words.join(" ")));
        }
    }
    assert!(
        english.is_empty(),
        "English in --lang zh errors:\n{}",
        english.join("\n")
    );
}

/// `explain --lang zh`: labels, value marks, the history, surfaces and rules read in Chinese,
/// for the newest release and for older ones.
#[test]
fn explain_reads_in_chinese() {
    let names = names();
    let mut english = Vec::new();
    for (option, release) in [
        ("static_memory_policy", None),
        ("variable_use_1g_huge_page", Some("8.0.0")),
        ("precision_mode", Some("8.0.RC2")),
    ] {
        let mut args = vec!["explain", option, "--lang", "zh"];
        args.extend(release.iter().flat_map(|r| ["--release", *r]));
        let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
            .args(&args)
            .current_dir(repo())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        let out = String::from_utf8(o.stdout).unwrap();
        // Sources are citations, quoted as their authors wrote them.
        let prose = out.split("\n来源：").next().unwrap_or(&out);
        let words = english_words(prose, &names);
        if !words.is_empty() {
            english.push(format!("{}: {}", args.join(" "), words.join(" ")));
        }
        let name = format!("explain_{option}_{}", release.unwrap_or("newest"));
        insta::assert_snapshot!(name, out);
    }
    assert!(
        english.is_empty(),
        "English prose in explain --lang zh:\n{}",
        english.join("\n")
    );
}

/// Every help page: `--help` of every command, in a Chinese locale.
#[test]
fn help_reads_in_chinese() {
    fn paths(cmd: &clap::Command, at: &mut Vec<String>, all: &mut Vec<Vec<String>>) {
        all.push(at.clone());
        for s in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            at.push(s.get_name().to_string());
            paths(s, at, all);
            at.pop();
        }
    }
    let names = names();
    let mut all = Vec::new();
    paths(
        &cannctl::cli::localize::command(cann_config::meta::Lang::Zh),
        &mut Vec::new(),
        &mut all,
    );
    assert!(all.len() > 15, "{all:?}");
    let mut english = Vec::new();
    for path in &all {
        for flag in ["--help", "-h"] {
            let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
                .args(path)
                .arg(flag)
                .current_dir(repo())
                .env("NO_COLOR", "1")
                .env_remove("LC_ALL")
                .env("LANG", "zh_CN.UTF-8")
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(0), "{path:?}");
            let out = String::from_utf8(o.stdout).unwrap();
            assert!(out.contains("用法："), "{path:?}: {out}");
            let words = english_words(&out, &names);
            if !words.is_empty() {
                english.push(format!("{} {flag}: {}", path.join(" "), words.join(" ")));
            }
            if flag == "--help" {
                let mut name = vec!["help"];
                name.extend(path.iter().map(String::as_str));
                insta::assert_snapshot!(name.join("_"), out);
            }
        }
    }
    // `--lang zh` asks for Chinese help as the locale does.
    let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .args(["check", "--help", "--lang", "zh"])
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .output()
        .unwrap();
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .contains("按产品和版本校验配置文件"));
    assert!(
        english.is_empty(),
        "English prose in Chinese help:\n{}",
        english.join("\n")
    );
}

/// Mistakes on the command line are explained in Chinese, with the usage line.
#[test]
fn usage_errors_read_in_chinese() {
    let names = names();
    let cases: &[&[&str]] = &[
        &["chek", "a.yaml"],
        &["check"],
        &["check", "a.yaml", "--formt", "json"],
        &["check", "a.yaml", "--format", "xml"],
        &["check", "a.yaml", "--format"],
        &["check", "a.yaml", "--max-findings", "many"],
        &["mem", "plan", "--buffers", "b.csv", "--threads", "0"],
        &[
            "mem", "simulate", "--trace", "t.jsonl", "--policy", "1", "--device", "x",
        ],
        &["emit", "a.yaml", "--to", "yaml"],
        &["lint", "a.py", "--fix", "--diff"],
        &["mem", "plan", "--buffers", "b.csv", "--time-limit", "0"],
        &["cache"],
        &["completions", "tcsh"],
        &["check", "examples/train-a2.yaml", "--product", "atlas-9"],
        &["diff", "8.3.RC1", "10.0.0"],
    ];
    let mut english = Vec::new();
    for args in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
            .args(*args)
            .args(["--lang", "zh"])
            .current_dir(repo())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(
            err.contains("错误") || err.contains("用法："),
            "{args:?}: {err}"
        );
        let words = english_words(&err, &names);
        if !words.is_empty() {
            english.push(format!("{}: {}", args.join(" "), words.join(" ")));
        }
    }
    assert!(
        english.is_empty(),
        "English prose in Chinese usage errors:\n{}",
        english.join("\n")
    );
}
