//! The shared tier against each store: a directory (no server), a real Redis server and a
//! real S3-protocol server (moto), both started on loopback by the tests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use support::{servers, Store, TestEnv};

fn fs_store() -> (tempfile::TempDir, Store) {
    let t = tempfile::tempdir().unwrap();
    let url = format!("file://{}", t.path().join("shared").display());
    (
        t,
        Store {
            url,
            env: TestEnv::default(),
        },
    )
}

macro_rules! on_every_store {
    ($($name:ident),* $(,)?) => {
        mod fs {
            $(#[test]
            fn $name() {
                let (_keep, store) = super::fs_store();
                super::support::$name(&store);
            })*
        }
        mod redis {
            $(#[test]
            fn $name() {
                let Some(server) = super::servers::redis() else { return };
                super::support::$name(&server.store);
            })*
        }
        mod s3 {
            $(#[test]
            fn $name() {
                let Some(server) = super::servers::s3() else { return };
                super::support::$name(&server.store);
            })*
        }
    };
}

on_every_store!(
    round_trip,
    scoping,
    corruption,
    concurrent_pushers,
    remote_gc,
    binary_format
);

/// A directory store never shows a half-written object: staging happens outside the listed
/// tree, so after a push nothing but whole objects and the scope description is there.
#[test]
fn fs_store_holds_only_whole_objects() {
    let (t, store) = fs_store();
    let a = support::Node::new("7.0.0", "7.0.0");
    a.fill(9, 3);
    a.push(&store);
    let root = t.path().join("shared");
    let mut seen = 0;
    for e in walk(&root.join("cce2")) {
        let name = e.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name == "scope.json"
                || cann_cache_remote::ObjectName::parse(&format!("x/{name}")).is_some(),
            "{name}"
        );
        seen += 1;
    }
    assert_eq!(seen, 5);
    assert_eq!(std::fs::read_dir(root.join(".cce-tmp")).unwrap().count(), 0);
}

fn walk(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(d).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}
