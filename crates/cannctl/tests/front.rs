//! The command line itself: `--format json` on every outcome, `--color`, standard input,
//! `completions`, `man`, `--version`, `options` filters and tables, `diff --lang`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod run;
use run::{repo, transcript};

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn base() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cannctl"));
    c.current_dir(repo())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "C.UTF-8");
    c
}

fn cannctl(args: &[&str]) -> Output {
    base().args(args).output().unwrap()
}

fn with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = base()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

/// What a user sees of a run, whole, with escape characters made visible (`␛`).
fn seen(o: &Output, replace: &[(&str, &str)]) -> String {
    transcript(o, replace).replace('\x1b', "␛")
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: stdout is not JSON: {}", text(&o.stdout)))
}

/// Every way a command can stop with exit 2 still gives a `--format json` caller JSON on
/// stdout, and nothing on stderr.
#[test]
fn json_is_printed_for_every_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "npu_run_config:\n  aicore_num: [1, 2\n").unwrap();
    let bad = bad.display().to_string();
    let cases: &[(&[&str], &str)] = &[
        (&["check", &bad, "--format", "json"], "parse"),
        (&["check", "no/such.yaml", "--format", "json"], "input"),
        (
            &[
                "check",
                "examples/train-a2.yaml",
                "--product",
                "atlas-9",
                "--format",
                "json",
            ],
            "usage",
        ),
        (
            &["check", "a.yaml", "--format", "json", "--frobnicate"],
            "usage",
        ),
        (&["check", "--format=json"], "usage"),
        (
            &["products", "--release", "1.0", "--format", "json"],
            "usage",
        ),
        (&["diff", "8.3.RC1", "10.0.0", "--format", "json"], "usage"),
        (&["explain", "no_such_option", "--format", "json"], "usage"),
    ];
    let mut all = String::new();
    for (args, kind) in cases {
        let o = cannctl(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let v = json(&o);
        assert_eq!(v["error"]["kind"], *kind, "{args:?}: {v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{v}"
        );
        assert!(o.stderr.is_empty(), "{args:?}: {}", text(&o.stderr));
        all.push_str(&format!(
            "$ cannctl {}\n",
            args.join(" ").replace(&bad, "[BAD]")
        ));
        all.push_str(&seen(&o, &[(&bad, "[BAD]")]));
    }
    // A parse error carries its place.
    let v = json(&cannctl(&["check", &bad, "--format", "json"]));
    assert_eq!(v["error"]["line"], 2);
    assert_eq!(v["error"]["column"], 15);
    // Every message whole; the parse error in Chinese too.
    let args = ["check", &bad, "--format", "json", "--lang", "zh"];
    all.push_str(&format!(
        "$ cannctl {}\n",
        args.join(" ").replace(&bad, "[BAD]")
    ));
    all.push_str(&seen(&cannctl(&args), &[(&bad, "[BAD]")]));
    insta::assert_snapshot!("json_for_every_outcome", all);
}

#[test]
fn color_follows_the_flag_and_the_conventions() {
    let file = "examples/mistakes.yaml";
    // Piped: no colour unless asked. Both outputs whole: every other run prints one of
    // the two, byte for byte.
    let plain = seen(&cannctl(&["check", file]), &[]);
    insta::assert_snapshot!("check_piped_plain", plain);
    let coloured = seen(&cannctl(&["check", file, "--color", "always"]), &[]);
    insta::assert_snapshot!("check_color_always", coloured);
    let is = |o: Output, want: &str, why: &str| assert_eq!(seen(&o, &[]), want, "{why}");
    is(
        cannctl(&["--color", "always", "check", file]),
        &coloured,
        "a global flag",
    );
    is(
        base()
            .args(["check", file])
            .env("CLICOLOR_FORCE", "1")
            .output()
            .unwrap(),
        &coloured,
        "CLICOLOR_FORCE=1",
    );
    is(
        base()
            .args(["check", file])
            .env("CLICOLOR_FORCE", "0")
            .output()
            .unwrap(),
        &plain,
        "CLICOLOR_FORCE=0",
    );
    // NO_COLOR wins over CLICOLOR_FORCE; --color wins over both.
    let both = |args: &[&str]| {
        base()
            .args(args)
            .env("CLICOLOR_FORCE", "1")
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    is(
        both(&["check", file]),
        &plain,
        "NO_COLOR over CLICOLOR_FORCE",
    );
    is(
        both(&["check", file, "--color", "always"]),
        &coloured,
        "--color always over NO_COLOR",
    );
    is(
        base()
            .args(["check", file, "--color", "never"])
            .env("CLICOLOR_FORCE", "1")
            .output()
            .unwrap(),
        &plain,
        "--color never over CLICOLOR_FORCE",
    );
}

/// A session script with a misspelled `parameter_map` key, which `--fix` renames.
const TYPO_SCRIPT: &str = "import tensorflow as tf\n\
config = tf.ConfigProto()\n\
op = config.graph_options.rewrite_options.custom_optimizers.add()\n\
op.name = \"NpuOptimizer\"\n\
op.parameter_map[\"op_debug_levl\"].i = 0\n";

#[test]
fn lint_reads_standard_input() {
    // The finding at `<stdin>:5:`, exit 1.
    let o = with_stdin(&["lint", "-"], TYPO_SCRIPT);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    insta::assert_snapshot!("lint_stdin", seen(&o, &[]));
    let o = with_stdin(
        &[
            "lint",
            "-",
            "--stdin-filename",
            "jobs/train.py",
            "--format",
            "json",
        ],
        TYPO_SCRIPT,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let v = json(&o);
    assert_eq!(v["scanned"], 1);
    assert_eq!(v["files"][0]["path"], "jobs/train.py");
    assert_eq!(v["files"][0]["findings"][0]["line"], 5);
    // A script that sets nothing wrong: exit 0.
    let clean = TYPO_SCRIPT.replace("op_debug_levl", "op_debug_level");
    let o = with_stdin(&["lint", "-"], &clean);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    // --diff names the given file and changes nothing; --fix writes the fixed script out.
    let o = with_stdin(
        &["lint", "-", "--stdin-filename", "t.py", "--diff"],
        TYPO_SCRIPT,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    insta::assert_snapshot!("lint_stdin_diff", seen(&o, &[]));
    let o = with_stdin(&["lint", "-", "--fix"], TYPO_SCRIPT);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), clean);
    // Fixing what is already fixed changes nothing.
    let o = with_stdin(&["lint", "-", "--fix"], &clean);
    assert_eq!(text(&o.stdout), clean);
    // `-` together with files is refused: which of them would the name be?
    let o = with_stdin(
        &["lint", "-", "crates/cann-lint/tests/fixtures"],
        TYPO_SCRIPT,
    );
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("lint_stdin_with_files", seen(&o, &[]));
}

#[test]
fn check_reads_standard_input() {
    let yaml = std::fs::read_to_string(repo().join("examples/mistakes.yaml")).unwrap();
    // Findings at `<stdin>:5:3`, exit 1; with a name, at `configs/job.yaml:5:3`.
    let o = with_stdin(&["check", "-"], &yaml);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    insta::assert_snapshot!("check_stdin", seen(&o, &[]));
    let o = with_stdin(
        &["check", "-", "--stdin-filename", "configs/job.yaml"],
        &yaml,
    );
    insta::assert_snapshot!("check_stdin_named", seen(&o, &[]));
    // The name also says JSON: a trailing comma is then an error, as in a `.json` file.
    let trailing =
        "{\"product\": \"atlas-a2-training\", \"env\": {\"ASCEND_CACHE_PATH\": \"/tmp/c\",}}\n";
    let o = with_stdin(&["check", "-", "--stdin-filename", "job.json"], trailing);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    insta::assert_snapshot!("check_stdin_json_trailing_comma", seen(&o, &[]));
    let o = with_stdin(&["check", "-", "--stdin-filename", "job.yaml"], trailing);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
}

#[test]
fn completions_and_man_page() {
    // Each script whole: every command and flag (`--max-findings` among them), described.
    let version = [(env!("CARGO_PKG_VERSION"), "[VERSION]")];
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = cannctl(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        insta::assert_snapshot!(format!("completions_{shell}"), seen(&o, &version));
    }
    // Described in Chinese ("按产品和版本校验配置文件").
    let o = cannctl(&["completions", "zsh", "--lang", "zh"]);
    insta::assert_snapshot!("completions_zsh_zh", seen(&o, &version));
    // The page: `.TH cannctl`, "Check, explain and emit ..."; in Chinese "检查、解释并生成".
    let o = cannctl(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("man", seen(&o, &version));
    insta::assert_snapshot!("man_zh", seen(&cannctl(&["man", "--lang", "zh"]), &version));
}

#[test]
fn version_names_the_newest_release() {
    let o = cannctl(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    // `cannctl VERSION (CANN RELEASE)`.
    insta::assert_snapshot!(
        "version",
        seen(&o, &[(env!("CARGO_PKG_VERSION"), "[VERSION]")])
    );
    let v = text(&o.stdout);
    // The release named is the one `check` defaults to: the newest.
    let release = v
        .trim()
        .trim_end_matches(')')
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    let r = json(&cannctl(&[
        "check",
        "examples/train-a2.yaml",
        "--format",
        "json",
    ]));
    assert_eq!(r["release"], release.as_str(), "{v}");
}

#[test]
fn options_filters_by_product_and_release() {
    let all = json(&cannctl(&["options", "--format", "json"]));
    let n = |v: &serde_json::Value| v.as_array().unwrap().len();
    let inference = json(&cannctl(&[
        "options",
        "--product",
        "atlas-inference",
        "--release",
        "8.3.RC1",
        "--format",
        "json",
    ]));
    assert!(
        n(&inference) > 10 && n(&inference) < n(&all),
        "{} of {}",
        n(&inference),
        n(&all)
    );
    // memory_config is not supported on Atlas inference products in 8.3.RC1 (as
    // examples/mistakes.yaml shows), so it is not listed.
    assert!(!inference
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["path"] == "npu_run_config.memory_config"));
    let o = cannctl(&["options", "--product", "atlas-9"]);
    assert_eq!(o.status.code(), Some(2));
    // A table: one line per option plus the header when piped, wrapped to COLUMNS.
    let table = text(&cannctl(&["options"]).stdout);
    assert_eq!(table.lines().count(), n(&all) + 1, "{table}");
    let narrow = base()
        .args(["options", "--lang", "zh"])
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    // The header ("选项" ...) and every row, whole.
    insta::assert_snapshot!("options_zh_80_columns", seen(&narrow, &[]));
    let narrow = text(&narrow.stdout);
    let cells = |l: &str| {
        l.chars()
            .map(|c| if c > '\u{2e80}' { 2 } else { 1 })
            .sum::<usize>()
    };
    assert!(narrow.lines().all(|l| cells(l) <= 80), "{narrow}");
}

#[test]
fn summaries_are_not_cut_at_abbreviations() {
    let table = text(&cannctl(&["options"]).stdout);
    for line in table.lines() {
        let t = line.trim_end();
        assert!(
            !t.ends_with(" e.g") && !t.ends_with("(e.g") && !t.ends_with(" tf"),
            "{line}"
        );
    }
}

#[test]
fn diff_speaks_the_language_asked() {
    // "从 8.3.RC1 到 9.0.0 的变化", the products ("产品："), in Chinese throughout.
    let o = cannctl(&["diff", "8.3.RC1", "9.0.0", "--lang", "zh"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("diff_8.3.RC1_9.0.0_zh", seen(&o, &[]));
    let o = cannctl(&[
        "diff",
        "8.3.RC1",
        "9.0.0",
        "--product",
        "atlas-9",
        "--lang",
        "zh",
    ]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("diff_unknown_product_zh", seen(&o, &[]));
}

#[test]
fn options_are_found_by_every_name() {
    let path = |args: &[&str]| {
        let v = json(&cannctl(args));
        v.as_array()
            .unwrap()
            .iter()
            .map(|o| o["path"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let policy = "npu_run_config.memory_config.static_memory_policy";
    for name in [
        "static_memory_policy",
        "memory_config.static_memory_policy",
        policy,
        "ge.exec.staticMemoryPolicy",
    ] {
        assert_eq!(
            path(&["options", name, "--format", "json"]),
            [policy],
            "{name}"
        );
    }
    // Upstream spellings of the Estimator and the environment.
    let hccl = path(&["options", "HCCL_algorithm", "--format", "json"]);
    assert_eq!(hccl.len(), 1, "{hccl:?}");
    // Part of a name lists every option that has it.
    let memory = path(&["options", "memory", "--format", "json"]);
    insta::assert_snapshot!("options_named_memory", memory.join("\n"));
    let o = cannctl(&["options", "no_such_thing_at_all"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("options_named_nothing", seen(&o, &[]));
}
