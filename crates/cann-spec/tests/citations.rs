//! Sources cited at a git ref: each names its release, each line-level citation
//! (`owner/name@ref:path:line`) still points at a line that names what it is cited for,
//! and each absence citation (`owner/name@ref:path:absent`) at a file that never names it.
//! A code file is cited one of those two ways, never as a whole.
//!
//! The line check reads the upstream repositories, which CI does not have, so it is
//! ignored by default. With the mirrors present (bare git directories laid out as
//! `<dir>/<owner>+<name>/repo`), run it as the README says:
//!
//!     CANN_MIRRORS=/work/.mirror cargo test -p cann-spec --test citations -- --ignored
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cann_spec::source::Cited;
use cann_spec::{OptionSpec, OptionType, Spec};

fn spec() -> Spec {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    cann_spec::load_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
}

/// The names an option goes by on every surface, for matching a cited line.
fn option_names(o: &OptionSpec, out: &mut Vec<String>) {
    out.push(o.name.clone());
    let s = &o.surfaces;
    out.extend(s.estimator.clone());
    out.extend(s.session.as_ref().map(|(n, _)| n.clone()));
    out.extend(
        s.tf2
            .as_ref()
            .and_then(|p| p.rsplit('.').next())
            .map(str::to_string),
    );
    out.extend(s.env.clone());
    out.extend(o.ge_key.clone());
    out.extend(o.changes.iter().filter_map(|c| c.ge_key.clone()));
    for r in &o.removed {
        out.extend(r.surfaces.estimator.clone());
        out.extend(r.surfaces.session.as_ref().map(|(n, _)| n.clone()));
        out.extend(
            r.surfaces
                .tf2
                .as_ref()
                .and_then(|p| p.rsplit('.').next())
                .map(str::to_string),
        );
    }
    if let OptionType::Config(c) | OptionType::Object(c) = &o.ty {
        out.extend(c.rsplit('.').next().map(str::to_string));
    }
}

/// One source of the spec, with the names its item goes by (its replacements' too, which
/// a line may name instead) and the item's own names (which an absent file must not name).
struct Cite {
    source: String,
    names: Vec<String>,
    own: Vec<String>,
}

/// Every source of the spec with the names its item goes by.
fn cited(spec: &Spec) -> Vec<Cite> {
    let mut out = Vec::new();
    for o in &spec.options {
        let mut names = Vec::new();
        option_names(o, &mut names);
        let own = names.clone();
        // A retirement is shown by the spelling that replaced it.
        let replacements = o
            .removed
            .iter()
            .filter_map(|r| r.replacement.as_deref())
            .chain(o.deprecated.iter().filter_map(|d| d.replacement.as_deref()));
        for p in replacements {
            if let Some(r) = spec.option_by_path(p) {
                option_names(r, &mut names);
            }
        }
        let mut srcs: Vec<&String> = o.source.iter().collect();
        srcs.extend(o.deprecated.iter().flat_map(|d| &d.source));
        srcs.extend(o.removed.iter().flat_map(|r| &r.source));
        srcs.extend(
            o.removed
                .iter()
                .flat_map(|r| r.empty_ignored.iter().flatten()),
        );
        srcs.extend(o.introduced.iter().flat_map(|i| &i.source));
        out.extend(srcs.into_iter().map(|s| Cite {
            source: s.clone(),
            names: names.clone(),
            own: own.clone(),
        }));
    }
    for c in &spec.configs {
        let mut names = vec![c.name.clone()];
        for o in spec.options_of(&c.name) {
            option_names(o, &mut names);
        }
        out.extend(c.source.iter().map(|s| Cite {
            source: s.clone(),
            names: names.clone(),
            own: vec![c.name.clone()],
        }));
    }
    for r in &spec.rules {
        let mut names = Vec::new();
        for c in &r.when {
            if let Some(o) = spec.option_by_path(&c.option) {
                option_names(o, &mut names);
            }
        }
        out.extend(r.source.iter().map(|s| Cite {
            source: s.clone(),
            names: names.clone(),
            own: names.clone(),
        }));
    }
    out
}

/// A file of code (not a page): what is read from it is read at a line, or is its absence.
fn is_code(path: &str) -> bool {
    [".cc", ".h", ".cpp", ".py"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

#[test]
fn sources_at_the_modelled_repositories_name_their_release() {
    let spec = spec();
    let mut unknown = Vec::new();
    for Cite { source: s, .. } in cited(&spec) {
        let Some(c) = Cited::parse(&s) else { continue };
        if !c.repo.starts_with("hicann/") || spec.release_of(&s).is_some() {
            continue;
        }
        // A release branch or tag of a CANN release the spec does not model (8.5.0)
        // names its release itself.
        let named = c.rev.trim_start_matches('v');
        if named.split('.').count() == 3 && named.split('.').all(|p| !p.is_empty()) {
            continue;
        }
        unknown.push(s);
    }
    unknown.sort();
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "sources at a ref no release lists in `refs:` (spec/releases.yaml):\n{}",
        unknown.join("\n")
    );
}

#[test]
fn line_citations_are_well_formed() {
    let spec = spec();
    let lines: Vec<String> = cited(&spec)
        .into_iter()
        .map(|c| c.source)
        .filter(|s| Cited::parse(s).is_some_and(|c| c.line.is_some()))
        .collect();
    // Most facts read from code are cited at their line (see the README, "The spec").
    eprintln!("{} line-level citations", lines.len());
    assert!(lines.len() > 300, "{} line-level citations", lines.len());
}

#[test]
fn code_is_cited_at_a_line_or_as_an_absence() {
    let spec = spec();
    let mut whole: Vec<String> = cited(&spec)
        .into_iter()
        .map(|c| c.source)
        .filter(|s| {
            Cited::parse(s)
                .is_some_and(|c| c.path.is_some_and(is_code) && c.line.is_none() && !c.absent)
        })
        .collect();
    whole.sort();
    whole.dedup();
    assert!(
        whole.is_empty(),
        "code cited as a whole file: give the line (`path:LINE`) the fact is read from, or, where the fact is that the file never names the item, say so (`path:absent`):\n{}",
        whole.join("\n")
    );
}

/// `line` names `word` (any case) with no identifier character either side.
fn names_word(line: &str, word: &str) -> bool {
    let (line, word) = (line.to_lowercase(), word.to_lowercase());
    let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    line.match_indices(&word).any(|(i, _)| {
        !ident(line[..i].chars().next_back()) && !ident(line[i + word.len()..].chars().next())
    })
}

fn mirror(root: &Path, repo: &str) -> PathBuf {
    root.join(repo.replace('/', "+")).join("repo")
}

#[test]
#[ignore = "needs the upstream mirrors: CANN_MIRRORS=/work/.mirror cargo test -p cann-spec --test citations -- --ignored"]
fn each_cited_line_names_what_it_is_cited_for() {
    let root = PathBuf::from(
        std::env::var("CANN_MIRRORS").expect("CANN_MIRRORS names the directory of the mirrors"),
    );
    let spec = spec();
    let mut files: BTreeMap<(String, String, String), Option<Vec<String>>> = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for Cite {
        source: s,
        names,
        own,
    } in cited(&spec)
    {
        let Some(c) = Cited::parse(&s) else { continue };
        let Some(path) = c.path else { continue };
        if c.line.is_none() && !c.absent {
            continue;
        }
        let dir = mirror(&root, c.repo);
        assert!(dir.is_dir(), "no mirror of {} at {}", c.repo, dir.display());
        let key = (c.repo.to_string(), c.rev.to_string(), path.to_string());
        let text = files.entry(key).or_insert_with(|| {
            let out = Command::new("git")
                .arg("-C")
                .arg(&dir)
                .args(["show", &format!("{}:{path}", c.rev)])
                .output()
                .expect("git runs");
            out.status.success().then(|| {
                String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .map(str::to_string)
                    .collect()
            })
        });
        checked += 1;
        let Some(text) = text else {
            wrong.push(format!("{s}: no such file at that ref"));
            continue;
        };
        let Some(line) = c.line else {
            // An absence: no line of the file names the item, in any case, as a whole word
            // (`nable_x` is absent from a file that names `enable_x`).
            let mut named: Vec<&String> = own
                .iter()
                .filter(|n| text.iter().any(|l| names_word(l, n)))
                .collect();
            named.sort();
            named.dedup();
            if !named.is_empty() {
                wrong.push(format!(
                    "{s}: cited as never naming it, but names {named:?}"
                ));
            }
            continue;
        };
        let at = text.get(line as usize - 1).map(|l| l.to_lowercase());
        let hit = at
            .as_deref()
            .is_some_and(|l| names.iter().any(|n| l.contains(&n.to_lowercase())));
        if !hit {
            wrong.push(format!(
                "{s}: line {line} names none of {names:?}: {:?}",
                at.unwrap_or_default()
            ));
        }
    }
    eprintln!("{checked} line-level and absence citations checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
