//! `cargo xtask upstream-history --ascend DIR --hicann DIR [--check]`: reads the release
//! history of the TF Adapter from two git mirrors (their git directories; no work tree is
//! needed) and writes, per release branch and release tag, which options the adapter had
//! there, to `spec/history/upstream-refs.json`:
//!
//! - `session`: the TF1 session keys `tf_adapter/util/npu_attrs.cc` reads
//!   (`params.count("KEY")`);
//! - `estimator_writes`: the session keys NPUEstimator writes into `parameter_map`;
//! - `constructors`: each config class of `npu_config.py` and its keyword names, in order;
//! - `tf2`: the `npu.global_options()` paths of `tf_adapter_2.x`, where the tree exists.
//!
//! Every tag and every release branch of both repositories is read, in date order:
//! `Ascend/tensorflow` branches `r*` (`r1.11.0`, `r2.1.0`), `mt_tfa_*` and `master`, and every
//! tag, whether it names a CANN build (`tfa_v0.0.20_7.0.0.alpha003`: release 7.0.0) or not
//! (`tfa_v0.0.1`, `tfa_v0.0.5_mt`); `hicann/tensorflow` tags, `master` and its release
//! branches (`9.0.0`, `dev/tf2.13-CANN9.0.0`). Only work branches (`development`, `ge_dev`,
//! `revert-*`, `compat.v1`) are left out. The file is our own derived data (names only),
//! never upstream text; `crates/cann-config/tests/upstream_history.rs` checks the spec's
//! release history against it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::ensure::{ensure_file_contents, Outcome};
use crate::fidelity::{cc, py, NPU_ATTRS, NPU_CONFIG, NPU_ESTIMATOR, TF2_CONFIGS, TF2_ROOT};

/// Where the facts go, relative to the workspace root.
pub const FACTS: &str = "spec/history/upstream-refs.json";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("usage: cargo xtask upstream-history --ascend <Ascend/tensorflow git dir> --hicann <hicann/tensorflow git dir> [--check]")]
    Usage,
    #[error("git -C {0} {1}: {2}")]
    Git(PathBuf, String, String),
    #[error("{0} differs from what the mirrors give: run `cargo xtask upstream-history --ascend DIR --hicann DIR` and read the diff")]
    Stale(String),
    #[error(transparent)]
    Fidelity(#[from] crate::fidelity::Error),
    #[error(transparent)]
    Ensure(#[from] crate::ensure::Error),
}

/// A git mirror and the name its facts are cited under.
struct Mirror<'a> {
    dir: &'a Path,
    repo: &'static str,
}

impl Mirror<'_> {
    fn git(&self, args: &[&str]) -> Result<Option<String>, Error> {
        crate::git::output(self.dir, args)
            .map_err(|e| Error::Git(self.dir.to_path_buf(), args.join(" "), e.to_string()))
    }

    fn must(&self, args: &[&str]) -> Result<String, Error> {
        self.git(args)?.ok_or_else(|| {
            Error::Git(
                self.dir.to_path_buf(),
                args.join(" "),
                "failed (is this the mirror's git directory?)".into(),
            )
        })
    }

    /// A file at a commit, `None` where the commit has no such file.
    fn show(&self, commit: &str, path: &str) -> Result<Option<String>, Error> {
        self.git(&["show", &format!("{commit}:{path}")])
    }
}

/// One ref to read: its name, whether it is a tag, commit, date and the CANN release its
/// name states.
struct Ref {
    name: String,
    tag: bool,
    commit: String,
    date: String,
    build: Option<String>,
    release: Option<String>,
}

/// `tfa_v0.0.20_7.0.0.alpha003` -> (`7.0.0.alpha003`, `7.0.0`); `tfa_v0.0.48_9.0.0` ->
/// (`9.0.0`, `9.0.0`); a release branch named for its release (`9.0.0`, and
/// `dev/tf2.13-CANN9.0.0`) -> (`9.0.0`, `9.0.0`). Tags without a CANN build in their name
/// (`tfa_v0.0.5_mt`) give none.
fn build_of(tag: &str) -> Option<(String, String)> {
    if let Some(cann) = tag.rsplit_once("CANN").map(|(_, c)| c) {
        return Some((cann.to_string(), cann.to_string()));
    }
    if tag.split('.').count() == 3 && tag.split('.').all(|p| p.parse::<u32>().is_ok()) {
        return Some((tag.to_string(), tag.to_string()));
    }
    let rest = tag.strip_prefix("tfa_v")?;
    let (_, build) = rest.split_once('_')?;
    if !build.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let release = match build.find(".alpha") {
        Some(i) => &build[..i],
        None => build,
    };
    Some((build.to_string(), release.to_string()))
}

/// The refs of a mirror worth reading, `keep` deciding by ref name.
fn refs(m: &Mirror<'_>, keep: &dyn Fn(&str) -> bool) -> Result<Vec<Ref>, Error> {
    let listing = m.must(&[
        "for-each-ref",
        "--format=%(refname) %(objectname) %(*objectname)",
        "refs/heads",
        "refs/tags",
    ])?;
    let mut out = Vec::new();
    for line in listing.lines() {
        let mut f = line.split(' ');
        let (Some(full), Some(obj)) = (f.next(), f.next()) else {
            continue;
        };
        // The full name tells a tag from a branch (hicann/tensorflow has both a `9.0.0`
        // branch and a `tfa_v0.0.48_9.0.0` tag; a release is its tag).
        let (name, tag) = match full.strip_prefix("refs/tags/") {
            Some(n) => (n, true),
            None => (full.strip_prefix("refs/heads/").unwrap_or(full), false),
        };
        if !keep(name) {
            continue;
        }
        // An annotated tag points at a tag object; read the commit it peels to.
        let commit = match f.next() {
            Some(peeled) if !peeled.is_empty() => peeled,
            _ => obj,
        };
        let date = m.must(&["log", "-1", "--format=%cI", commit])?;
        let (build, release) = match build_of(name) {
            Some((b, r)) => (Some(b), Some(r)),
            None => (None, None),
        };
        out.push(Ref {
            name: name.to_string(),
            tag,
            commit: commit.to_string(),
            date: date.trim().to_string(),
            build,
            release,
        });
    }
    Ok(out)
}

/// Every tag and release branch: all but the work branches of the repositories.
fn release_ref(name: &str) -> bool {
    const WORK: &[&str] = &["development", "ge_dev", "compat.v1"];
    !WORK.contains(&name) && !name.starts_with("revert-")
}

fn set(s: impl IntoIterator<Item = String>) -> Value {
    let s: BTreeSet<String> = s.into_iter().collect();
    Value::Array(s.into_iter().map(Value::from).collect())
}

/// The TF2 option paths at `commit`, `None` where the tree (or its root class) is absent.
fn tf2(m: &Mirror<'_>, commit: &str) -> Result<Option<Value>, Error> {
    let Some(listing) = m.git(&["ls-tree", "--name-only", commit, &format!("{TF2_CONFIGS}/")])?
    else {
        return Ok(None);
    };
    let mut classes = BTreeMap::new();
    for path in listing.lines().filter(|p| p.ends_with(".py")) {
        if let Some(text) = m.show(commit, path)? {
            classes.extend(py::tf2_classes(&py::Source::parse(path.to_string(), text)?));
        }
    }
    if !classes.contains_key(TF2_ROOT) {
        return Ok(None);
    }
    let paths = py::tf2_paths(&classes, TF2_ROOT)?;
    Ok(Some(set(paths.into_keys())))
}

/// What one ref has; missing files give empty lists.
fn facts_of(m: &Mirror<'_>, r: &Ref) -> Result<Value, Error> {
    let session = match m.show(&r.commit, NPU_ATTRS)? {
        Some(t) => cc::session_accessors(&t)?.into_keys().collect(),
        None => Vec::new(),
    };
    let writes = match m.show(&r.commit, NPU_ESTIMATOR)? {
        Some(t) => cc::parameter_map_writes(&t)?.into_keys().collect(),
        None => Vec::new(),
    };
    let mut constructors = serde_json::Map::new();
    if let Some(t) = m.show(&r.commit, NPU_CONFIG)? {
        for (class, params) in py::constructors(&py::Source::parse(NPU_CONFIG.into(), t)?) {
            let names: Vec<Value> = params
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| p.get("name").cloned())
                .collect();
            constructors.insert(class, Value::Array(names));
        }
    }
    Ok(json!({
        "repo": m.repo,
        "ref": r.name,
        "kind": if r.tag { "tag" } else { "branch" },
        "commit": r.commit,
        "date": r.date,
        "build": r.build,
        "release": r.release,
        "session": set(session),
        "estimator_writes": set(writes),
        "constructors": constructors,
        "tf2": tf2(m, &r.commit)?,
    }))
}

/// The facts of both mirrors, as the JSON text committed in [`FACTS`].
pub fn facts(ascend: &Path, hicann: &Path) -> Result<String, Error> {
    let ascend = Mirror {
        dir: ascend,
        repo: "Ascend/tensorflow",
    };
    let hicann = Mirror {
        dir: hicann,
        repo: "hicann/tensorflow",
    };
    let mut all = Vec::new();
    for (m, keep) in [
        (&ascend, &release_ref as &dyn Fn(&str) -> bool),
        (&hicann, &release_ref),
    ] {
        for r in refs(m, keep)? {
            all.push((r.date.clone(), facts_of(m, &r)?));
        }
    }
    // Date order; ties (a tag on a branch tip) by repository and name, for a stable file.
    all.sort_by(|(da, a), (db, b)| {
        da.cmp(db)
            .then_with(|| a["repo"].as_str().cmp(&b["repo"].as_str()))
            .then_with(|| a["ref"].as_str().cmp(&b["ref"].as_str()))
    });
    let doc = json!({
        "$comment": "generated by `cargo xtask upstream-history --ascend DIR --hicann DIR`: per release branch and tag of the TF Adapter, the names of the options it had (session keys read, keys NPUEstimator writes, constructor keywords, TF2 paths); checked against the spec by crates/cann-config/tests/upstream_history.rs",
        "sources": {
            "session": NPU_ATTRS,
            "estimator_writes": NPU_ESTIMATOR,
            "constructors": NPU_CONFIG,
            "tf2": TF2_CONFIGS,
        },
        "refs": all.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    Ok(text)
}

pub fn run(raw: &[String]) -> Result<(), Error> {
    let a = crate::flags::two_dirs(raw, "--ascend", "--hicann").ok_or(Error::Usage)?;
    let [ascend, hicann] = &a.dirs;
    let text = facts(ascend, hicann)?;
    let path = crate::workspace_root().join(FACTS);
    match ensure_file_contents(&path, &text, a.mode)? {
        Outcome::Stale => Err(Error::Stale(FACTS.into())),
        Outcome::Written => {
            eprintln!("wrote {}", path.display());
            Ok(())
        }
        Outcome::Fresh => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::build_of;

    #[test]
    fn tags_name_their_cann_build() {
        let b = |t: &str| build_of(t).map(|(b, r)| format!("{b} {r}"));
        assert_eq!(
            b("tfa_v0.0.20_7.0.0.alpha003").as_deref(),
            Some("7.0.0.alpha003 7.0.0")
        );
        assert_eq!(
            b("tfa_v0.0.3_6.3.RC1.alpha002").as_deref(),
            Some("6.3.RC1.alpha002 6.3.RC1")
        );
        assert_eq!(b("tfa_v0.0.48_9.0.0").as_deref(), Some("9.0.0 9.0.0"));
        assert_eq!(b("tfa_v0.0.5_mt"), None);
        assert_eq!(b("tfa_v0.0.1"), None);
        assert_eq!(b("r1.15.0"), None);
        assert_eq!(b("9.0.0").as_deref(), Some("9.0.0 9.0.0"));
        assert_eq!(b("dev/tf2.13-CANN9.0.0").as_deref(), Some("9.0.0 9.0.0"));
        assert_eq!(b("mt_tfa_0214"), None);
    }

    #[test]
    fn every_tag_and_release_branch_is_read() {
        for r in [
            "tfa_v0.0.1",
            "tfa_v0.0.8_mt",
            "r1.11.0",
            "r2.1.0",
            "mt_tfa_0214",
            "master",
            "9.0.0",
        ] {
            assert!(super::release_ref(r), "{r}");
        }
        for r in [
            "development",
            "ge_dev",
            "revert-merge-2508-ge_dev",
            "compat.v1",
        ] {
            assert!(!super::release_ref(r), "{r}");
        }
    }
}
