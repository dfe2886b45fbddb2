//! Replays every fuzz target's committed corpus (`fuzz/corpus/<target>/`) through the same
//! entry functions the cargo-fuzz binaries call, on stable, so CI runs them with
//! `cargo test`. A panic names the corpus file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../fuzz/src/lib.rs"]
mod targets;

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no corpus", dir.display());
    files
}

fn replay(target: &str, run: fn(&[u8])) {
    for p in corpus(target) {
        let data = std::fs::read(&p).unwrap();
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            panic!("fuzz target `{target}` fails on {}", p.display());
        }
    }
}

#[test]
fn spec() {
    replay("spec", targets::spec);
}

#[test]
fn lsp_document() {
    replay("lsp_document", targets::lsp_document);
}

#[test]
fn config() {
    replay("config", targets::config);
}

#[test]
fn emit() {
    replay("emit", targets::emit);
}

#[test]
fn op_cache_ini() {
    replay("op_cache_ini", targets::op_cache_ini);
}

#[test]
fn cache_manifest() {
    replay("cache_manifest", targets::cache_manifest);
}

#[test]
fn trace_jsonl() {
    replay("trace_jsonl", targets::trace_jsonl);
}

#[test]
fn trace_pickle() {
    replay("trace_pickle", targets::trace_pickle);
}

#[test]
fn trace_torch_json() {
    replay("trace_torch_json", targets::trace_torch_json);
}

#[test]
fn buffer_csv() {
    replay("buffer_csv", targets::buffer_csv);
}

#[test]
fn lint() {
    replay("lint", targets::lint);
}

/// The fuzz target's shell model checked against a real shell: every `export` line of
/// every emit-corpus config, run by /bin/sh, sets the value the model decodes.
#[test]
fn env_output_means_the_same_to_a_real_shell() {
    let mut checked = 0;
    for p in corpus("emit") {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        let Ok(file) = cann_config::parse_config(&text) else {
            continue;
        };
        let Ok(out) = cann_config::emit::emit(&file.config, cann_config::emit::Format::Env) else {
            continue;
        };
        let mut script = out.clone();
        let mut want = Vec::new();
        for line in out.lines() {
            let value = targets::export_line(line).unwrap();
            let name = &line["export ".len()..line.find('=').unwrap()];
            script.push_str(&format!("printf '%s\\0' \"${name}\"\n"));
            want.push(value);
        }
        if want.is_empty() {
            continue;
        }
        let o = Command::new("/bin/sh")
            .arg("-c")
            .arg(&script)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}: {script}", p.display());
        let got: Vec<String> = String::from_utf8(o.stdout)
            .unwrap()
            .split_terminator('\0')
            .map(str::to_owned)
            .collect();
        assert_eq!(got, want, "{}", p.display());
        checked += 1;
    }
    assert!(
        checked > 0,
        "no emit corpus file sets an environment variable"
    );
}
