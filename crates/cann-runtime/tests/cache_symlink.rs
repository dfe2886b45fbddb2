//! A shared cache directory invites symlink tricks: nothing is ever followed, nothing
//! outside the cache root is ever deleted, links are at most unlinked.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::symlink;
use std::path::Path;

use cann_runtime::cache::{
    Cache, CacheError, GcOptions, GcOutcome, Lookup, NoProgress, OpenOptions,
};

mod cache_support;
use cache_support::*;

/// Files outside the cache that a hostile layout points at.
fn outside(t: &Path) -> std::path::PathBuf {
    let o = t.join("outside");
    write_cann_entry(&o, "victim", 1000);
    std::fs::write(o.join("secret.o"), b"do not delete").unwrap();
    o
}

fn assert_outside_intact(o: &Path) {
    assert_eq!(std::fs::read(o.join("secret.o")).unwrap(), b"do not delete");
    assert!(o.join("victim.json").exists() && o.join("victim.o").exists());
}

#[test]
fn symlinks_are_never_followed_by_get_gc_verify_or_clear() {
    let t = tmp();
    let o = outside(t.path());
    let d = dir_of(&t);
    let (c, clock) = manual(&d, Some(1), 0);
    let soc = kc(&d).join("soc");
    std::fs::create_dir_all(&soc).unwrap();
    // 1. A manifest that is a symlink to a manifest elsewhere.
    symlink(o.join("victim.json"), soc.join("te_link.json")).unwrap();
    // 2. A real manifest whose binary is a symlink to a file elsewhere.
    std::fs::write(
        soc.join("te_a.json"),
        r#"{"binFileName":"te_a","binFileSuffix":".o"}"#,
    )
    .unwrap();
    symlink(o.join("secret.o"), soc.join("te_a.o")).unwrap();
    // 3. A manifest whose binary name climbs out of the directory.
    std::fs::write(
        soc.join("te_up.json"),
        r#"{"binFileName":"../../../outside/secret","binFileSuffix":".o"}"#,
    )
    .unwrap();
    // 4. A directory inside the cache that is a symlink to a directory elsewhere.
    symlink(&o, kc(&d).join("evil")).unwrap();
    // 5. A normal old entry that puts the cache over its limit.
    write_cann_entry(&soc, "te_big", 2 * 1_048_576);
    for stem in ["te_link", "te_a", "te_up", "te_big"] {
        age_entry(&soc, stem, t0() - 3 * 24 * 60 * MIN);
    }
    for k in ["soc/te_link", "soc/te_a", "soc/te_up", "evil/victim"] {
        assert!(
            matches!(c.get(k).unwrap(), Lookup::Miss(_)),
            "{k} must not resolve through a link"
        );
    }
    let v = c.verify(&NoProgress).unwrap();
    let mut foreign: Vec<_> = v.foreign.iter().map(|f| f.0.as_str()).collect();
    foreign.sort();
    assert_eq!(foreign, ["evil", "soc/te_a.o", "soc/te_link.json"]);
    let mut torn: Vec<_> = v.torn.iter().map(|x| x.rel.as_str()).collect();
    torn.sort();
    assert_eq!(torn, ["soc/te_a.json", "soc/te_up.json"], "{v:?}");
    clock.advance(31 * MIN);
    let GcOutcome::Done(r) = c.gc(&GcOptions::default()).unwrap() else {
        panic!()
    };
    assert!(
        r.removed.iter().all(|x| !x.rel.starts_with("evil")),
        "{r:?}"
    );
    assert_outside_intact(&o);
    assert!(!soc.join("te_big.json").exists(), "the real old entry aged");
    let cleared = c.clear(&NoProgress).unwrap();
    assert!(cleared.links_removed >= 2, "{cleared:?}");
    assert!(
        std::fs::symlink_metadata(kc(&d).join("evil")).is_err(),
        "the link itself is gone"
    );
    assert_outside_intact(&o);
}

#[test]
fn a_symlinked_kernel_cache_is_refused() {
    let t = tmp();
    let o = outside(t.path());
    let d = dir_of(&t);
    std::fs::create_dir_all(&d.base).unwrap();
    symlink(&o, d.kernel_cache()).unwrap();
    let err = Cache::open(&d, OpenOptions::default()).unwrap_err();
    assert!(matches!(err, CacheError::Symlink(_)), "{err}");
    assert_outside_intact(&o);
}

#[test]
fn a_symlinked_state_directory_is_refused() {
    let t = tmp();
    let o = outside(t.path());
    let d = dir_of(&t);
    std::fs::create_dir_all(d.kernel_cache()).unwrap();
    symlink(&o, d.kernel_cache().join(".cann-cache")).unwrap();
    assert!(Cache::open(&d, OpenOptions::default()).is_err());
    assert_outside_intact(&o);
}
