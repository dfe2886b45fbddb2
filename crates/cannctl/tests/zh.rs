//! `--lang zh` over every example and fixture config a user might start from: the output
//! is pinned (snapshots, `cargo insta review`) and holds no English prose. Names of
//! options, values, keys and products stay as the user writes them; so do the few terms the
//! upstream Chinese docs (hicann/tensorflow docs/zh) keep in English.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

mod prose;
mod run;
use prose::{english_words, names};
use run::transcript;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `cannctl <before> <path> <after> --lang <lang>`, checks the exit code, and returns
/// what a user sees, whole (exit code, stdout, stderr), with `dir` shown as `[DIR]`.
fn in_lang(
    before: &[&str],
    path: &Path,
    after: &[&str],
    lang: &str,
    code: i32,
    dir: &Path,
) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .args(before)
        .arg(path)
        .args(after)
        .args(["--lang", lang])
        .current_dir(repo())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(code), "{o:?}");
    transcript(&o, &[(&dir.display().to_string(), "[DIR]")])
}

/// What the command printed, without the frame of a [`transcript`] (its exit line and
/// stream headers), for the prose check.
fn printed(transcript: &str) -> String {
    transcript
        .lines()
        .filter(|l| !l.starts_with("exit: ") && *l != "--- stdout" && *l != "--- stderr")
        .collect::<Vec<_>>()
        .join("\n")
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
    assert!(matches!(code, 0..=2), "{}: exit {code}", file.display());
    format!(
        "{}{}",
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap()
    )
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
        transcript(&c.output().unwrap(), &[])
    };
    // The two outputs whole ("错误" ..., "error: unknown option" ...); every other
    // locale prints one of them, byte for byte.
    let zh = run(&[("LANG", "zh_CN.UTF-8")]);
    insta::assert_snapshot!("locale_zh", zh);
    let en = run(&[("LANG", "C.UTF-8")]);
    insta::assert_snapshot!("locale_en", en);
    assert_eq!(run(&[]), en, "no locale");
    // LC_ALL wins over LANG, LC_MESSAGES over LANG; an empty variable does not count.
    assert_eq!(
        run(&[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "en_US.UTF-8")]),
        en
    );
    assert_eq!(
        run(&[("LANG", "en_US.UTF-8"), ("LC_MESSAGES", "zh_CN.UTF-8")]),
        zh
    );
    assert_eq!(run(&[("LANG", "zh_CN.UTF-8"), ("LC_ALL", "")]), zh);
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
    assert_eq!(transcript(&o, &[]), en, "--lang en in a Chinese locale");
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
    // Each error whole ("错误" at the file's place, e.g. `[DIR]/syntax.yaml:2:15`).
    let mut all = String::new();
    for (name, text, place) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        let out = check_zh(&p);
        let words = english_words(&out, &names);
        if !words.is_empty() {
            english.push(format!("{name}: {}", words.join(" ")));
        }
        all.push_str(&format!(
            "$ cannctl check {name} --lang zh  # at {name}{place}\n"
        ));
        all.push_str(&out.replace(&dir.path().display().to_string(), "[DIR]"));
    }
    insta::assert_snapshot!("unreadable_files", all);
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
    // `-h` pages, whole, in one transcript; `--help` pages one snapshot each.
    let mut short = String::new();
    let mut check_help = String::new();
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
            if flag == "-h" {
                short.push_str(&format!("$ cannctl {} -h\n", path.join(" ")));
                short.push_str(&transcript(&o, &[]));
            }
            let out = String::from_utf8(o.stdout).unwrap();
            if path == &["check"] && flag == "--help" {
                check_help = out.clone();
            }
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
    insta::assert_snapshot!("help_short_all", short);
    // `--lang zh` asks for Chinese help as the locale does: the same page.
    let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
        .args(["check", "--help", "--lang", "zh"])
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .output()
        .unwrap();
    assert!(!check_help.is_empty());
    assert_eq!(String::from_utf8(o.stdout).unwrap(), check_help);
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
    // Each error whole ("错误" or "用法："), in one transcript.
    let mut all = String::new();
    for args in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_cannctl"))
            .args(*args)
            .args(["--lang", "zh"])
            .current_dir(repo())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        all.push_str(&format!("$ cannctl {} --lang zh\n", args.join(" ")));
        all.push_str(&transcript(&o, &[]));
        let err = String::from_utf8(o.stderr).unwrap();
        let words = english_words(&err, &names);
        if !words.is_empty() {
            english.push(format!("{}: {}", args.join(" "), words.join(" ")));
        }
    }
    insta::assert_snapshot!("usage_errors", all);
    assert!(
        english.is_empty(),
        "English prose in Chinese usage errors:\n{}",
        english.join("\n")
    );
}

/// A trace the reader takes but the memory engine refuses (no address space holds the
/// variable): the engine's reason is worded from the catalog in the language asked for,
/// with the line of the event and the engine's numbers.
#[test]
fn an_event_the_engine_refuses_is_worded_in_each_language() {
    let names = names();
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("refused.jsonl");
    let line = format!(
        "{{\"ev\":\"var_alloc\",\"var\":\"w\",\"size\":{}}}\n",
        u64::MAX
    );
    std::fs::write(
        &trace,
        format!("{{\"ev\":\"var_alloc\",\"var\":\"v\",\"size\":64}}\n{line}"),
    )
    .unwrap();
    let run = |lang: &str| {
        in_lang(
            &["mem", "simulate", "--trace"],
            &trace,
            &["--policy", "0"],
            lang,
            2,
            dir.path(),
        )
    };
    // At `[DIR]/refused.jsonl:2: `: "the engine refused this event: a request of
    // 18446744073709551615 bytes does not fit the address space", and in Chinese.
    let en = run("en");
    insta::assert_snapshot!("engine_refusal_en", en);
    let zh = run("zh");
    insta::assert_snapshot!("engine_refusal_zh", zh);
    let words = english_words(&printed(&zh), &names);
    assert!(
        words.is_empty(),
        "English in the zh refusal: {words:?}\n{zh}"
    );
}

/// A manifest that does not parse: `cache verify` says so in the language asked for, with
/// the parser's own text only as the detail it quotes.
#[test]
fn a_manifest_that_does_not_parse_is_worded_in_each_language() {
    let t = tempfile::tempdir().unwrap();
    let soc = t.path().join("kernel_cache/soc");
    std::fs::create_dir_all(&soc).unwrap();
    let manifest = soc.join("te_a.json");
    std::fs::write(&manifest, "not json").unwrap();
    // Written an hour ago: no compiler is still at work on it.
    let hour_ago = cann_runtime::cache::clock::system_now() - 3_600_000_000_000;
    cann_runtime::cache::set_file_times(&manifest, hour_ago, hour_ago).unwrap();
    let run = |lang: &str| in_lang(&["cache", "verify"], t.path(), &[], lang, 1, t.path());
    // "error: torn entry soc/te_a.json: its manifest is not valid (the parser says:
    // expected ...)"; in Chinese "错误：条目 soc/te_a.json 不完整：清单文件无效（解析器信息：
    // expected ...", with no English but the parser's quoted words.
    insta::assert_snapshot!("manifest_invalid_en", run("en"));
    insta::assert_snapshot!("manifest_invalid_zh", run("zh"));
}

/// The cache library's own errors (a failed system call, a path character the spec does not
/// allow) are worded in the language asked for: the operation, the reason by its kind and
/// the allowed characters as the spec describes them, never the library's English.
#[test]
fn cache_library_errors_are_worded_in_each_language() {
    let t = tempfile::tempdir().unwrap();
    let blocked = t.path().join("blocked");
    std::fs::create_dir_all(blocked.join("kernel_cache")).unwrap();
    // The state directory is a file: opening the state fails with "not a directory".
    std::fs::write(blocked.join("kernel_cache/.cann-cache"), "x").unwrap();
    let spaced = t.path().join("a b");
    let run = |dir: &Path, lang: &str| in_lang(&["cache", "gc"], dir, &[], lang, 2, t.path());
    // "open state in `[DIR]/blocked/kernel_cache`: a part of the path is not a directory",
    // and in Chinese "无法打开其中的状态文件：`...`（路径中的某一级不是目录）".
    insta::assert_snapshot!("cache_state_not_a_directory_en", run(&blocked, "en"));
    insta::assert_snapshot!("cache_state_not_a_directory_zh", run(&blocked, "zh"));
    // A space in the path: "... allowed are letters ...", "不被允许；允许的字符为 ...". Where
    // the space falls depends on the temporary directory: shown as [N], counted from 1 as a
    // reader counts.
    let n = 1 + spaced
        .display()
        .to_string()
        .chars()
        .position(|c| c == ' ')
        .unwrap();
    let en = run(&spaced, "en").replace(&format!("character {n};"), "character [N];");
    insta::assert_snapshot!("cache_path_character_en", en);
    let zh = run(&spaced, "zh").replace(&format!("第 {n} 个字符"), "第 [N] 个字符");
    insta::assert_snapshot!("cache_path_character_zh", zh);
    let words = english_words(&printed(&zh), &names());
    assert!(words.is_empty(), "English in the zh error: {words:?}\n{zh}");
}
