//! `op_cache.ini` in a shared directory is anyone's file: a FIFO, a device, a symlink to
//! `/dev/zero` or `/dev/urandom`, a directory or a huge file in its place must be refused
//! at once with a message naming it, never waited on or read without end. A BOM is dropped.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use cann_runtime::cache::{read_ini, resolve_limits, EnvSnapshot, MaxSize};

mod cache_support;

fn refused(make: impl FnOnce(&std::path::Path), what: &str) {
    let t = cache_support::tmp();
    let d = cache_support::dir_of(&t);
    std::fs::create_dir_all(&d.base).unwrap();
    make(&d.ini_path());
    let start = Instant::now();
    let err = resolve_limits(&d, &EnvSnapshot::empty()).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{what}: took too long"
    );
    let msg = err.to_string();
    assert!(msg.contains("op_cache.ini"), "{what}: {msg}");
    assert!(read_ini(&d).is_err(), "{what}");
}

#[test]
fn special_files_in_place_of_op_cache_ini_are_refused_at_once() {
    refused(
        |p| {
            rustix::fs::mknodat(
                rustix::fs::CWD,
                p,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
                0,
            )
            .unwrap()
        },
        "fifo",
    );
    for target in ["/dev/zero", "/dev/urandom", "/dev/null"] {
        refused(|p| std::os::unix::fs::symlink(target, p).unwrap(), target);
    }
    refused(|p| std::fs::create_dir(p).unwrap(), "directory");
    refused(
        |p| std::fs::write(p, vec![b'#'; 100 * 1024]).unwrap(),
        "100 KiB file",
    );
    // A character device itself (root only: mknod needs CAP_MKNOD).
    let t = cache_support::tmp();
    let dev = t.path().join("zero");
    let made = rustix::fs::mknodat(
        rustix::fs::CWD,
        &dev,
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        rustix::fs::makedev(1, 5),
    );
    match made {
        Ok(()) => refused(
            |p| {
                rustix::fs::mknodat(
                    rustix::fs::CWD,
                    p,
                    rustix::fs::FileType::CharacterDevice,
                    rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
                    rustix::fs::makedev(1, 5),
                )
                .unwrap()
            },
            "character device",
        ),
        Err(e) => println!("skipped: character device op_cache.ini needs CAP_MKNOD ({e})"),
    }
}

#[test]
fn a_bom_is_dropped() {
    let t = cache_support::tmp();
    let d = cache_support::dir_of(&t);
    std::fs::create_dir_all(&d.base).unwrap();
    std::fs::write(
        d.ini_path(),
        "\u{feff}[op_compiler_cache]\nmax_op_cache_size=7\nremain_cache_size_ratio=40\n",
    )
    .unwrap();
    let l = resolve_limits(&d, &EnvSnapshot::empty()).unwrap();
    assert_eq!((l.max, l.remain_ratio), (MaxSize::Mb(7), 40), "{l:?}");
}
