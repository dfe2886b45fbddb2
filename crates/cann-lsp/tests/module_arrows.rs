//! The crate's modules import one way: no module reaches, through `crate::` paths, back to a
//! module that reaches it. The main loop (`server`) dispatches to the handlers (`api`), and
//! both work on the state (`state`); a handler never names the loop.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module -> the top-level modules its code names as `crate::<module>`.
fn arrows() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut todo = vec![src.clone()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") || p == src.join("lib.rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap();
            let first = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            let module = first.trim_end_matches(".rs").to_string();
            let text = std::fs::read_to_string(&p).unwrap();
            let to = out.entry(module.clone()).or_default();
            // Code only: a doc link to another module is no import.
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (i, _) in line.match_indices("crate::") {
                    let name: String = line[i + "crate::".len()..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != module {
                        to.insert(name);
                    }
                }
            }
        }
    }
    out
}

/// A loop of modules, if any: depth first, a module met again on the current path.
fn circle(arrows: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        arrows: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut c = path[i..].to_vec();
            c.push(m.to_string());
            return Some(c);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in arrows.get(m).into_iter().flatten() {
            if let Some(c) = visit(n, arrows, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    arrows
        .keys()
        .find_map(|m| visit(m, arrows, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_reaches_back() {
    let a = arrows();
    assert!(a.contains_key("server") && a.contains_key("api"), "{a:?}");
    assert!(a["server"].contains("api"), "{a:?}");
    assert_eq!(circle(&a), None, "import circle among cann-lsp's modules");
}

#[test]
fn a_circle_is_seen() {
    let mut a = arrows();
    a.entry("state".into()).or_default().insert("server".into());
    assert!(circle(&a).is_some());
}
