//! `cargo xtask regenerate` and `cargo xtask check`: everything generated from the spec
//! and checked in, written or compared through one [`ensure_file_contents`].

mod by_release;
mod docs;
mod facts;
mod golden;
mod markdown;
mod schema;

use std::path::{Path, PathBuf};

use crate::ensure::{self, ensure_file_contents, Mode, Outcome};

/// One generated file; `path` is relative to the workspace root.
pub struct Output {
    pub path: String,
    pub text: String,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("the spec in {} has errors:\n{errors}", dir.display())]
    Spec {
        dir: PathBuf,
        errors: cann_spec::SpecErrors,
    },
    #[error("cannot render the docs site: {0}")]
    Render(#[from] askama::Error),
    #[error(transparent)]
    Ensure(#[from] ensure::Error),
    #[error("the docs site has {} broken internal link(s):\n{}", .0.len(), lines(.0))]
    Links(Vec<docs::Broken>),
    #[error("cann-codegen's expansion of the spec is not valid Rust: {0}")]
    Expansion(#[from] syn::Error),
}

fn lines(broken: &[docs::Broken]) -> String {
    broken
        .iter()
        .map(|b| format!("  {b}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The workspace root: the parent of this crate's directory.
pub fn workspace_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    dir.parent().unwrap_or(dir).to_path_buf()
}

/// Directories whose generated files are all ours: a marked file there that is no longer
/// generated is stale.
const OWNED_DIRS: &[&str] = &["docs", "schema"];

/// Every generated file, from the spec alone.
pub fn generate(spec: &cann_spec::Spec) -> Result<Vec<Output>, Error> {
    let schema_text = schema::generate(spec);
    let mut out = docs::generate(spec, &schema_text)?;
    out.push(Output {
        path: schema::PATH.into(),
        text: schema_text,
    });
    out.push(Output {
        path: markdown::PATH.into(),
        text: markdown::generate(spec),
    });
    out.push(Output {
        path: golden::PATH.into(),
        text: golden::generate(spec)?,
    });
    let broken = docs::broken_links(&out);
    if !broken.is_empty() {
        return Err(Error::Links(broken));
    }
    Ok(out)
}

pub fn run(mode: Mode) -> Result<(), Error> {
    run_in(&workspace_root(), mode)
}

pub fn run_in(root: &Path, mode: Mode) -> Result<(), Error> {
    // The model cann-config was compiled from, not a second reading of `spec/`: the docs
    // and the CLI cannot describe two different specs.
    let spec = cann_config::model().map_err(|errors| Error::Spec {
        dir: root.join("spec"),
        errors: errors.clone(),
    })?;
    let outputs = generate(spec)?;
    let mut stale = Vec::new();
    let mut written = 0usize;
    let mut note = |path: &Path, outcome: Outcome| match outcome {
        Outcome::Fresh => {}
        Outcome::Written => written += 1,
        Outcome::Stale => stale.push(path.strip_prefix(root).unwrap_or(path).to_path_buf()),
    };
    let mut keep = Vec::new();
    for o in &outputs {
        let path = root.join(&o.path);
        note(&path, ensure_file_contents(&path, &o.text, mode)?);
        keep.push(path);
    }
    for d in OWNED_DIRS {
        for path in ensure::leftovers(&root.join(d), &keep)? {
            note(&path, ensure::ensure_absent(&path, mode)?);
        }
    }
    if !stale.is_empty() {
        return Err(ensure::Error::Stale(stale).into());
    }
    if mode == Mode::Write {
        println!("{} generated files, {written} updated", outputs.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cargo test` fails when the checked-in docs, schema or reference are stale.
    #[test]
    fn generated_files_are_fresh() {
        if let Err(e) = run(Mode::Check) {
            panic!("{e}");
        }
    }

    /// The same spec gives the same bytes.
    #[test]
    fn generation_is_deterministic() {
        let Ok(spec) = cann_config::model() else {
            panic!("the bundled spec does not load");
        };
        let (Ok(a), Ok(b)) = (generate(spec), generate(spec)) else {
            panic!("generation failed");
        };
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.path == y.path && x.text == y.text));
    }
}
