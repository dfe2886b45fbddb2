//! `cargo xtask fidelity [--mirrors DIR] [--check]`: reads, from the upstream git mirrors
//! (`DIR/hicann+tensorflow/repo`, `DIR/hicann+ge/repo`; `CANN_MIRRORS` when `--mirrors` is
//! not given; no work tree needed), the facts of every release whose `refs:` in
//! `spec/releases.yaml` name the adapter (9.0.0: its tags; `next`: the pinned master
//! commits), writes them to `spec/fidelity/upstream.json`, and compares each release's
//! facts with the spec in that release: constructor signatures and defaults, the TF2 option
//! tree with its defaults and values, the session keys `npu_attrs.cc` reads and their
//! accessors, the graph-engine keys, the `ge.*` keys the graph engine names, the bounds the
//! code puts on values ([`ranges`]: the adapter's C++ and `check_*` calls, the
//! `tf.estimator.RunConfig` NPURunConfig extends, read at `tensorflow/estimator`
//! [`ESTIMATOR_REF`], and the graph engine's conversions) and what the spec retires.
//! It prints the facts compared per kind and each disagreement with both sources, and fails
//! on any that `spec/fidelity/exceptions.yaml` does not explain (or on an exception that
//! matches nothing). The file is our own derived data (names, defaults, values, keys),
//! never upstream text; `crates/cann-config/tests/fidelity.rs` runs the same comparison on
//! it without the mirrors.

pub(crate) mod cc;
pub(crate) mod py;
pub(crate) mod ranges;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::ensure::{ensure_file_contents, Mode, Outcome};

/// Where the facts go, relative to the workspace root.
pub const FACTS: &str = "spec/fidelity/upstream.json";
/// The deliberate differences, relative to the workspace root.
pub const EXCEPTIONS: &str = "spec/fidelity/exceptions.yaml";

pub(crate) const NPU_CONFIG: &str = "tf_adapter/python/npu_bridge/estimator/npu/npu_config.py";
pub(crate) const NPU_ESTIMATOR: &str =
    "tf_adapter/python/npu_bridge/estimator/npu/npu_estimator.py";
pub(crate) const TF2_CONFIGS: &str = "tf_adapter_2.x/python/npu_device/configs";
pub(crate) const TF2_ROOT: &str = "NpuConfig";
pub(crate) const NPU_ATTRS: &str = "tf_adapter/util/npu_attrs.cc";
/// The graph passes and GeOp, which read some session keys again from their own options.
const PASSES: &[&str] = &[
    "tf_adapter/optimizers/om_partition_subgraphs_pass.cc",
    "tf_adapter/kernels/geop_npu.cc",
];
const RUN_CONFIG: &str = "tensorflow_estimator/python/estimator/run_config.py";

const ADAPTER: &str = "hicann/tensorflow";
const GE: &str = "hicann/ge";
/// NPURunConfig is a `tf.estimator.RunConfig`, which checks the keywords it passes on. The
/// adapter's TF1 side is built for TensorFlow 1.15.0 (`configure.py:28`,
/// `_COMPAT_TENSORFLOW_VERSION`, at both refs), whose estimator is this tag.
const ESTIMATOR: &str = "tensorflow/estimator";
const ESTIMATOR_REF: &str = "v1.15.0";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("usage: cargo xtask fidelity [--mirrors DIR] [--check]")]
    Usage,
    #[error("no upstream mirrors: nothing was compared. {0}\nGive --mirrors DIR or set CANN_MIRRORS=DIR, a directory holding hicann+tensorflow/repo, hicann+ge/repo and tensorflow+estimator/repo (bare git mirrors; the `fetch` tool brings them), e.g. CANN_MIRRORS=/work/.mirror cargo xtask fidelity")]
    NoMirrors(String),
    #[error("{0}: {1}")]
    Parse(String, String),
    #[error("the mirror has no {0}")]
    Missing(String),
    #[error("bad pattern: {0}")]
    Pattern(String),
    #[error("git -C {0} {1}: {2}")]
    Git(PathBuf, String, String),
    #[error("graph-engine key constants not defined in the graph engine's headers: {0}")]
    Unresolved(String),
    #[error("the spec: {0}")]
    Spec(String),
    #[error("{0}")]
    Exceptions(String),
    #[error("{} differs from what the mirrors give: run `cargo xtask fidelity`, then read the diff", .0.display())]
    Stale(PathBuf),
    #[error("{0} disagreements between the spec and the upstream code (listed above); fix the spec, or add a cited exception to {EXCEPTIONS}")]
    Disagree(usize),
    #[error("{0} exceptions in {EXCEPTIONS} match no disagreement (listed above): remove them")]
    StaleExceptions(usize),
    #[error(transparent)]
    Ensure(#[from] crate::ensure::Error),
}

/// A bare git mirror.
pub(crate) struct Git<'a> {
    pub dir: &'a Path,
}

impl Git<'_> {
    fn git(&self, args: &[&str]) -> Result<Option<String>, Error> {
        crate::git::output(self.dir, args)
            .map_err(|e| Error::Git(self.dir.to_path_buf(), args.join(" "), e.to_string()))
    }

    fn show(&self, rev: &str, path: &str) -> Result<String, Error> {
        self.git(&["show", &format!("{rev}:{path}")])?
            .ok_or_else(|| Error::Missing(format!("{path} at {rev}")))
    }

    fn files(
        &self,
        rev: &str,
        dir: &str,
        keep: &dyn Fn(&str) -> bool,
    ) -> Result<Vec<String>, Error> {
        let listing = self
            .git(&["ls-tree", "-r", "--name-only", rev, &format!("{dir}/")])?
            .ok_or_else(|| Error::Missing(format!("{dir} at {rev}")))?;
        Ok(listing
            .lines()
            .filter(|p| keep(p))
            .map(String::from)
            .collect())
    }

    fn commit(&self, rev: &str) -> Result<String, Error> {
        self.git(&["rev-parse", "--verify", &format!("{rev}^{{commit}}")])?
            .map(|s| s.trim().to_string())
            .ok_or_else(|| Error::Missing(format!("ref {rev}")))
    }

    fn is_tag(&self, rev: &str) -> Result<bool, Error> {
        Ok(self
            .git(&[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("refs/tags/{rev}"),
            ])?
            .is_some())
    }
}

fn set(s: &BTreeSet<String>) -> Value {
    Value::Array(s.iter().map(|x| Value::from(x.as_str())).collect())
}

fn map_of_sets(m: &BTreeMap<String, BTreeSet<String>>) -> Value {
    Value::Object(m.iter().map(|(k, v)| (k.clone(), set(v))).collect())
}

/// Adds each bound, cited at `at` (`owner/name@ref:path`), under the option it bounds.
fn bounds(at: &str, found: Vec<ranges::Bound>, out: &mut BTreeMap<String, Vec<Value>>) {
    for b in found {
        let mut v = json!({
            "min": b.min,
            "max": b.max,
            "at": format!("{at}:{}", b.line),
        });
        if b.above {
            v["above"] = json!(true);
        }
        out.entry(b.on).or_default().push(v);
    }
}

/// The ref a release is read at in one repository: its tag where `refs:` names one, else a
/// pinned commit, else a branch; `None` where `refs:` names the repository not at all.
fn pick(m: &Git<'_>, repo: &str, refs: &[String]) -> Result<Option<String>, Error> {
    let ours: Vec<&str> = refs
        .iter()
        .filter_map(|r| r.strip_prefix(repo)?.strip_prefix('@'))
        .collect();
    for r in &ours {
        if m.is_tag(r)? {
            return Ok(Some(r.to_string()));
        }
    }
    let hex = |r: &&&str| r.len() >= 7 && r.bytes().all(|b| b.is_ascii_hexdigit());
    Ok(ours
        .iter()
        .find(hex)
        .or(ours.first())
        .map(|r| r.to_string()))
}

/// The mirrors facts are read from.
struct Mirrors<'a> {
    adapter: Git<'a>,
    ge: Git<'a>,
    estimator: Git<'a>,
}

/// The bounds the code of one release puts on values: the adapter's C++ and Python at
/// `tf`, the estimator NPURunConfig extends, the graph engine at `ge_rev`.
fn bounds_at(
    m: &Mirrors<'_>,
    tf: &str,
    ge_rev: &str,
    constants: &BTreeMap<String, String>,
) -> Result<Value, Error> {
    let keys: BTreeSet<String> = cc::session_accessors(&m.adapter.show(tf, NPU_ATTRS)?)?
        .into_keys()
        .collect();
    let mut out = BTreeMap::new();
    let at = |repo: &str, rev: &str, path: &str| format!("{repo}@{rev}:{path}");
    for path in std::iter::once(NPU_ATTRS).chain(PASSES.iter().copied()) {
        let text = m.adapter.show(tf, path)?;
        let mut found = ranges::adapter_checks(&text, &keys)?;
        found.extend(ranges::clamped_pass_options(&text)?);
        bounds(&at(ADAPTER, tf, path), found, &mut out);
    }
    let config = m.adapter.show(tf, NPU_CONFIG)?;
    bounds(
        &at(ADAPTER, tf, NPU_CONFIG),
        ranges::python_checks(&config)?,
        &mut out,
    );
    let run_config = m.estimator.show(ESTIMATOR_REF, RUN_CONFIG)?;
    let found = ranges::run_config_checks(&run_config)?;
    bounds(&at(ESTIMATOR, ESTIMATOR_REF, RUN_CONFIG), found, &mut out);
    let listing =
        m.ge.git(&[
            "grep",
            "-l",
            "ConvertToInt32(",
            ge_rev,
            "--",
            "*.cc",
            "*.cpp",
        ])?
        .unwrap_or_default();
    for hit in listing.lines() {
        let path = hit.strip_prefix(&format!("{ge_rev}:")).unwrap_or(hit);
        if path
            .split('/')
            .any(|p| matches!(p, "tests" | "test" | "ut" | "st"))
        {
            continue;
        }
        let text = m.ge.show(ge_rev, path)?;
        let found = ranges::ge_int32_checks(&text, constants)?;
        bounds(&at(GE, ge_rev, path), found, &mut out);
    }
    Ok(json!(out))
}

/// The facts of one release: the adapter at `tf`, the graph engine at `ge`.
fn facts_at(m: &Mirrors<'_>, tf: &str, ge_rev: &str) -> Result<Value, Error> {
    let (adapter, ge) = (&m.adapter, &m.ge);
    let text = |path: &str| adapter.show(tf, path);
    let config = text(NPU_CONFIG)?;
    let constructors = py::constructors(&py::Source::parse(NPU_CONFIG.into(), config.clone())?);
    let mut tf2_classes = BTreeMap::new();
    for p in adapter.files(tf, TF2_CONFIGS, &|n| n.ends_with(".py"))? {
        let src = adapter.show(tf, &p)?;
        tf2_classes.extend(py::tf2_classes(&py::Source::parse(p, src)?));
    }
    let tf2 = py::tf2_paths(&tf2_classes, TF2_ROOT)?;
    let attrs = text(NPU_ATTRS)?;
    let session = cc::session_accessors(&attrs)?;
    let mut headers = Vec::new();
    for p in ge.files(ge_rev, "inc", &|n| n.ends_with("api_types.h"))? {
        headers.push(ge.show(ge_rev, &p)?);
    }
    let constants = cc::ge_constants(&headers)?;
    let ge_keys = cc::ge_keys(&attrs, &constants)?;
    if !ge_keys.unresolved.is_empty() {
        let names: Vec<&str> = ge_keys.unresolved.iter().map(String::as_str).collect();
        return Err(Error::Unresolved(names.join(", ")));
    }
    // Every `"ge.*"` literal of the engine's C++ (its option registry and checks included).
    let mut ge_known: BTreeSet<String> = constants
        .values()
        .filter(|v| v.starts_with("ge."))
        .cloned()
        .collect();
    let grep = ge
        .git(&[
            "grep",
            "-h",
            "-o",
            "-E",
            r#""ge\.[A-Za-z0-9_.]+""#,
            ge_rev,
            "--",
            "*.cc",
            "*.h",
            "*.cpp",
        ])?
        .unwrap_or_default();
    ge_known.extend(cc::ge_literals(&grep)?);
    let writes = cc::parameter_map_writes(&text(NPU_ESTIMATOR)?)?;
    let ranges = bounds_at(m, tf, ge_rev, &constants)?;
    Ok(json!({
        "upstream": {
            "tensorflow": { "repo": ADAPTER, "ref": tf, "commit": adapter.commit(tf)? },
            "ge": { "repo": GE, "ref": ge_rev, "commit": ge.commit(ge_rev)? },
            "estimator": {
                "repo": ESTIMATOR,
                "ref": ESTIMATOR_REF,
                "commit": m.estimator.commit(ESTIMATOR_REF)?,
            },
        },
        "sources": {
            "constructors": NPU_CONFIG,
            "tf2": TF2_CONFIGS,
            "session": NPU_ATTRS,
            "ge_keys": NPU_ATTRS,
            "estimator_writes": NPU_ESTIMATOR,
            "ge_known": "inc/**/*api_types.h and every *.cc, *.h, *.cpp",
        },
        "constructors": constructors,
        "tf2": tf2,
        "session": map_of_sets(&session),
        "ge_keys": map_of_sets(&ge_keys.keys),
        "ge_known": set(&ge_known),
        "estimator_writes": map_of_sets(&writes),
        "ranges": ranges,
    }))
}

struct Args {
    mirrors: Option<PathBuf>,
    mode: Mode,
}

fn args(raw: &[String]) -> Result<Args, Error> {
    let mut a = Args {
        mirrors: std::env::var_os("CANN_MIRRORS").map(PathBuf::from),
        mode: Mode::Write,
    };
    let mut it = raw.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--mirrors" => a.mirrors = Some(PathBuf::from(it.next().ok_or(Error::Usage)?)),
            "--check" => a.mode = Mode::Check,
            _ => return Err(Error::Usage),
        }
    }
    Ok(a)
}

/// The mirror of `repo` below `dir`, or why not.
fn mirror(dir: &Path, repo: &str) -> Result<PathBuf, Error> {
    let path = dir.join(repo.replace('/', "+")).join("repo");
    if path.join("HEAD").is_file() {
        Ok(path)
    } else {
        Err(Error::NoMirrors(format!(
            "{} is not a git mirror of {repo}.",
            path.display()
        )))
    }
}

pub fn run(raw: &[String]) -> Result<(), Error> {
    let a = args(raw)?;
    let dir = a
        .mirrors
        .ok_or_else(|| Error::NoMirrors("Neither --mirrors nor CANN_MIRRORS is set.".into()))?;
    let adapter_dir = mirror(&dir, ADAPTER)?;
    let ge_dir = mirror(&dir, GE)?;
    let estimator_dir = mirror(&dir, ESTIMATOR)?;
    let m = Mirrors {
        adapter: Git { dir: &adapter_dir },
        ge: Git { dir: &ge_dir },
        estimator: Git {
            dir: &estimator_dir,
        },
    };
    let (adapter, ge) = (&m.adapter, &m.ge);
    let root = crate::workspace_root();
    let spec = cann_config::model().map_err(|e| Error::Spec(e.to_string()))?;

    let mut releases = serde_json::Map::new();
    for r in &spec.releases {
        let (Some(tf), Some(g)) = (pick(adapter, ADAPTER, &r.refs)?, pick(ge, GE, &r.refs)?) else {
            continue;
        };
        eprintln!("{}: {ADAPTER}@{tf}, {GE}@{g}", r.id);
        for (m, repo, rev) in [(adapter, ADAPTER, &tf), (ge, GE, &g)] {
            if !m.is_tag(rev)? {
                let head = m.commit("master")?;
                if !head.starts_with(rev.as_str()) && r.unreleased {
                    eprintln!(
                        "  note: {repo} master is {} now, beyond the pinned {rev}: review what it adds",
                        &head[..12.min(head.len())]
                    );
                }
            }
        }
        releases.insert(r.id.clone(), facts_at(&m, &tf, &g)?);
    }
    let doc = json!({
        "$comment": "generated by `cargo xtask fidelity` from the upstream mirrors: per release (its refs in spec/releases.yaml), names, defaults, values, keys and checked ranges read from the code; compared with the spec by `cargo xtask fidelity` and crates/cann-config/tests/fidelity.rs",
        "releases": releases,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    let path = root.join(FACTS);
    match ensure_file_contents(&path, &text, a.mode)? {
        Outcome::Stale => return Err(Error::Stale(path)),
        Outcome::Written => eprintln!("wrote {}", path.display()),
        Outcome::Fresh => {}
    }
    report(&root, &doc)
}

/// Compares every release of `doc` with the spec, prints counts and disagreements.
fn report(root: &Path, doc: &Value) -> Result<(), Error> {
    let known: Vec<&str> = cann_config::Release::ALL.iter().map(|r| r.id()).collect();
    let src = std::fs::read_to_string(root.join(EXCEPTIONS))
        .map_err(|e| Error::Exceptions(format!("{EXCEPTIONS}: {e}")))?;
    let exceptions = cann_spec::fidelity::parse_exceptions(EXCEPTIONS, &src, &known)
        .map_err(Error::Exceptions)?;
    let mut used = vec![false; exceptions.len()];
    let mut unexplained = 0;
    for (id, facts) in doc["releases"].as_object().into_iter().flatten() {
        let Ok(release) = id.parse::<cann_config::Release>() else {
            return Err(Error::Spec(format!(
                "{FACTS} has release {id}, the spec does not"
            )));
        };
        let out = cann_config::fidelity::compare(release, facts);
        let total: usize = out.compared.values().sum();
        println!("{id}: {total} facts compared");
        for (kind, n) in &out.compared {
            println!("  {kind:<20} {n}");
        }
        let mut explained = 0;
        for f in &out.found {
            match exceptions.iter().position(|e| e.covers(&f.key, id)) {
                Some(i) => {
                    used[i] = true;
                    explained += 1;
                }
                None => {
                    unexplained += 1;
                    println!(
                        "  DISAGREE {}\n    spec:     {}\n    upstream: {}",
                        f.key, f.spec, f.upstream
                    );
                }
            }
        }
        println!(
            "  {} disagreements, {explained} of them cited exceptions in {EXCEPTIONS}",
            out.found.len()
        );
    }
    let stale: Vec<_> = exceptions
        .iter()
        .zip(&used)
        .filter(|(e, u)| !**u && !e.finding.starts_with("history:"))
        .map(|(e, _)| e)
        .collect();
    for e in &stale {
        println!(
            "  STALE {EXCEPTIONS}:{}: {} matches nothing",
            e.line, e.finding
        );
    }
    if unexplained > 0 {
        return Err(Error::Disagree(unexplained));
    }
    if !stale.is_empty() {
        return Err(Error::StaleExceptions(stale.len()));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
