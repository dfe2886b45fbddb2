//! `cargo xtask release-drill`: proves that a new CANN release is a spec edit and nothing else.
//!
//! The workspace is copied to a temporary directory; only files under `spec/` are edited
//! there, to add a product and a release in which some options support it. Generated files
//! are refreshed with `cargo xtask regenerate`, `cannctl` is rebuilt, and its answers are
//! checked. The drill fails if any file outside `spec/` other than generated output changed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const PRODUCT: &str = "atlas-drill";
const RELEASE: &str = "99.0.0";
/// The drill product gets MemoryConfig (class-level support) but not aicore_num.
const SUPPORTING_FILE: &str = "spec/options/memory_config.yaml";

pub fn run(root: &Path) -> Result<()> {
    let tmp = tempfile::tempdir()?;
    let copy = tmp.path().join("ws");
    let files = tracked_files(root)?;
    for f in &files {
        let dst = copy.join(f);
        if let Some(p) = dst.parent() {
            std::fs::create_dir_all(p)?;
        }
        std::fs::copy(root.join(f), &dst)?;
    }
    println!("drill: copied {} files to {}", files.len(), copy.display());
    let before = hashes(&copy, &files)?;

    edit_spec(&copy)?;
    println!("drill: added product `{PRODUCT}` and release `{RELEASE}` in spec/ only");

    // Derived outputs follow the spec; the drill's own build dir keeps reruns fast.
    let target = root.join("target").join("drill");
    cargo(
        &copy,
        &target,
        &["run", "-q", "-p", "xtask", "--", "regenerate"],
    )?;
    cargo(&copy, &target, &["build", "-q", "-p", "cannctl"])?;
    let cannctl = target.join("debug").join("cannctl");

    let products = output(
        &cannctl,
        &copy,
        &["products", "--release", RELEASE, "--format", "json"],
        0,
    )?;
    ensure(
        products.contains(&format!("\"id\": \"{PRODUCT}\"")),
        "`cannctl products` does not list the new product",
    )?;
    // PRODUCTS is generated next to the `Product` enum, one entry per variant
    // (`product: Product::AtlasDrill`), so listing it proves the variant exists.
    let explain = output(
        &cannctl,
        &copy,
        &["explain", "static_memory_policy", "--format", "json"],
        0,
    )?;
    ensure(
        explain.contains(PRODUCT),
        "`cannctl explain` does not show support on the new product",
    )?;

    let supported = copy.join("drill-supported.yaml");
    std::fs::write(
        &supported,
        "npu_run_config:\n  memory_config:\n    static_memory_policy: 2\n",
    )?;
    output(
        &cannctl,
        &copy,
        &[
            "check",
            &path_str(&supported)?,
            "--product",
            PRODUCT,
            "--release",
            RELEASE,
        ],
        0,
    )?;
    let unsupported = copy.join("drill-unsupported.yaml");
    std::fs::write(&unsupported, "npu_run_config:\n  aicore_num: \"8|16\"\n")?;
    let rejected = output(
        &cannctl,
        &copy,
        &[
            "check",
            &path_str(&unsupported)?,
            "--product",
            PRODUCT,
            "--release",
            RELEASE,
        ],
        1,
    )?;
    ensure(
        rejected.contains("not supported"),
        "an unsupported option was not rejected",
    )?;

    let latest = output(
        &cannctl,
        &copy,
        &["diff", "9.0.0", RELEASE, "--format", "json"],
        0,
    )?;
    ensure(
        latest.contains(&format!("\"subject\": \"{PRODUCT}\"")),
        "`cannctl diff` does not report the new product",
    )?;
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

/// Files git knows, plus untracked ones not ignored, so the drill sees the working tree.
fn tracked_files(root: &Path) -> Result<Vec<PathBuf>> {
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
    Ok(out
        .stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| PathBuf::from(String::from_utf8_lossy(s).into_owned()))
        .filter(|p| root.join(p).is_file())
        .collect())
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

fn edit_spec(copy: &Path) -> Result<()> {
    let spec = cann_spec::load_dir(&copy.join("spec")).map_err(|e| e.to_string())?;
    let last = spec.releases.last().ok_or("the spec has no release")?;
    let append = |rel: &str, text: &str| -> Result<()> {
        let p = copy.join(rel);
        let mut s = std::fs::read_to_string(&p)?;
        if !s.ends_with('\n') {
            s.push('\n');
        }
        s.push_str(text);
        std::fs::write(p, s)?;
        Ok(())
    };
    append(
        "spec/products.yaml",
        &format!(
            "  - id: {PRODUCT}\n    name: {{ en: \"Atlas Drill card\", zh: \"Atlas 演练卡\" }}\n"
        ),
    )?;
    let mut products: Vec<String> = last.products.clone();
    products.push(PRODUCT.into());
    append(
        "spec/releases.yaml",
        &format!(
            "  - id: \"{RELEASE}\"\n    products: [{}]\n",
            products.join(", ")
        ),
    )?;
    // Open-ended support on the new product for one class: insert under its `products:`.
    let p = copy.join(SUPPORTING_FILE);
    let text = std::fs::read_to_string(&p)?;
    let marker = "\n  products:\n";
    let at = text
        .find(marker)
        .ok_or("the supporting file has no class-level products list")?;
    let mut edited = text.clone();
    edited.insert_str(
        at + marker.len(),
        &format!("    {PRODUCT}: \"{RELEASE}..\"\n"),
    );
    std::fs::write(p, edited)?;
    Ok(())
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
