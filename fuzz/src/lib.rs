//! The entry function of every fuzz target. Each takes the raw bytes a user could hand
//! the tool, runs the real reader on them, and panics only when a promise is broken:
//! a panic, a hang or a crash inside a reader, or an output that does not read back
//! (emitted Python that does not parse, JSON that does not load, shell that is not valid,
//! a memory plan that fails its own check).
//!
//! The fuzz binaries (`fuzz_targets/*.rs`) call these; so does the workspace test
//! `tests/tests/fuzz_corpus.rs`, which includes this file as a module and replays
//! `fuzz/corpus/<target>/` on stable. Keep it free of `crate::` paths for that reason.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use cann_config::emit::{emit_for, Format};
use cann_config::{Product, Release, Target};
use cann_memsim::{self as memsim, ImportOptions, MemsimError};
use cann_runtime::cache::ini::{IniDoc, KEY_MAX_SIZE, SECTION};
use cann_runtime::cache::manifest::Manifest;
use cann_runtime::cache::{EnvSnapshot, Limits};
use cann_runtime::memory::{AtomicCleanPolicy, GrowthMode};

/// Inputs are text to every reader but the pickle one; the input layer refuses other bytes
/// before any parser sees them.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// The bundled spec, file by file, read once.
static SPEC: LazyLock<Vec<cann_spec::SourceFile>> = LazyLock::new(|| {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let mut files = Vec::new();
    let mut add = |p: PathBuf| {
        if let Ok(text) = std::fs::read_to_string(&p) {
            let rel = p.strip_prefix(&dir).map(Path::to_path_buf).unwrap_or(p);
            files.push(cann_spec::SourceFile { path: rel, text });
        }
    };
    for n in [
        "products.yaml",
        "releases.yaml",
        "rules.yaml",
        "files.yaml",
        "env.yaml",
    ] {
        add(dir.join(n));
    }
    if let Ok(rd) = std::fs::read_dir(dir.join("options")) {
        let mut opts: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        opts.sort();
        opts.into_iter().for_each(&mut add);
    }
    files
});

/// Spec loader: the first line names a spec file (`options/memory.yaml`), the rest
/// replaces it in the bundled spec (or is added as a new options file), and the whole
/// spec is loaded, so cross-file checks run against real neighbours.
pub fn spec(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let (name, body) = t.split_once('\n').unwrap_or((t, ""));
    let name = PathBuf::from(name.trim());
    let mut files: Vec<cann_spec::SourceFile> = SPEC.clone();
    let new = cann_spec::SourceFile {
        path: name.clone(),
        text: body.to_owned(),
    };
    match files.iter_mut().find(|f| f.path == name) {
        Some(f) => *f = new,
        None => files.push(new),
    }
    if let Err(errs) = cann_spec::load_files(&files) {
        // Every finding names a file of the input.
        for d in &errs.0 {
            assert!(
                files.iter().any(|f| f.path == d.loc.file),
                "finding on a file not loaded: {d:?}"
            );
        }
    }
}

/// Config parser and validator: every finding placed inside the file.
pub fn config(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(file) = cann_config::parse_config(t) else {
        return;
    };
    // Lines as Python and editors count them: `\r\n`, `\n` and a lone `\r` each end one
    // (lint reports the line numbers an editor shows; `str::lines` ignores a lone `\r`).
    let lines = (t.replace("\r\n", "\n").matches(['\n', '\r']).count() + 1) as u32;
    let product = file.product.unwrap_or(Product::ALL[0]);
    for release in [file.release.unwrap_or(Release::LATEST), Release::ALL[0]] {
        let report = cann_config::validate(&file.config, Target { product, release });
        for mut d in report
            .diagnostics
            .into_iter()
            .chain(file.diagnostics.clone())
        {
            file.locate(&mut d);
            if let Some(l) = d.line {
                assert!(l >= 1 && l <= lines + 1, "line {l} of {lines}: {d:?}");
            }
        }
    }
}

/// Every emitter on every parsed config: Python parses, JSON loads (and the config JSON
/// reads back as the same config), environment lines are valid shell.
pub fn emit(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(file) = cann_config::parse_config(t) else {
        return;
    };
    let release = file.release.unwrap_or(Release::LATEST);
    for &(name, format) in Format::ALL {
        // A value no target can carry (a NUL, a required argument unset) is refused with
        // the option named; what is emitted must read back.
        let out = match emit_for(&file.config, format, release) {
            Ok(out) => out,
            Err(errs) => {
                assert!(!errs.is_empty(), "{name}: refused without a reason");
                continue;
            }
        };
        match format {
            Format::Ge => {
                let v: Result<serde_json::Value, _> = serde_json::from_str(&out);
                assert!(v.is_ok(), "ge output is not JSON: {out}");
            }
            Format::Json => {
                let back = cann_config::parse_config(&out);
                match back {
                    Ok(b) => assert_eq!(
                        b.config, file.config,
                        "json output reads back differently: {out}"
                    ),
                    Err(e) => panic!("json output does not parse: {e:?}\n{out}"),
                }
            }
            Format::Estimator | Format::Session | Format::Tf2 => {
                if let Some(err) = python_error(&out) {
                    panic!("{name} output is not Python ({err}):\n{out}");
                }
            }
            Format::Env => {
                for line in out.lines() {
                    if let Err(e) = export_line(line) {
                        panic!("env output line is not valid shell ({e}): {line:?}");
                    }
                }
            }
        }
    }
}

/// Where tree-sitter's Python grammar finds an error in `src`, if anywhere.
pub fn python_error(src: &str) -> Option<String> {
    let mut p = tree_sitter::Parser::new();
    if p.set_language(&tree_sitter_python::LANGUAGE.into())
        .is_err()
    {
        return Some("the Python grammar does not load".into());
    }
    let tree = p.parse(src, None)?;
    let root = tree.root_node();
    if !root.has_error() {
        return None;
    }
    let mut c = root.walk();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            let at = n.start_position();
            return Some(format!("{} at {}:{}", n.kind(), at.row + 1, at.column + 1));
        }
        stack.extend(n.children(&mut c));
    }
    Some("syntax error".into())
}

/// Checks `export NAME=WORD` against POSIX shell rules: NAME is a name, WORD is one word
/// made of plain characters that nothing expands and single-quoted runs (`'\''` for a
/// quote), and holds no NUL (which no shell variable can). Returns the decoded value.
pub fn export_line(line: &str) -> Result<String, String> {
    let rest = line.strip_prefix("export ").ok_or("no `export `")?;
    let (name, word) = rest.split_once('=').ok_or("no `=`")?;
    let mut chars = name.chars();
    let name_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !name_ok {
        return Err(format!("`{name}` is not a shell name"));
    }
    let mut value = String::new();
    let mut it = word.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\'' => loop {
                match it.next() {
                    Some('\'') => break,
                    Some(c) => value.push(c),
                    None => return Err("unterminated single quote".into()),
                }
            },
            '\\' => match it.next() {
                Some('\'') => value.push('\''),
                other => return Err(format!("backslash before {other:?}")),
            },
            c if c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c) => value.push(c),
            c => return Err(format!("unquoted {c:?} would be interpreted by the shell")),
        }
    }
    if value.contains('\0') {
        return Err("a NUL byte cannot be in a shell variable".into());
    }
    Ok(value)
}

/// op_cache.ini reader: what is read is written back byte for byte, a value set reads
/// back, and resolving limits from any file works.
pub fn op_cache_ini(data: &[u8]) {
    // The reader replaces invalid UTF-8, as the cache does.
    let t = String::from_utf8_lossy(data);
    let doc = IniDoc::parse(&t);
    assert_eq!(doc.render(), t, "the ini file is not written back as read");
    let _ = Limits::resolve(
        Some((PathBuf::from("op_cache.ini"), &doc)),
        &EnvSnapshot::empty(),
    );
    let mut edited = doc;
    edited.set(SECTION, KEY_MAX_SIZE, "2048");
    let again = IniDoc::parse(&edited.render());
    assert_eq!(
        again.get(SECTION, KEY_MAX_SIZE),
        Some("2048"),
        "a value set does not read back:\n{}",
        edited.render()
    );
}

/// Cache manifest reader: names it hands back never leave the directory.
pub fn cache_manifest(data: &[u8]) {
    let Ok(m) = Manifest::parse(data) else { return };
    let plain = |n: &str| !n.is_empty() && n != "." && n != ".." && !n.contains(['/', '\0']);
    if let Ok(Some(n)) = m.bin_name() {
        assert!(plain(&n), "binary name {n:?} leaves the directory");
    }
    if let Ok(subs) = m.sub_manifests() {
        for n in subs {
            assert!(plain(&n), "sub-manifest name {n:?} leaves the directory");
        }
    }
}

/// A trace that loaded is replayed under every policy; the engine may refuse an event
/// (an input error) but must not fail otherwise.
fn replay_all(trace: &memsim::Trace) {
    for atomic in [AtomicCleanPolicy::Centralized, AtomicCleanPolicy::Separate] {
        match memsim::compare(trace, atomic, GrowthMode::Documented) {
            Ok(_) | Err(MemsimError::Input { .. } | MemsimError::Replay { .. }) => {}
            Err(e) => panic!("replay failed on a loaded trace: {e}"),
        }
    }
}

/// JSONL trace reader, then replay.
pub fn trace_jsonl(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(trace) = memsim::parse_jsonl("fuzz.jsonl", t) {
        replay_all(&trace);
    }
}

/// torch memory snapshot, pickle form, then replay.
pub fn trace_pickle(data: &[u8]) {
    // The decoder places every refusal inside the input.
    if let Err(e) = memsim::pickle::decode(data) {
        assert!(e.offset <= data.len() as u64, "{e} is past the end");
    }
    if let Ok((trace, _)) = memsim::import_snapshot("fuzz.pickle", data, ImportOptions::default()) {
        replay_all(&trace);
    }
}

/// torch memory snapshot, JSON form, then replay.
pub fn trace_torch_json(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok((trace, _)) =
        memsim::import_snapshot("fuzz.json", t.as_bytes(), ImportOptions::default())
    {
        replay_all(&trace);
    }
}

/// Buffer CSV reader and static planner: a plan is found for every list that reads, it
/// passes its own check, and it is no smaller than the lower bound.
pub fn buffer_csv(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(bufs) = memsim::parse_csv("fuzz.csv", t) else {
        return;
    };
    match memsim::plan(&bufs) {
        Ok(p) => {
            assert!(p.arena >= p.load, "arena {} below LOAD {}", p.arena, p.load);
            if let Err(e) = memsim::verify(&bufs, &p.offsets, p.arena) {
                panic!("plan fails its own check: {e}");
            }
        }
        Err(MemsimError::Input { .. }) => {}
        Err(e) => panic!("planning a list that read failed with a non-input error: {e}"),
    }
}

/// Lint extractor: every finding placed inside the script.
pub fn lint(data: &[u8]) {
    // Lint reads scripts lossily (Python 2-era Latin-1 still lints).
    let t = String::from_utf8_lossy(data);
    let Ok(r) = cann_lint::lint_source(&t, &cann_lint::LintOptions::default()) else {
        return;
    };
    // Lines as Python and editors count them: `\r\n`, `\n` and a lone `\r` each end one
    // (lint reports the line numbers an editor shows; `str::lines` ignores a lone `\r`).
    let lines = (t.replace("\r\n", "\n").matches(['\n', '\r']).count() + 1) as u32;
    for f in &r.findings {
        assert!(
            f.line() >= 1 && f.line() <= lines + 1,
            "finding at line {} of {lines}: {f:?}",
            f.line()
        );
    }
}

/// The language server's document-change path: random incremental edits (UTF-16 ranges,
/// possibly reversed or past the end, text cut anywhere), each followed by diagnostics,
/// hover and completion at the edit's place. Nothing may panic.
pub fn lsp_document(data: &[u8]) {
    cann_lsp::fuzzing::document_changes(data);
}
