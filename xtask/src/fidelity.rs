//! `cargo xtask fidelity --upstream DIR --ge DIR [--check]`: reads a checkout of the TF
//! Adapter (hicann/tensorflow) and of the graph engine (hicann/ge, for the values of its
//! `ge::` key constants) and writes the facts the spec must agree with to
//! `spec/fidelity/upstream.json`: constructor signatures, the TF2 option tree, the accessor
//! of every session key the adapter reads, the session keys NPUEstimator writes, and the
//! graph-engine keys of each option. The file is our own derived data (names, defaults,
//! values), never upstream text. `crates/cann-config/tests/fidelity.rs` compares the spec
//! with it; `--check` fails when the committed file differs from what the checkout gives.

pub(crate) mod cc;
pub(crate) mod py;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::ensure::{ensure_file_contents, Outcome};

/// Where the facts go, relative to the workspace root.
pub const FACTS: &str = "spec/fidelity/upstream.json";

pub(crate) const NPU_CONFIG: &str = "tf_adapter/python/npu_bridge/estimator/npu/npu_config.py";
pub(crate) const NPU_ESTIMATOR: &str =
    "tf_adapter/python/npu_bridge/estimator/npu/npu_estimator.py";
pub(crate) const TF2_CONFIGS: &str = "tf_adapter_2.x/python/npu_device/configs";
pub(crate) const TF2_ROOT: &str = "NpuConfig";
pub(crate) const NPU_ATTRS: &str = "tf_adapter/util/npu_attrs.cc";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("usage: cargo xtask fidelity --upstream <hicann/tensorflow checkout> --ge <hicann/ge checkout> [--check]")]
    Usage,
    #[error("cannot read {0}: {1}")]
    Read(PathBuf, std::io::Error),
    #[error("{0}: {1}")]
    Parse(String, String),
    #[error("the checkout has no {0}")]
    Missing(String),
    #[error("bad pattern: {0}")]
    Pattern(String),
    #[error("{0} is not a git checkout (`git rev-parse HEAD` failed); check out the pinned commit there")]
    NotGit(PathBuf),
    #[error("graph-engine key constants not defined in the --ge headers: {0}")]
    Unresolved(String),
    #[error("{} differs from what the checkouts give: run `cargo xtask fidelity --upstream DIR --ge DIR`, then read the diff and the fidelity test", .0.display())]
    Stale(PathBuf),
    #[error(transparent)]
    Ensure(#[from] crate::ensure::Error),
}

fn read(path: &Path) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::Read(path.to_path_buf(), e))
}

fn head(dir: &Path) -> Result<String, Error> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "HEAD"])
        .output()
        .map_err(|_| Error::NotGit(dir.to_path_buf()))?;
    if !out.status.success() {
        return Err(Error::NotGit(dir.to_path_buf()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Files below `dir` (recursively) whose name satisfies `keep`, sorted.
fn files(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::Read(d.clone(), e))?;
        for e in entries.flatten() {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(keep) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn set(s: &std::collections::BTreeSet<String>) -> Value {
    Value::Array(s.iter().map(|x| Value::from(x.as_str())).collect())
}

/// The facts of a checkout, as the JSON text committed in [`FACTS`].
pub fn facts(upstream: &Path, ge: &Path) -> Result<String, Error> {
    let src = |rel: &str| -> Result<py::Source, Error> {
        py::Source::parse(rel.to_string(), read(&upstream.join(rel))?)
    };
    let constructors = py::constructors(&src(NPU_CONFIG)?);

    let mut tf2_classes = BTreeMap::new();
    for p in files(&upstream.join(TF2_CONFIGS), &|n| n.ends_with(".py"))? {
        let rel = p.strip_prefix(upstream).unwrap_or(&p).display().to_string();
        tf2_classes.extend(py::tf2_classes(&py::Source::parse(rel, read(&p)?)?));
    }
    let tf2 = py::tf2_paths(&tf2_classes, TF2_ROOT)?;

    let attrs = read(&upstream.join(NPU_ATTRS))?;
    let session = cc::session_accessors(&attrs)?;
    let headers = files(&ge.join("inc"), &|n| n.ends_with("api_types.h"))?
        .iter()
        .map(|p| read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let constants = cc::ge_constants(&headers)?;
    let ge_keys = cc::ge_keys(&attrs, &constants)?;
    if !ge_keys.unresolved.is_empty() {
        let names: Vec<&str> = ge_keys.unresolved.iter().map(String::as_str).collect();
        return Err(Error::Unresolved(names.join(", ")));
    }
    let estimator_writes = cc::parameter_map_writes(&read(&upstream.join(NPU_ESTIMATOR))?)?;

    let doc = json!({
        "$comment": "generated by `cargo xtask fidelity --upstream DIR --ge DIR`: names, defaults, values and keys read from the checkouts; compared with the spec by crates/cann-config/tests/fidelity.rs",
        "upstream": {
            "tensorflow": head(upstream)?,
            "ge": head(ge)?,
        },
        "sources": {
            "constructors": NPU_CONFIG,
            "tf2": TF2_CONFIGS,
            "session": NPU_ATTRS,
            "ge_keys": NPU_ATTRS,
            "estimator_writes": NPU_ESTIMATOR,
        },
        "constructors": constructors,
        "tf2": tf2,
        "session": session.iter().map(|(k, v)| (k.clone(), set(v))).collect::<serde_json::Map<_, _>>(),
        "ge_keys": ge_keys.keys.iter().map(|(k, v)| (k.clone(), set(v))).collect::<serde_json::Map<_, _>>(),
        "estimator_writes": estimator_writes.iter().map(|(k, v)| (k.clone(), set(v))).collect::<serde_json::Map<_, _>>(),
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    Ok(text)
}

pub fn run(raw: &[String]) -> Result<(), Error> {
    let a = crate::flags::two_dirs(raw, "--upstream", "--ge").ok_or(Error::Usage)?;
    let [upstream, ge] = &a.dirs;
    let text = facts(upstream, ge)?;
    let path = crate::workspace_root().join(FACTS);
    match ensure_file_contents(&path, &text, a.mode)? {
        Outcome::Stale => Err(Error::Stale(path)),
        Outcome::Written => {
            eprintln!("wrote {}", path.display());
            Ok(())
        }
        Outcome::Fresh => Ok(()),
    }
}
