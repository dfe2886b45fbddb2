//! Reading a spec directory.

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostics, Loc, SpecErrors};
use crate::model::Spec;
use crate::read;
use crate::yaml::{self, Pos};

/// One spec file's text and the name it is reported under.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
}

/// The largest spec file today is tens of kilobytes; this leaves room to grow a hundredfold.
const SPEC_FILE_LIMITS: cann_input::Limits = cann_input::Limits::new(8 * 1024 * 1024);

/// Loads `dir/products.yaml`, `releases.yaml`, `rules.yaml`, `files.yaml`, `env.yaml`,
/// `session.yaml` and
/// `options/*.yaml` (sorted by name), reporting paths relative to `report_base`
/// when they lie under it.
pub fn load_dir(dir: &Path) -> Result<Spec, SpecErrors> {
    let mut d = Diagnostics::new();
    let mut files = Vec::new();
    let mut read_one =
        |path: PathBuf, required: bool, d: &mut Diagnostics| match cann_input::read_text(
            &path,
            SPEC_FILE_LIMITS,
        ) {
            Ok(text) => files.push(SourceFile { path, text }),
            Err(e) if !required && e.is_not_found() => {}
            Err(e) => {
                let pos = e.position().map_or(Pos::default(), |p| Pos {
                    line: u32::try_from(p.line).unwrap_or(u32::MAX),
                    col: u32::try_from(p.column).unwrap_or(u32::MAX),
                });
                d.error(Loc::new(&path, pos), e.reason(cann_input::Lang::En));
            }
        };
    for (name, required) in [
        ("products.yaml", true),
        ("releases.yaml", true),
        ("rules.yaml", false),
        ("files.yaml", false),
        ("env.yaml", false),
        ("session.yaml", false),
    ] {
        read_one(dir.join(name), required, &mut d);
    }
    let options_dir = dir.join("options");
    match std::fs::read_dir(&options_dir) {
        Ok(entries) => {
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                .collect();
            paths.sort();
            for p in paths {
                read_one(p, true, &mut d);
            }
        }
        Err(e) => {
            d.error(
                Loc::new(&options_dir, Pos::default()),
                format!("cannot read the options directory: {e}"),
            );
        }
    }
    let loaded = load_files(&files);
    if d.is_empty() {
        return loaded;
    }
    let mut all = d.into_vec();
    if let Err(SpecErrors(more)) = loaded {
        all.extend(more);
    }
    Err(SpecErrors(all))
}

fn empty_spec() -> Spec {
    Spec {
        products: vec![],
        releases: vec![],
        configs: vec![],
        options: vec![],
        files: vec![],
        rules: vec![],
        session: None,
        inputs: vec![],
    }
}

/// Builds a spec from files already in memory. Which reader applies is decided by the
/// file name (`products.yaml`, `releases.yaml`, `rules.yaml`, `files.yaml`) and otherwise
/// the file is an options file.
pub fn load_files(files: &[SourceFile]) -> Result<Spec, SpecErrors> {
    let mut d = Diagnostics::new();
    let mut spec = empty_spec();
    for f in files {
        spec.inputs.push(f.path.clone());
        let doc = match yaml::parse(&f.text) {
            Ok(doc) => doc,
            Err(e) => {
                d.error(
                    Loc::new(&f.path, e.pos.unwrap_or_default()),
                    format!("YAML syntax error: {}", e.message),
                );
                continue;
            }
        };
        let name = f.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match name {
            "products.yaml" => spec
                .products
                .extend(read::read_products(&f.path, &doc, &mut d)),
            "releases.yaml" => spec
                .releases
                .extend(read::read_releases(&f.path, &doc, &mut d)),
            "rules.yaml" => spec.rules.extend(read::read_rules(&f.path, &doc, &mut d)),
            "files.yaml" => spec
                .files
                .extend(read::read_files_doc(&f.path, &doc, &mut d)),
            "session.yaml" => spec.session = read::read_session(&f.path, &doc, &mut d),
            _ => {
                if let Some((config, options)) = read::read_options_file(&f.path, &doc, &mut d) {
                    spec.configs.extend(config);
                    spec.options.extend(options);
                }
            }
        }
    }
    if d.is_empty() {
        crate::check::check(&mut spec, &mut d);
    }
    d.finish(spec)
}
