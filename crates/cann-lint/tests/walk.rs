//! Finding scripts: .gitignore, hidden directories, explicit paths, unreadable files.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::PathBuf;

use cann_lint::{lint_paths, LintError, LintOptions};

const BAD: &str =
    "import npu_device as npu\nnpu.global_options().memory_config.static_memory_policy = 9\n";

#[test]
fn walks_python_files_honouring_gitignore_and_skipping_hidden_ones() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // The walker reads .gitignore inside a git repository only, as git does.
    fs::create_dir(root.join(".git")).unwrap();
    fs::write(root.join(".gitignore"), "build/\n").unwrap();
    for d in ["src/models", "build", ".venv/lib"] {
        fs::create_dir_all(root.join(d)).unwrap();
    }
    fs::write(root.join("src/models/train.py"), BAD).unwrap();
    fs::write(root.join("src/models/data.py"), "import os\n").unwrap();
    fs::write(root.join("build/train.py"), BAD).unwrap();
    fs::write(root.join(".venv/lib/site.py"), BAD).unwrap();
    fs::write(root.join("src/notes.txt"), BAD).unwrap();
    let out = lint_paths(&[root.to_path_buf()], &LintOptions::default()).unwrap();
    assert_eq!(out.scanned, 2);
    assert_eq!(out.parsed, 1);
    let files: Vec<PathBuf> = out.files.iter().map(|f| f.path.clone()).collect();
    assert_eq!(files, vec![root.join("src/models/train.py")]);
    assert!(out.unreadable.is_empty());

    // A file named on the command line is linted whatever its name and ignore status.
    let out = lint_paths(
        &[root.join("build/train.py"), root.join("src/notes.txt")],
        &LintOptions::default(),
    )
    .unwrap();
    assert_eq!(out.files.len(), 2);
}

#[test]
fn a_missing_path_is_an_input_error() {
    let e = lint_paths(&[PathBuf::from("/no/such/dir")], &LintOptions::default()).unwrap_err();
    assert!(matches!(e, LintError::Path { .. }), "{e}");
}

#[test]
fn an_oversized_file_is_listed_and_the_rest_still_linted() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.py"), BAD).unwrap();
    // Sparse: costs no disk, but its length is past the limit.
    let big = fs::File::create(dir.path().join("huge.py")).unwrap();
    big.set_len(64 * 1024 * 1024).unwrap();
    let out = lint_paths(&[dir.path().to_path_buf()], &LintOptions::default()).unwrap();
    assert_eq!(out.files.len(), 1);
    assert_eq!(out.unreadable.len(), 1);
    assert!(out.unreadable[0].path.ends_with("huge.py"));
}

#[test]
fn latin1_bytes_do_not_stop_a_python2_script() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"# -*- coding: latin-1 -*-\n# caf\xe9\n".to_vec();
    bytes.extend_from_slice(b"custom_op.parameter_map[\"static_memory_policy\"].i = 9\n");
    fs::write(dir.path().join("old.py"), bytes).unwrap();
    let out = lint_paths(&[dir.path().to_path_buf()], &LintOptions::default()).unwrap();
    let f = &out.files[0].findings[0];
    assert_eq!((f.line(), f.column()), (3, 53));
}
