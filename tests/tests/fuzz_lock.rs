//! fuzz/ is outside the workspace and has its own Cargo.lock. The targets must fuzz the code
//! `cargo test` and the release build run, so every package the workspace's crates pull in
//! there is one the workspace's own lock has, at its version: a package the workspace moved
//! to another version, and one it dropped, both make the fuzz lock stale. (Refresh: copy
//! Cargo.lock to fuzz/ and run `cargo metadata` there.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;

/// The fuzz crate's own package: its dependencies beside the workspace's (libfuzzer-sys
/// and what that pulls in) are its own business.
const FUZZ_CRATE: &str = "cannctl-fuzz";

#[derive(Debug, Clone)]
struct Package {
    name: String,
    version: String,
    /// `None` for a path package: a workspace crate, or the fuzz crate itself.
    source: Option<String>,
    /// As the lock writes them: `name`, `name version` or `name version (source)`.
    dependencies: Vec<String>,
}

fn packages(path: &Path) -> Vec<Package> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lock: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let Some(toml::Value::Array(list)) = lock.get("package") else {
        panic!("{}: no [[package]]", path.display());
    };
    let s = |t: &toml::Table, k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_owned);
    list.iter()
        .map(|p| {
            let t = p.as_table().unwrap();
            Package {
                name: s(t, "name").unwrap(),
                version: s(t, "version").unwrap(),
                source: s(t, "source"),
                dependencies: t
                    .get("dependencies")
                    .and_then(|d| d.as_array())
                    .map(|d| {
                        d.iter()
                            .filter_map(|x| x.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// The package a dependency entry names: by name, and by version when the lock says one.
fn resolve<'a>(lock: &'a [Package], dep: &str) -> Option<&'a Package> {
    let mut words = dep.split(' ');
    let name = words.next()?;
    let version = words.next();
    lock.iter()
        .find(|p| p.name == name && version.is_none_or(|v| p.version == v))
}

/// Packages of the fuzz lock not as the workspace has them: every package the workspace
/// crates reach in the fuzz lock must be in the workspace lock at the same version, and a
/// package of both at a version the workspace does not have is stale wherever it comes from.
fn stale(workspace: &[Package], fuzz: &[Package]) -> BTreeSet<String> {
    let in_workspace = |p: &Package| {
        workspace
            .iter()
            .any(|w| w.name == p.name && w.version == p.version)
    };
    let mut out = BTreeSet::new();
    for p in fuzz {
        if workspace.iter().any(|w| w.name == p.name) && !in_workspace(p) {
            out.insert(format!("{} {}", p.name, p.version));
        }
    }
    // From the workspace crates (path packages other than the fuzz crate), down.
    let mut todo: Vec<&Package> = fuzz
        .iter()
        .filter(|p| p.source.is_none() && p.name != FUZZ_CRATE)
        .collect();
    let mut seen: BTreeSet<(&str, &str)> = BTreeSet::new();
    while let Some(p) = todo.pop() {
        if !seen.insert((&p.name, &p.version)) {
            continue;
        }
        if !in_workspace(p) {
            out.insert(format!("{} {}", p.name, p.version));
        }
        for d in &p.dependencies {
            match resolve(fuzz, d) {
                Some(q) => todo.push(q),
                None => {
                    out.insert(format!("{d} (named by {}, not in the lock)", p.name));
                }
            }
        }
    }
    out
}

fn locks() -> (Vec<Package>, Vec<Package>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    (
        packages(&root.join("Cargo.lock")),
        packages(&root.join("fuzz/Cargo.lock")),
    )
}

#[test]
fn fuzz_lock_matches_the_workspace() {
    let (workspace, fuzz) = locks();
    assert!(
        fuzz.len() > 50,
        "fuzz/Cargo.lock lists {} packages",
        fuzz.len()
    );
    let stale = stale(&workspace, &fuzz);
    assert!(
        stale.is_empty(),
        "fuzz/Cargo.lock is not at the workspace's packages (copy Cargo.lock to fuzz/ and \
         run `cargo metadata` there): {stale:?}"
    );
    // Every workspace crate the fuzz targets use is in its lock (a stale lock misses new ones).
    for krate in [
        "cann-lint",
        "cann-lsp",
        "lsp-server",
        "lsp-types",
        "tree-sitter",
    ] {
        assert!(
            fuzz.iter().any(|p| p.name == krate),
            "fuzz/Cargo.lock lacks {krate}"
        );
    }
}

/// What the check is for: a dependency the workspace dropped (gone from Cargo.lock), which a
/// version comparison alone never sees, is flagged; the fuzz crate's own dependencies are not.
#[test]
fn a_package_the_workspace_dropped_is_stale() {
    let (workspace, mut fuzz) = locks();
    let runtime = fuzz.iter_mut().find(|p| p.name == "cann-runtime").unwrap();
    runtime.dependencies.push("long-gone".into());
    fuzz.push(Package {
        name: "long-gone".into(),
        version: "1.0.0".into(),
        source: Some("registry+https://github.com/rust-lang/crates.io-index".into()),
        dependencies: Vec::new(),
    });
    assert_eq!(
        stale(&workspace, &fuzz).into_iter().collect::<Vec<_>>(),
        vec!["long-gone 1.0.0".to_string()]
    );
    // libfuzzer-sys is the fuzz crate's alone: not stale.
    assert!(workspace.iter().all(|p| p.name != "libfuzzer-sys"));
    assert!(fuzz.iter().any(|p| p.name == "libfuzzer-sys"));
}
