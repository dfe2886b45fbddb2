//! The CLI as a user runs it: output, exit codes and bad input.
//! Snapshots: `cargo insta review`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod run;
use run::{cannctl, repo, stderr, stdout, transcript};

use std::process::Command;
use std::time::{Duration, Instant};

fn write_tmp(name: &str, text: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    (dir, p.display().to_string())
}

#[test]
fn check_clean_example_exits_0() {
    let o = cannctl(&["check", "examples/train-a2.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn check_reports_every_finding_and_exits_1() {
    let o = cannctl(&["check", "examples/mistakes.yaml"]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!(stdout(&o));
}

/// A pre-commit hook passes every staged file at once: each is checked, a file that cannot
/// be read is said without stopping the others, and the exit code is the worst.
#[test]
fn check_takes_several_files_and_exits_with_the_worst() {
    let o = cannctl(&["check", "examples/train-a2.yaml", "examples/mistakes.yaml"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    insta::assert_snapshot!("check_several_files", transcript(&o, &[]));
    let o = cannctl(&[
        "check",
        "no/such/file.yaml",
        "examples/mistakes.yaml",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("check_several_files_one_missing_stderr", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let files: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["examples/mistakes.yaml"]);
}

/// The schema ships inside the command, with the `$id` editors resolve it by.
#[test]
fn schema_prints_the_generated_schema() {
    let o = cannctl(&["schema"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let checked_in: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("schema/cann-config.schema.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(v, checked_in);
    assert_eq!(v["$id"], "urn:cannctl:schema:cann-config");
}

#[test]
fn check_json_has_the_documented_shape() {
    let o = cannctl(&["check", "examples/mistakes.yaml", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ds = v["diagnostics"].as_array().unwrap();
    assert!(!ds.is_empty());
    for d in ds {
        assert!(["error", "warning", "note"].contains(&d["severity"].as_str().unwrap()));
        assert!(d["option"].is_string());
        assert!(d["message"].is_string());
    }
    let unknown = ds
        .iter()
        .find(|d| d["option"] == "npu_run_config.op_compiler_cache_mod")
        .unwrap();
    assert_eq!(unknown["hint"], "did you mean `op_compiler_cache_mode`?");
    assert_eq!(unknown["line"], 5);
    let alias = ds
        .iter()
        .find(|d| {
            d["severity"] == "warning"
                && d["option"] == "npu_run_config.memory_config.static_memory_policy"
        })
        .unwrap();
    insta::assert_snapshot!("check_json_alias_hint", alias["hint"].as_str().unwrap());
}

#[test]
fn check_in_chinese() {
    let o = cannctl(&["check", "examples/mistakes.yaml", "--lang", "zh"]);
    insta::assert_snapshot!("check_in_chinese", transcript(&o, &[]));
}

#[test]
fn command_line_target_overrides_the_file() {
    // The example is clean on A2 training; MemoryConfig is not supported on Atlas inference.
    let o = cannctl(&[
        "check",
        "examples/train-a2.yaml",
        "--product",
        "atlas-inference",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = cannctl(&["check", "examples/train-a2.yaml", "--release", "8.3.RC1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn unknown_product_or_release_is_a_usage_error() {
    let o = cannctl(&[
        "check",
        "examples/train-a2.yaml",
        "--product",
        "atlas-a2-trainig",
    ]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("unknown_product_flag", transcript(&o, &[]));
    let o = cannctl(&["check", "examples/train-a2.yaml", "--release", "7.0.0"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("unknown_release_flag", transcript(&o, &[]));
    let (_d, p) = write_tmp("c.yaml", b"product: atlas-9000\n");
    let o = cannctl(&["check", &p]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("unknown_product_in_file", transcript(&o, &[(&p, "[FILE]")]));
}

#[test]
fn missing_product_is_a_usage_error_with_a_hint() {
    let (_d, p) = write_tmp("c.yaml", b"npu_run_config: {}\n");
    let o = cannctl(&["check", &p]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("missing_product", transcript(&o, &[(&p, "[FILE]")]));
}

#[test]
fn bad_input_files() {
    let cases: &[(&str, &[u8])] = &[
        ("syntax.yaml", b"npu_run_config:\n  aicore_num: [1, 2\n"),
        ("list.yaml", b"- a\n- b\n"),
        ("empty.yaml", b""),
        ("binary.yaml", &[0xff, 0xfe, 0x00, 0x01]),
    ];
    for (name, text) in cases {
        let (_d, p) = write_tmp(name, text);
        let o = cannctl(&["check", &p]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        insta::assert_snapshot!(
            format!("bad_input_{name}"),
            transcript(&o, &[(&p, "[FILE]")])
        );
    }
    let o = cannctl(&["check", "no/such/file.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("bad_input_missing", transcript(&o, &[]));
}

#[test]
fn wrong_type_is_a_finding_with_its_position() {
    let (_d, p) = write_tmp(
        "c.yaml",
        b"product: atlas-a2-training\nnpu_run_config:\n  memory_config:\n    static_memory_policy: \"two\"\n",
    );
    let o = cannctl(&["check", &p]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("wrong_type", transcript(&o, &[(&p, "[FILE]")]));
}

#[test]
fn fifty_megabyte_file_is_refused_quickly() {
    let mut big = b"product: atlas-a2-training\nnpu_run_config:\n".to_vec();
    big.resize(50 * 1024 * 1024, b'#');
    let (_d, p) = write_tmp("big.yaml", &big);
    let start = Instant::now();
    let o = cannctl(&["check", &p]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("fifty_megabytes", transcript(&o, &[(&p, "[FILE]")]));
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn alias_bomb_is_refused_within_a_second() {
    let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        doc.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let (_d, p) = write_tmp("bomb.yaml", doc.as_bytes());
    let start = Instant::now();
    let o = cannctl(&["check", &p]);
    let took = start.elapsed();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Generous for a loaded debug build; an unbounded expansion takes minutes and gigabytes.
    assert!(took < Duration::from_secs(3), "{took:?}");
}

fn emit(to: &str) -> String {
    let o = cannctl(&["emit", "examples/train-a2.yaml", "--to", to]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn emit_every_format() {
    for to in ["ge", "estimator", "session", "tf2", "env", "json"] {
        insta::assert_snapshot!(format!("emit_{to}"), emit(to));
    }
}

#[test]
fn emitted_python_parses() {
    let Ok(python) = which_python() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is required in CI"
        );
        eprintln!("skipped: no python3");
        return;
    };
    for to in ["estimator", "session", "tf2"] {
        let src = emit(to);
        let o = Command::new(&python)
            .args(["-c", "import ast, sys; ast.parse(sys.stdin.read())"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(src.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        assert!(
            o.status.success(),
            "{to}:\n{src}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

fn which_python() -> Result<String, ()> {
    for cand in ["python3", "python"] {
        if Command::new(cand)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Ok(cand.to_string());
        }
    }
    Err(())
}

#[test]
fn emit_refuses_a_config_with_errors() {
    let o = cannctl(&["emit", "examples/mistakes.yaml", "--to", "ge"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    insta::assert_snapshot!("emit_refused", transcript(&o, &[]));
}

#[test]
fn explain_an_option() {
    let o = cannctl(&["explain", "static_memory_policy"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("explain_an_option", transcript(&o, &[]));
    let o = cannctl(&[
        "explain",
        "npu_run_config.memory_config.static_memory_policy",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["ge_key"], "ge.exec.staticMemoryPolicy");
    let o = cannctl(&["explain", "ASCEND_CACHE_PATH"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn explain_unknown_option_suggests() {
    let o = cannctl(&["explain", "static_memory_polcy"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("explain_unknown", transcript(&o, &[]));
}

#[test]
fn options_json_lists_every_option_with_required_fields() {
    let o = cannctl(&["options", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let all = v.as_array().unwrap();
    assert_eq!(all.len(), cann_config::OPTIONS.len());
    for o in all {
        for k in [
            "path", "name", "type", "default", "ge_key", "doc_en", "doc_zh",
        ] {
            assert!(o.get(k).is_some(), "{k} missing in {o}");
        }
    }
    assert!(all.iter().any(
        |o| o["path"] == "npu_run_config.memory_config.static_memory_policy" && o["default"] == "0"
    ));
}

#[test]
fn products_by_release() {
    insta::assert_snapshot!("products", transcript(&cannctl(&["products"]), &[]));
    let old = cannctl(&["products", "--release", "8.3.RC1"]);
    insta::assert_snapshot!("products_8.3.RC1", transcript(&old, &[]));
    let o = cannctl(&["products", "--release", "1.0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(cannctl(&["check"]).status.code(), Some(2));
    assert_eq!(
        cannctl(&["emit", "examples/train-a2.yaml", "--to", "yaml"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(cannctl(&["frobnicate"]).status.code(), Some(2));
}

#[test]
fn diff_between_releases() {
    let o = cannctl(&["diff", "8.3.RC1", "9.0.0"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("diff_8.3.RC1_9.0.0", transcript(&o, &[]));
    let o = cannctl(&[
        "diff",
        "8.3.RC1",
        "9.0.0",
        "--product",
        "atlas-a2-inference",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["product"], "atlas-a2-inference");
    assert!(v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["before"].is_string() || c["after"].is_string()));
    assert_eq!(
        cannctl(&["diff", "8.3.RC1", "10.0.0"]).status.code(),
        Some(2)
    );
    assert_eq!(
        cannctl(&["diff", "8.3.RC1", "9.0.0", "--product", "atlas-9"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn mem_simulate_json_keys() {
    let o = cannctl(&[
        "mem",
        "simulate",
        "--trace",
        "examples/traces/training.jsonl",
        "--policy",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for k in [
        "policy",
        "peak_reserved_bytes",
        "peak_live_bytes",
        "backend_alloc_calls",
        "backend_free_calls",
        "clean_ops",
        "clean_bytes",
        "refused_concurrent",
    ] {
        assert!(v.get(k).is_some(), "{k} missing: {v}");
    }
    let o = cannctl(&[
        "mem",
        "simulate",
        "--trace",
        "examples/traces/training.jsonl",
        "--policy",
        "9",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = cannctl(&[
        "mem",
        "simulate",
        "--trace",
        "no/such.jsonl",
        "--policy",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn cache_commands_on_an_empty_cache() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("kernel_cache")).unwrap();
    let d = dir.path().display().to_string();
    let o = cannctl(&["cache", "info", &d, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = cannctl(&["cache", "verify", &d]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = cannctl(&["cache", "gc", &d, "--dry-run"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn lint_training_scripts() {
    let o = cannctl(&[
        "lint",
        "crates/cann-lint/tests/fixtures",
        "--product",
        "atlas-a2-training",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    insta::assert_snapshot!("lint_fixtures", transcript(&o, &[]));
    let o = cannctl(&["lint", "crates/cann-lint/tests/fixtures/no_npu_options.py"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = cannctl(&[
        "lint",
        "crates/cann-lint/tests/fixtures",
        "--format",
        "sarif",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["version"], "2.1.0");
    assert_eq!(cannctl(&["lint", "no/such/dir"]).status.code(), Some(2));
}

const TYPO: &str = "import tensorflow as tf\n\
config = tf.ConfigProto()\n\
op = config.graph_options.rewrite_options.custom_optimizers.add()\n\
op.parameter_map[\"op_debug_levl\"].i = 0\n";

#[test]
fn lint_ci_formats_name_the_file_relative_to_where_it_ran() {
    let (dir, path) = write_tmp("train.py", TYPO.as_bytes());
    let run = |format: &str| {
        Command::new(env!("CARGO_BIN_EXE_cannctl"))
            .args(["lint", "--format", format, &path])
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let o = run("github");
    assert_eq!(o.status.code(), Some(1));
    let gh = stdout(&o);
    assert!(
        gh.starts_with("::error file=train.py,line=4,col=18,title=cannctl unknown-option::"),
        "{gh}"
    );
    let o = run("gitlab");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["location"]["path"], "train.py");
    assert_eq!(v[0]["location"]["lines"]["begin"], 4);
    assert_eq!(v[0]["severity"], "major");
    assert!(v[0]["fingerprint"].as_str().is_some_and(|f| !f.is_empty()));
    let o = run("sarif");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "train.py");
}

#[test]
fn lint_diff_shows_the_fix_and_fix_writes_it() {
    let (dir, path) = write_tmp("train.py", TYPO.as_bytes());
    let o = cannctl(&["lint", "--diff", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    insta::assert_snapshot!("lint_diff", transcript(&o, &[(&path, "[FILE]")]));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TYPO);
    let o = cannctl(&["lint", "--fix", &path]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        TYPO.replace("op_debug_levl", "op_debug_level")
    );
    let o = cannctl(&["lint", "--diff", &path]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).is_empty());
    drop(dir);
}

/// One huge expression inside `NPURunConfig(...)`: refused at the node budget, with the
/// file and the place, quickly.
#[test]
fn lint_refuses_a_syntax_tree_past_its_budget_with_a_place() {
    let mut text = String::from("cfg = NPURunConfig(iterations_per_loop=");
    text.push_str(&"1+".repeat(1_400_000));
    text.push_str("1)\n");
    let (_dir, path) = write_tmp("huge.py", text.as_bytes());
    let start = Instant::now();
    let o = cannctl(&["lint", &path]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    insta::assert_snapshot!("lint_node_budget", transcript(&o, &[(&path, "[FILE]")]));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn aicore_num_against_a_soc_ini() {
    let dir = tempfile::tempdir().unwrap();
    let ini = dir.path().join("Ascend910B3.ini");
    std::fs::write(
        &ini,
        "[SoCInfo]\nai_core_cnt=20\ncube_core_cnt=20\nvector_core_cnt=40\n",
    )
    .unwrap();
    let ini = ini.display().to_string();
    let (_d, ok) = write_tmp(
        "ok.yaml",
        b"product: atlas-a2-training\nnpu_run_config:\n  aicore_num: \"20|40\"\n",
    );
    assert_eq!(
        cannctl(&["check", &ok, "--soc-ini", &ini]).status.code(),
        Some(0)
    );
    let (_d2, big) = write_tmp(
        "big.yaml",
        b"product: atlas-a2-training\nnpu_run_config:\n  aicore_num: \"24|48\"\n",
    );
    let o = cannctl(&["check", &big, "--soc-ini", &ini]);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!(
        "aicore_num_over_soc_ini",
        transcript(&o, &[(&big, "[FILE]")])
    );
    let (_d3, bad) = write_tmp("bad.ini", b"[SoCInfo]\ncube_core_cnt=0\n");
    assert_eq!(
        cannctl(&["check", &ok, "--soc-ini", &bad]).status.code(),
        Some(2)
    );
}

#[test]
fn cache_info_follows_a_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("job_cache");
    std::fs::create_dir_all(cache.join("kernel_cache")).unwrap();
    let cfg = dir.path().join("job.yaml");
    std::fs::write(
        &cfg,
        format!(
            "npu_run_config:\n  op_compiler_cache_dir: {}\nenv:\n  ASCEND_MAX_OP_CACHE_SIZE: 1234\n  ASCEND_REMAIN_CACHE_SIZE_RATIO: 70\n",
            cache.display()
        ),
    )
    .unwrap();
    let o = cannctl(&[
        "cache",
        "info",
        "--config",
        &cfg.display().to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let dir_text = dir.path().display().to_string();
    insta::assert_snapshot!(
        "cache_info_of_config",
        transcript(&o, &[(&dir_text, "[DIR]")])
    );
}

#[test]
fn parse_findings_in_chinese() {
    let o = cannctl(&["check", "examples/mistakes.yaml", "--lang", "zh"]);
    insta::assert_snapshot!("check_parse_findings_zh", transcript(&o, &[]));
}

/// A generated one-line JSON config with thousands of unknown keys: the human output
/// draws a window of the line for each of the first findings and counts the rest; the
/// JSON report keeps every finding.
#[test]
fn a_flood_of_findings_is_capped_in_human_output_only() {
    let keys: Vec<String> = (0..5000).map(|i| format!("\"bogus_{i:04}\": 1")).collect();
    let text = format!(
        "{{\"product\": \"atlas-a2-training\", \"npu_run_config\": {{{}}}}}\n",
        keys.join(", ")
    );
    let (_d, p) = write_tmp("flood.json", text.as_bytes());
    let o = cannctl(&["check", &p]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.len() < 200_000, "{} bytes of output", out.len());
    assert_eq!(out.matches("error: unknown option").count(), 100);
    // How the output ends: the last finding drawn, and the count of the rest.
    let tail: Vec<&str> = out.lines().rev().take(12).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    insta::assert_snapshot!("flood_tail", tail.join("\n").replace(&p, "[FILE]"));
    let o = cannctl(&["check", &p, "--max-findings", "3"]);
    assert_eq!(stdout(&o).matches("error: unknown option").count(), 3);
    let o = cannctl(&["check", &p, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Every finding, and the note counting the keys past the first 1,000 left without a
    // did-you-mean hint (issue 31 item 8).
    assert_eq!(v["diagnostics"].as_array().map(Vec::len), Some(5001));
    assert_eq!(v["diagnostics"][5000]["severity"], "note");
}

/// Suggestions are worked out only for the first unknown keys of a file: those are the
/// findings `check` shows, and each shown one keeps its hint.
#[test]
fn the_findings_shown_of_a_flood_keep_their_hints() {
    let mut keys = vec!["\"op_compiler_cache_mod\": \"enable\"".to_string()];
    keys.extend((0..3000).map(|i| format!("\"bogus_{i:04}\": 1")));
    let text = format!(
        "{{\"product\": \"atlas-a2-training\", \"npu_run_config\": {{{}}}}}\n",
        keys.join(", ")
    );
    let (_d, p) = write_tmp("flood.json", text.as_bytes());
    let o = cannctl(&["check", &p]);
    let out = stdout(&o);
    assert_eq!(out.matches("error: unknown option").count(), 100);
    assert_eq!(out.matches("one of `").count(), 100, "{out}");
    // How the output begins: the first finding with its hint, "did you mean
    // `op_compiler_cache_mode`?".
    let head: Vec<&str> = out.lines().take(12).collect();
    insta::assert_snapshot!("flood_hints_head", head.join("\n").replace(&p, "[FILE]"));
    // No cap (`--max-findings 0`): how the output ends, the note "2001 more unknown keys
    // have no did-you-mean hint" and the summary.
    let o = cannctl(&["check", &p, "--max-findings", "0"]);
    let out = stdout(&o);
    let tail: Vec<&str> = out.lines().rev().take(5).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    insta::assert_snapshot!(
        "flood_hints_uncapped_tail",
        tail.join("\n").replace(&p, "[FILE]")
    );
}

#[test]
fn mem_plan_flags_reports_and_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    // MiniMalloc's header form; `end` is inclusive there.
    let csv = dir.path().join("mm.csv");
    std::fs::write(
        &csv,
        "buffer,start,end,size\nb1,0,2,4\nb2,3,8,4\nb3,0,8,4\n",
    )
    .unwrap();
    let path = csv.display().to_string();
    let dir_text = dir.path().display().to_string();
    let args = [
        "mem",
        "plan",
        "--buffers",
        &path,
        "--time-limit",
        "1",
        "--threads",
        "2",
        "--seed",
        "7",
    ];
    let o = cannctl(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["arena_bytes"], 8);
    assert_eq!(v["lower_bound_bytes"], 8);
    assert_eq!(v["proven_optimal"], true);
    assert_eq!(v["policies"][0]["proven_optimal"], true);
    let o = cannctl(&args);
    insta::assert_snapshot!("mem_plan", transcript(&o, &[(&dir_text, "[DIR]")]));
    let o = cannctl(&[&args[..], &["--lang", "zh"]].concat());
    insta::assert_snapshot!("mem_plan_zh", transcript(&o, &[(&dir_text, "[DIR]")]));
    // A size near 2^64 is an input error naming its line, exit 2.
    std::fs::write(
        &csv,
        "id,lower,upper,size\na,0,1,1\nb,0,1,18446744073709551615\n",
    )
    .unwrap();
    let o = cannctl(&["mem", "plan", "--buffers", &path]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!(
        "mem_plan_huge_size",
        transcript(&o, &[(&dir_text, "[DIR]")])
    );
    let o = cannctl(&["mem", "plan", "--buffers", &path, "--time-limit", "0"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!(
        "mem_plan_bad_time_limit",
        transcript(&o, &[(&dir_text, "[DIR]")])
    );
}

/// `explain` without `--release` shows the newest release and says so; with it, the facts of
/// that release: an option not read yet says from when it is, and values that only some
/// products take name them.
#[test]
fn explain_by_release() {
    let o = cannctl(&["explain", "static_memory_policy"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("explain_newest", stdout(&o));
    let o = cannctl(&["explain", "variable_use_1g_huge_page", "--release", "8.0.0"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("explain_not_read_yet", stdout(&o));
    let o = cannctl(&["explain", "precision_mode", "--release", "8.0.RC2"]);
    insta::assert_snapshot!("explain_precision_mode_8.0.RC2", transcript(&o, &[]));
    let o = cannctl(&[
        "explain",
        "precision_mode",
        "--release",
        "8.0.RC2",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["release"], "8.0.RC2");
    let bf16 = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["value"] == "\"allow_mix_precision_bf16\"")
        .unwrap();
    assert_eq!(bf16["own_products"], true);
    assert_eq!(
        bf16["products"],
        serde_json::json!(["atlas-a2-training", "atlas-a2-inference"])
    );
    let o = cannctl(&["explain", "static_memory_policy", "--release", "7.0.0"]);
    assert_eq!(o.status.code(), Some(2));
    insta::assert_snapshot!("explain_unknown_release", transcript(&o, &[]));
}

/// Users look an option up by whatever their code or log shows.
#[test]
fn explain_finds_every_name_users_know() {
    for (query, path) in [
        (
            "ge.exec.staticMemoryPolicy",
            "npu_run_config.memory_config.static_memory_policy",
        ),
        (
            "memory_config.static_memory_policy",
            "npu_run_config.memory_config.static_memory_policy",
        ),
        (
            "npu.global_options().memory_config.static_memory_policy",
            "npu_run_config.memory_config.static_memory_policy",
        ),
        (
            "GE.EXEC.STATICMEMORYPOLICY",
            "npu_run_config.memory_config.static_memory_policy",
        ),
        ("HCCL_algorithm", "npu_run_config.hccl_algorithm"),
        (
            "custom_op.parameter_map[\"HCCL_algorithm\"].s",
            "npu_run_config.hccl_algorithm",
        ),
        (
            "NPURunConfig(HCCL_algorithm=...)",
            "npu_run_config.hccl_algorithm",
        ),
        (
            "dump_config.enable_dump",
            "npu_run_config.dump_config.enable_dump",
        ),
        ("ASCEND_CACHE_PATH", "env.ASCEND_CACHE_PATH"),
        ("export ASCEND_CACHE_PATH=/tmp", "env.ASCEND_CACHE_PATH"),
        // A spelling the adapter stopped reading still finds its option.
        ("auto_tune_mode", "npu_run_config.auto_tune_mode"),
    ] {
        let o = cannctl(&["explain", query, "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{query}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["path"], path, "{query}");
    }
}
