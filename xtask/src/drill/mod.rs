//! `cargo xtask release-drill`: proves that a new CANN release is a spec edit and nothing else.
//!
//! The workspace is copied to a temporary directory; only files under `spec/` are edited
//! there, to add a release 9.1.0 with one change of each kind ([`edit`]): a new product, a
//! new option, a new value (one of them of an option the runtime acts on, with a known
//! behaviour), a changed default, a deprecation and a new rule. Generated files
//! are refreshed with `cargo xtask regenerate`, `cannctl` is rebuilt, and every output is
//! checked ([`checks`]): `products`, `explain` (both languages, with `--release`), `check` on
//! the old and the new release, `emit`, `diff`, the docs pages (option, class, release,
//! products, reference), the schema, a `#[derive(CannConfig)]`'s `ge.*` map, and the new rule's
//! examples in the data-driven rules test. The drill
//! fails if any file outside `spec/` other than generated output changed.

mod checks;
mod edit;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The copy under test and the `cannctl` built from it.
pub struct Drill {
    copy: PathBuf,
    cannctl: PathBuf,
}

impl Drill {
    /// Runs cannctl, requiring `code`, and returns its standard output.
    fn run(&self, args: &[&str], code: i32) -> Result<String> {
        output(&self.cannctl, &self.copy, args, code)
    }

    fn json(&self, args: &[&str], code: i32) -> Result<serde_json::Value> {
        let out = self.run(args, code)?;
        serde_json::from_str(&out).map_err(|e| {
            format!(
                "drill failed: `cannctl {}` printed no JSON: {e}",
                args.join(" ")
            )
            .into()
        })
    }

    /// A config file in the copy, for `check` and `emit`.
    fn write(&self, name: &str, text: &str) -> Result<String> {
        let p = self.copy.join("drill").join(name);
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(&p, text)?;
        path_str(&p)
    }
}

pub fn run(root: &Path) -> Result<()> {
    let tmp = tempfile::tempdir()?;
    let copy = tmp.path().join("ws");
    let (files, skipped) = tracked_files(root)?;
    for f in &files {
        let dst = copy.join(f);
        if let Some(p) = dst.parent() {
            std::fs::create_dir_all(p)?;
        }
        copy_entry(&root.join(f), &dst)?;
    }
    println!(
        "drill: copied {} files to {} (left out {} of other workspaces: {})",
        files.len(),
        copy.display(),
        skipped.files,
        skipped.roots.join(", ")
    );
    let before = hashes(&copy, &files)?;

    edit::edit_spec(&copy)?;
    println!(
        "drill: release {} after {} in spec/ only: product {}, option {}, value {} of {}, value {} of {} (behaviour rebuild), default of {}, deprecation of {}, rule {}",
        edit::RELEASE,
        edit::PREVIOUS,
        edit::PRODUCT,
        edit::NEW_OPTION,
        edit::NEW_VALUE,
        edit::VALUE_OPTION,
        edit::NEW_CACHE_VALUE,
        edit::CACHE_OPTION,
        edit::CHANGED_OPTION,
        edit::DEPRECATED_OPTION,
        edit::NEW_RULE
    );

    // Derived outputs follow the spec. The drill's own build dir keeps reruns fast and leaves
    // the workspace's build alone: the copy's crates have the same names and relative paths,
    // so built into the workspace's dir they would stand in for its own artifacts. CI, where
    // nothing builds after the drill, points CANNCTL_DRILL_TARGET_DIR at the main build to
    // reuse its compiled dependencies.
    let target = std::env::var_os("CANNCTL_DRILL_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target").join("drill"));
    cargo(
        &copy,
        &target,
        &["run", "-q", "-p", "xtask", "--", "regenerate"],
    )?;
    cargo(&copy, &target, &["build", "-q", "-p", "cannctl"])?;
    let d = Drill {
        cannctl: target.join("debug").join("cannctl"),
        copy: copy.clone(),
    };
    let steps: [(&str, &dyn Fn() -> Result<()>); 9] = [
        ("products", &|| checks::products(&d)),
        ("explain", &|| checks::explain(&d)),
        ("check", &|| checks::check(&d)),
        ("emit", &|| checks::emit(&d)),
        ("diff", &|| checks::diff(&d)),
        ("docs", &|| checks::docs(&copy)),
        ("schema", &|| checks::schema(&copy)),
        ("derive", &|| derive(&copy, &target)),
        // The new rule's own examples run in the data-driven rules test, as every rule's do.
        ("rule examples", &|| {
            cargo(
                &copy,
                &target,
                &["test", "-q", "-p", "cann-config", "--test", "rules"],
            )
        }),
    ];
    for (name, step) in steps {
        step()?;
        println!("drill: {name} follows");
    }
    cargo(&copy, &target, &["run", "-q", "-p", "xtask", "--", "check"])?;

    let after = hashes(&copy, &files)?;
    let mut changed_outside: Vec<&PathBuf> = Vec::new();
    for (f, h) in &before {
        if after.get(f) != Some(h) && !f.starts_with("spec") && !is_generated(&copy.join(f)) {
            changed_outside.push(f);
        }
    }
    if !changed_outside.is_empty() {
        return Err(format!("files outside spec/ had to change: {changed_outside:?}").into());
    }
    println!("drill: passed; no file outside spec/ changed except generated output");
    Ok(())
}

/// Builds and runs a downstream-style example deriving `CannConfig` at both releases. The
/// example is the drill's probe, added to the copy, not a change the release needed.
fn derive(copy: &Path, target: &Path) -> Result<()> {
    let example = copy.join("crates/cann-config/examples/drill_derive.rs");
    if let Some(dir) = example.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&example, checks::DERIVE_EXAMPLE)?;
    let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "run",
            "-q",
            "-p",
            "cann-config",
            "--example",
            "drill_derive",
        ])
        .current_dir(copy)
        .env("CARGO_TARGET_DIR", target)
        .output()?;
    ensure(
        out.status.success(),
        &format!(
            "the derive example did not build or run:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
    )?;
    checks::derive(&String::from_utf8_lossy(&out.stdout))
}

fn ensure(ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(format!("drill failed: {what}").into())
    }
}

fn path_str(p: &Path) -> Result<String> {
    p.to_str()
        .map(str::to_string)
        .ok_or_else(|| "temporary path is not UTF-8".into())
}

/// What [`tracked_files`] left out.
struct Skipped {
    /// The directories of other workspaces, as `fuzz/`.
    roots: Vec<String>,
    /// How many files they hold.
    files: usize,
}

/// Files git knows, plus untracked ones not ignored, so the drill sees the working tree;
/// without the files of other workspaces (such as `fuzz/`, cargo-fuzz's own, with its
/// corpora of ten thousand inputs): the drill builds only this workspace's crates, so
/// they cannot follow or break a release, and copying them is most of the copy.
fn tracked_files(root: &Path) -> Result<(Vec<PathBuf>, Skipped)> {
    let out = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root)
        .output()?;
    if !out.status.success() {
        return Err("git ls-files failed; the drill needs a git checkout".into());
    }
    let all: Vec<PathBuf> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| PathBuf::from(String::from_utf8_lossy(s).into_owned()))
        // Links too: the crates that ship in the sdist reach `spec/` and `schema/` through
        // tracked links to directories.
        .filter(|p| root.join(p).is_file() || root.join(p).is_symlink())
        .collect();
    let others = other_workspaces(root, &all);
    let (skipped, files): (Vec<PathBuf>, Vec<PathBuf>) = all
        .into_iter()
        .partition(|f| others.iter().any(|o| f.starts_with(o)));
    let roots = others.iter().map(|o| format!("{}/", o.display())).collect();
    Ok((
        files,
        Skipped {
            roots,
            files: skipped.len(),
        },
    ))
}

/// Directories below `root` whose `Cargo.toml` declares a workspace of its own: cargo builds
/// them apart from this workspace, so nothing the drill builds or checks is in them.
fn other_workspaces(root: &Path, files: &[PathBuf]) -> Vec<PathBuf> {
    let own_workspace = |manifest: &Path| {
        std::fs::read_to_string(root.join(manifest))
            .is_ok_and(|t| t.lines().any(|l| l.trim() == "[workspace]"))
    };
    files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "Cargo.toml"))
        .filter_map(|f| Some((f, f.parent()?)))
        .filter(|(_, dir)| !dir.as_os_str().is_empty())
        .filter(|(f, _)| own_workspace(f))
        .map(|(_, dir)| dir.to_path_buf())
        .collect()
}

/// A tracked link is copied as the same link (the targets are relative and inside the
/// workspace), a file by its contents.
fn copy_entry(src: &Path, dst: &Path) -> Result<()> {
    if src.is_symlink() {
        let target = std::fs::read_link(src)?;
        #[cfg(unix)]
        std::os::unix::fs::symlink(&target, dst)?;
        #[cfg(not(unix))]
        return Err(format!("{}: links need a unix host", src.display()).into());
    } else {
        std::fs::copy(src, dst)?;
    }
    Ok(())
}

fn hashes(base: &Path, files: &[PathBuf]) -> Result<BTreeMap<PathBuf, Vec<u8>>> {
    // Whole contents: the workspace is small and the comparison must be exact.
    let mut m = BTreeMap::new();
    for f in files {
        m.insert(f.clone(), std::fs::read(base.join(f)).unwrap_or_default());
    }
    Ok(m)
}

/// Generated files say so in their first lines.
fn is_generated(p: &Path) -> bool {
    std::fs::read_to_string(p)
        .map(|t| {
            t.lines()
                .take(3)
                .any(|l| l.contains("cargo xtask regenerate"))
        })
        .unwrap_or(false)
}

fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Result<()> {
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .status()?;
    ensure(
        status.success(),
        &format!("`cargo {}` failed in the copy", args.join(" ")),
    )
}

/// Runs cannctl, requiring `code`, and returns its standard output.
fn output(cannctl: &Path, dir: &Path, args: &[&str], code: i32) -> Result<String> {
    let o = Command::new(cannctl)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()?;
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    if o.status.code() != Some(code) {
        return Err(format!(
            "drill failed: `cannctl {}` exited {:?}, expected {code}\n{out}{}",
            args.join(" "),
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        )
        .into());
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A package with a `[workspace]` of its own is left out with everything below it; the
    /// root workspace and its members are not.
    #[test]
    fn other_workspaces_are_the_separate_ones() {
        let t = tempfile::tempdir().unwrap();
        let files = [
            ("Cargo.toml", "[workspace]\nmembers = [\"crates/a\"]\n"),
            ("crates/a/Cargo.toml", "[package]\nname = \"a\"\n"),
            (
                "fuzz/Cargo.toml",
                "[package]\nname = \"f\"\n\n# Not ours.\n[workspace]\n",
            ),
            ("fuzz/corpus/x/1", ""),
            ("docs/workspace.md", "[workspace]\n"),
        ];
        for (f, text) in files {
            let p = t.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let listed: Vec<PathBuf> = files.iter().map(|(f, _)| PathBuf::from(f)).collect();
        assert_eq!(
            other_workspaces(t.path(), &listed),
            vec![PathBuf::from("fuzz")]
        );
    }
}
