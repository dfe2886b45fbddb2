//! The spec's release history agrees with the adapter's own, as `cargo xtask
//! upstream-history` read it from the release branches and tags into
//! `spec/history/upstream-refs.json`: which session keys `npu_attrs.cc` reads, which
//! constructor keywords `npu_config.py` takes and which TF2 paths exist at each ref.
//!
//! A release is compared with the last tag that names its build (`tfa_v0.0.20_7.0.0.alpha003`
//! stands for 7.0.0), also where the spec does not model that release: an option the spec
//! makes available from its first release must be in the newest tag before it, a removed
//! option (or spelling) must be absent from every tagged release from its removal on and
//! present in some ref before, an option "never read" must be read by no ref at all.
//! Every disagreement fails unless `spec/fidelity/exceptions.yaml` explains it (a finding
//! `history:KEY`, with the reason and a cited line); an entry that no longer matches fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};

use cann_config::meta::{Gone, IntroducedMeta, OptionMeta, RemovalMeta};
use cann_config::{Release, OPTIONS};
use serde_json::Value;

const REFS: &str = include_str!("../../../spec/history/upstream-refs.json");

const EXCEPTIONS: &str = include_str!("../../../spec/fidelity/exceptions.yaml");

/// Disagreements with the code history that the spec keeps on purpose: entries of
/// `spec/fidelity/exceptions.yaml` whose finding is `history:KEY` (KEY as this test names
/// it), for the release KEY names (the newest released one where it names none). An option
/// the spec has from its first release while the build before lacks it is not one: the spec
/// says so with `introduced`, which `introduced` below checks.
fn explained(key: &str) -> Option<usize> {
    let known: Vec<&str> = Release::ALL.iter().map(|r| r.id()).collect();
    let exceptions =
        cann_spec::fidelity::parse_exceptions("spec/fidelity/exceptions.yaml", EXCEPTIONS, &known)
            .unwrap_or_else(|e| panic!("{e}"));
    let release = key
        .split(':')
        .nth(1)
        .filter(|r| known.contains(r))
        .unwrap_or(Release::LATEST.id());
    exceptions
        .iter()
        .position(|e| e.covers(&format!("history:{key}"), release))
}

fn history_exceptions() -> Vec<String> {
    let known: Vec<&str> = Release::ALL.iter().map(|r| r.id()).collect();
    cann_spec::fidelity::parse_exceptions("spec/fidelity/exceptions.yaml", EXCEPTIONS, &known)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .filter_map(|e| e.finding.strip_prefix("history:").map(String::from))
        .collect()
}

/// A CANN release id as a sortable key: `7.0.RC1` before `7.0.0` before `8.0.RC2`.
fn order(id: &str) -> (u32, u32, u32, u32) {
    let mut parts = id.split('.');
    let n = |p: Option<&str>| p.and_then(|s| s.parse().ok()).unwrap_or(0);
    let major = n(parts.next());
    let minor = n(parts.next());
    match parts.next() {
        Some(p) if p.starts_with("RC") => (major, minor, 0, n(Some(&p[2..]))),
        p => (major, minor, 1, n(p)),
    }
}

/// What one ref has.
struct Tag {
    /// The tag or branch name.
    name: String,
    build: String,
    session: BTreeSet<String>,
    writes: BTreeSet<String>,
    constructors: BTreeMap<String, BTreeSet<String>>,
    tf2: Option<BTreeSet<String>>,
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(String::from))
        .collect()
}

fn tag(r: &Value) -> Tag {
    Tag {
        name: r["ref"].as_str().unwrap().to_string(),
        build: r["build"]
            .as_str()
            .unwrap_or(r["ref"].as_str().unwrap())
            .to_string(),
        session: strings(&r["session"]),
        writes: strings(&r["estimator_writes"]),
        constructors: r["constructors"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(c, ps)| (c.clone(), strings(ps)))
            .collect(),
        tf2: r["tf2"].as_array().map(|_| strings(&r["tf2"])),
    }
}

struct History {
    /// Every ref, in date order.
    all: Vec<Tag>,
    /// Release id -> its last tagged build, oldest release first.
    releases: Vec<(String, Tag)>,
}

fn history() -> History {
    let doc: Value = serde_json::from_str(REFS).unwrap();
    let refs = doc["refs"].as_array().unwrap();
    let mut last: BTreeMap<(u32, u32, u32, u32), (String, &Value)> = BTreeMap::new();
    for r in refs {
        if let Some(rel) = r["release"].as_str() {
            // Refs are in date order: a later build of a release replaces an earlier one,
            // and a tag always replaces a branch named for the release (`9.0.0`,
            // `dev/tf2.13-CANN9.0.0` go on after the release's tag; the release is the tag).
            let tagged = |v: &Value| v["kind"] == "tag";
            match last.get(&order(rel)) {
                Some((_, prev)) if tagged(prev) && !tagged(r) => {}
                _ => {
                    last.insert(order(rel), (rel.to_string(), r));
                }
            }
        }
    }
    History {
        all: refs.iter().map(tag).collect(),
        releases: last.into_values().map(|(id, r)| (id, tag(r))).collect(),
    }
}

/// One way of setting an option: a session key, a constructor keyword, a TF2 path.
#[derive(Clone, Copy)]
enum Surface<'a> {
    Session(&'a str),
    Keyword(&'a str, &'a str),
    Tf2(&'a str),
}

impl Surface<'_> {
    /// Whether the ref has it; `None` where the ref has no such tree at all (TF2 before
    /// 2021). A session key is there when the adapter reads it or NPUEstimator writes it
    /// (an option only written does nothing, but setting it is no error).
    fn in_tag(self, t: &Tag) -> Option<bool> {
        match self {
            Surface::Session(k) => Some(t.session.contains(k) || t.writes.contains(k)),
            Surface::Keyword(c, k) => Some(t.constructors.get(c).is_some_and(|s| s.contains(k))),
            Surface::Tf2(p) => t.tf2.as_ref().map(|s| s.contains(p)),
        }
    }

    fn label(self) -> String {
        match self {
            Surface::Session(k) => format!("session:{k}"),
            Surface::Keyword(c, k) => format!("keyword:{c}.{k}"),
            Surface::Tf2(p) => format!("tf2:{p}"),
        }
    }
}

fn surfaces(o: &OptionMeta) -> Vec<Surface<'static>> {
    let mut out = Vec::new();
    if let Some((k, _)) = o.session {
        out.push(Surface::Session(k));
    }
    if let Some(k) = o.estimator {
        out.push(Surface::Keyword(o.config, k));
    }
    if let Some(p) = o.tf2 {
        out.push(Surface::Tf2(p));
    }
    out
}

/// The surfaces a removal retires: the ones it names, or all of the option's.
fn retired(o: &OptionMeta, r: &RemovalMeta) -> Vec<Surface<'static>> {
    if r.is_whole() {
        return surfaces(o);
    }
    let mut out = Vec::new();
    if let Some((k, _)) = r.surfaces.session {
        out.push(Surface::Session(k));
    }
    if let Some(k) = r.surfaces.estimator {
        out.push(Surface::Keyword(o.config, k));
    }
    if let Some(p) = r.surfaces.tf2 {
        out.push(Surface::Tf2(p));
    }
    out
}

struct Found(Vec<(String, String)>);

impl Found {
    fn add(&mut self, key: String, detail: String) {
        self.0.push((key, detail));
    }
}

/// Whether a release (by id) no longer has what `gone` retires; `None` for "never read".
fn gone_in(gone: Gone, id: &str) -> Option<bool> {
    match gone {
        Gone::After(last) => Some(order(id) > order(last.id())),
        Gone::Before(first_without) => Some(order(id) >= order(first_without.id())),
        Gone::Never => None,
    }
}

fn removals(h: &History, o: &OptionMeta, found: &mut Found) {
    for r in o.removed {
        let gone = retired(o, r);
        if r.gone == Gone::Never {
            // Never read: no ref of either repository reads the key, at any time.
            for s in &gone {
                if matches!(s, Surface::Keyword(..)) {
                    // A keyword may be accepted and dropped; the key is what is never read.
                    continue;
                }
                let read = |t: &&Tag| match s {
                    Surface::Session(k) => t.session.contains(*k),
                    _ => s.in_tag(t) == Some(true),
                };
                if let Some(t) = h.all.iter().find(read) {
                    found.add(
                        format!("never-read-present:{}:{}", o.path, s.label()),
                        format!("retired as never read, but {} has it", t.build),
                    );
                }
            }
            continue;
        }
        for s in &gone {
            let later = h
                .releases
                .iter()
                .filter(|(id, _)| gone_in(r.gone, id) == Some(true));
            for (id, t) in later {
                if s.in_tag(t) == Some(true) {
                    found.add(
                        format!("retired-present:{id}:{}:{}", o.path, s.label()),
                        format!(
                            "retired by {id} in the spec, but the {} build has it",
                            t.build
                        ),
                    );
                }
            }
            if !h.all.iter().any(|t| s.in_tag(t) == Some(true)) {
                found.add(
                    format!("retired-never-seen:{}:{}", o.path, s.label()),
                    "no ref ever had it: retire it as never read".into(),
                );
            }
            if let Gone::After(last) = r.gone {
                let at = h.releases.iter().find(|(id, _)| id == last.id());
                if let Some((id, t)) = at {
                    if s.in_tag(t) == Some(false) {
                        found.add(
                            format!("retired-gone-earlier:{id}:{}:{}", o.path, s.label()),
                            format!(
                                "{id} is its last release, but the {} build lacks it",
                                t.build
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// The option exists from `available.from` on: present in that release's build where
/// there is one, absent from the build before it when that is not the spec's first release,
/// and present in the newest build before the spec's first release when it starts there.
fn availability(h: &History, o: &OptionMeta, found: &mut Found) {
    let whole_gone = o.removed.iter().any(|r| r.is_whole());
    if whole_gone {
        return;
    }
    let live: Vec<Surface<'static>> = surfaces(o)
        .into_iter()
        .filter(|s| {
            !o.removed
                .iter()
                .any(|r| retired(o, r).iter().any(|g| g.label() == s.label()))
        })
        .collect();
    if live.is_empty() {
        return;
    }
    let has = |t: &Tag| live.iter().any(|s| s.in_tag(t) == Some(true));
    let first = Release::ALL[0];
    let from = o.available.from.unwrap_or(first);
    let last = o.available.last;
    for (id, t) in &h.releases {
        let k = order(id);
        let inside =
            k >= order(from.id()) && last.is_none_or(|l| k <= order(l.id())) && spec_has(id);
        if inside && !has(t) {
            found.add(
                format!("absent:{id}:{}", o.path),
                format!(
                    "available in {id} in the spec, but the {} build lacks it",
                    t.build
                ),
            );
        }
        if k < order(from.id()) && from != first && has(t) {
            found.add(
                format!("earlier:{id}:{}", o.path),
                format!(
                    "available from {} in the spec, but the {} build has it",
                    from.id(),
                    t.build
                ),
            );
        }
    }
    if let Some(i) = &o.introduced {
        introduced(h, o, i, &has, found);
    } else if from == first {
        let before = h
            .releases
            .iter()
            .rev()
            .find(|(id, _)| order(id) < order(first.id()));
        if let Some((id, t)) = before {
            if !has(t) {
                found.add(
                    format!("new-after:{id}:{}", o.path),
                    format!(
                        "the spec has it from {}, but the {} build lacks it",
                        first.id(),
                        t.build
                    ),
                );
            }
        }
    }
}

/// `introduced`: the build of `after` lacks the option, the build of `first_recorded` (where
/// tagged) has it, no tagged release between them could narrow the interval, and the
/// sources name the tags the claim rests on.
fn introduced(
    h: &History,
    o: &OptionMeta,
    i: &IntroducedMeta,
    has: &dyn Fn(&Tag) -> bool,
    found: &mut Found,
) {
    let (after, first) = (order(i.after), order(i.first_recorded.id()));
    let cited = |t: &Tag| i.source.iter().any(|s| s.contains(&t.name));
    match h.releases.iter().find(|(id, _)| id == i.after) {
        None => found.add(
            format!("introduced-untagged:{}:{}", i.after, o.path),
            format!("no tagged build of {} tells that it lacks it", i.after),
        ),
        Some((id, t)) if has(t) => found.add(
            format!("introduced-present:{id}:{}", o.path),
            format!(
                "`after` says {id} lacks it, but the {} build has it",
                t.build
            ),
        ),
        Some((id, t)) if !cited(t) => found.add(
            format!("introduced-unsourced:{id}:{}", o.path),
            format!("the sources do not name {}, the build it rests on", t.name),
        ),
        Some(_) => {}
    }
    for (id, t) in &h.releases {
        let k = order(id);
        if k > after && k < first {
            let (what, why) = if has(t) {
                ("earlier", "has it: `first_recorded` can move back")
            } else {
                ("later", "lacks it: `after` can move on")
            };
            found.add(
                format!("introduced-{what}:{id}:{}", o.path),
                format!("the {} build {why}", t.build),
            );
        }
    }
    if let Some((id, t)) = h
        .releases
        .iter()
        .find(|(id, _)| id == i.first_recorded.id())
    {
        if !has(t) {
            found.add(
                format!("introduced-absent:{id}:{}", o.path),
                format!("first recorded in {id}, but the {} build lacks it", t.build),
            );
        } else if !cited(t) {
            found.add(
                format!("introduced-unsourced:{id}:{}", o.path),
                format!("the sources do not name {}, the build it rests on", t.name),
            );
        }
    }
}

fn spec_has(id: &str) -> bool {
    Release::ALL.iter().any(|r| r.id() == id)
}

#[test]
fn the_release_history_agrees_with_the_adapters_branches_and_tags() {
    let h = history();
    let mut found = Found(Vec::new());
    for o in OPTIONS.iter() {
        if surfaces(o).is_empty() {
            continue;
        }
        removals(&h, o, &mut found);
        availability(&h, o, &mut found);
    }
    let unexplained: Vec<String> = found
        .0
        .iter()
        .filter(|(k, _)| explained(k).is_none())
        .map(|(k, d)| format!("{k}: {d}"))
        .collect();
    let stale: Vec<String> = history_exceptions()
        .into_iter()
        .filter(|a| !found.0.iter().any(|(k, _)| k == a))
        .collect();
    assert!(
        unexplained.is_empty() && stale.is_empty(),
        "{} disagreements with spec/history/upstream-refs.json:\n{}\n\nexceptions (history:...) that no longer match: {stale:?}",
        unexplained.len(),
        unexplained.join("\n")
    );
}

#[test]
fn every_ref_names_its_commit_and_the_releases_are_in_order() {
    let doc: Value = serde_json::from_str(REFS).unwrap();
    let refs = doc["refs"].as_array().unwrap();
    for r in refs {
        let c = r["commit"].as_str().unwrap_or_default();
        assert!(
            c.len() == 40 && c.bytes().all(|b| b.is_ascii_hexdigit()),
            "{}: {c:?}",
            r["ref"]
        );
    }
    let dates: Vec<&str> = refs.iter().map(|r| r["date"].as_str().unwrap()).collect();
    assert!(
        dates.windows(2).all(|w| w[0] <= w[1]),
        "refs not in date order"
    );
    // The tagged releases read in date order are also in release order, and include the
    // spec's newest release.
    let h = history();
    let ids: Vec<&str> = h.releases.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["6.3.RC1", "6.3.RC2", "7.0.RC1", "7.0.0", "9.0.0"]);
    assert!(ids.contains(&Release::LATEST.id()));
}

#[test]
fn release_ids_sort_as_cann_releases() {
    let mut ids = [
        "8.0.0", "7.0.RC1", "9.0.0", "8.0.RC2", "7.0.0", "6.3.RC2", "8.0.RC3",
    ];
    ids.sort_by_key(|id| order(id));
    assert_eq!(
        ids,
        ["6.3.RC2", "7.0.RC1", "7.0.0", "8.0.RC2", "8.0.RC3", "8.0.0", "9.0.0"]
    );
}

#[test]
fn an_introduced_fact_that_the_refs_contradict_is_found() {
    let h = history();
    let o = OPTIONS
        .iter()
        .find(|o| o.introduced.is_some())
        .expect("the spec has an option of unknown first release");
    let real = o.introduced.expect("just found");
    let run = |i: IntroducedMeta| {
        let mut found = Found(Vec::new());
        let live = surfaces(o);
        let has = |t: &Tag| live.iter().any(|s| s.in_tag(t) == Some(true));
        introduced(&h, o, &i, &has, &mut found);
        found.0.into_iter().map(|(k, _)| k).collect::<Vec<_>>()
    };
    assert!(run(real).is_empty(), "{:?}", run(real));
    // Claimed absent from an older build only: the tagged releases in between lack it too.
    let early = run(IntroducedMeta {
        after: "6.3.RC2",
        ..real
    });
    assert!(
        early.contains(&format!("introduced-later:7.0.0:{}", o.path)),
        "{early:?}"
    );
    // Sources that do not name the tags the claim rests on.
    let bare = run(IntroducedMeta {
        source: &["somewhere"],
        ..real
    });
    assert_eq!(bare.len(), 2, "{bare:?}");
    // A release with no tagged build cannot back `after`.
    let untagged = run(IntroducedMeta {
        after: "6.2.RC1",
        ..real
    });
    assert!(
        untagged[0].starts_with("introduced-untagged"),
        "{untagged:?}"
    );
}

#[test]
fn a_release_stands_for_its_tag_not_a_branch_named_for_it() {
    // hicann/tensorflow's `9.0.0` and `dev/tf2.13-CANN9.0.0` branches name the release too,
    // and the second goes on after the tag (TF 2.13 support): the release is its tag.
    let h = history();
    let (_, t) = h.releases.iter().find(|(id, _)| id == "9.0.0").unwrap();
    assert_eq!(t.name, "tfa_v0.0.48_9.0.0");
    let (_, t) = h.releases.iter().find(|(id, _)| id == "7.0.0").unwrap();
    assert_eq!(t.name, "tfa_v0.0.20_7.0.0.alpha003");
}

/// Every `owner/name@ref` of the adapter's repositories in spec/options, where the ref is a
/// name rather than a commit.
fn named_refs() -> BTreeSet<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/options");
    let mut out = BTreeSet::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        for repo in ["Ascend/tensorflow@", "hicann/tensorflow@"] {
            for (i, _) in text.match_indices(repo) {
                let rest = &text[i + repo.len()..];
                let end = rest
                    .find(|c: char| c == ':' || c.is_whitespace() || c == '"')
                    .unwrap_or(rest.len());
                let r = &rest[..end];
                if !r.is_empty() && !r.bytes().all(|b| b.is_ascii_hexdigit()) {
                    out.insert((repo.trim_end_matches('@').to_string(), r.to_string()));
                }
            }
        }
    }
    out
}

#[test]
fn every_tag_or_branch_a_source_names_is_a_ref_the_history_read() {
    let doc: Value = serde_json::from_str(REFS).unwrap();
    let known: BTreeSet<(String, String)> = doc["refs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["repo"].as_str().unwrap().to_string(),
                r["ref"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let named = named_refs();
    assert!(named.len() > 10, "{named:?}");
    let unknown: Vec<_> = named.difference(&known).collect();
    assert!(unknown.is_empty(), "not in upstream-refs.json: {unknown:?}");
}

#[test]
fn graph_compiler_cache_dir_on_npurunconfig_names_every_tag_that_has_it() {
    // The claim "three tags take it on NPURunConfig", against every tag read.
    let doc: Value = serde_json::from_str(REFS).unwrap();
    let with: BTreeSet<String> = doc["refs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["constructors"]["NPURunConfig"]
                .as_array()
                .is_some_and(|ks| ks.iter().any(|k| k == "graph_compiler_cache_dir"))
        })
        .map(|r| r["ref"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        with.iter().map(String::as_str).collect::<Vec<_>>(),
        [
            "tfa_v0.0.10_mt",
            "tfa_v0.0.8_mt",
            "tfa_v0.0.9_6.3.RC2.alpha003"
        ]
    );
    let o = OPTIONS
        .iter()
        .find(|o| o.path == "npu_run_config.graph_compiler_cache_dir")
        .unwrap();
    let cited: Vec<&str> = o
        .removed
        .iter()
        .flat_map(|r| r.source.iter().copied())
        .collect();
    for t in &with {
        assert!(
            cited.iter().any(|s| s.contains(&format!("@{t}:"))),
            "{t} not cited: {cited:?}"
        );
    }
}
