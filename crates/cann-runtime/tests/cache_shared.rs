//! One cache, many users. Two members of a group share a setgid cache directory under
//! `umask 002`; a third user outside the group may only read it; a read-only mount may only
//! be read. State files and entries follow the umask and the directory's group, the second
//! member can `info`, `verify`, `put` and `gc` what the first wrote, and the reader's `info`
//! and `verify` work without writing anything.
//!
//! The users are this test binary re-executed under `setpriv` with other uids (CI runs as
//! root); without root the multi-user test says "skipped" and the read-only test uses a
//! directory without write permission instead of a read-only mount.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use cann_runtime::cache::{
    AgingNeed, Cache, CacheDir, CacheError, GcOptions, GcOutcome, Limits, Lookup, MaxSize,
    NoProgress, OpenOptions, SystemClock,
};

mod cache_support;

const GROUP: u32 = 41_000;
const MEMBER_A: u32 = 41_001;
const MEMBER_B: u32 = 41_002;
const OUTSIDER: u32 = 41_003;
const ENTRY: usize = 32 * 1024;

fn opts() -> OpenOptions {
    OpenOptions {
        limits: Limits::fixed(MaxSize::Mb(1), 50),
        clock: Arc::new(SystemClock),
        durable: false,
        fault_hook: None,
    }
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Runs `role` as `uid` (primary group `gid`, supplementary `groups`) under `umask 002`.
fn run_as(exe: &Path, uid: u32, gid: u32, groups: &[u32], role: &str, dir: &CacheDir) {
    let groups = if groups.is_empty() {
        "--clear-groups".to_owned()
    } else {
        format!(
            "--groups={}",
            groups
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )
    };
    let out = Command::new("setpriv")
        .arg(format!("--reuid={uid}"))
        .arg(format!("--regid={gid}"))
        .arg(groups)
        .args(["--", "sh", "-c", "umask 002 && exec \"$0\" \"$@\""])
        .arg(exe)
        .args(["--exact", "worker", "--nocapture", "--test-threads", "1"])
        .env("SHARED_ROLE", role)
        .env("SHARED_DIR", &dir.base)
        .output()
        .expect("setpriv runs");
    assert!(
        out.status.success(),
        "{role} as uid {uid} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn done(o: GcOutcome) -> cann_runtime::cache::GcReport {
    match o {
        GcOutcome::Done(r) => r,
        GcOutcome::Skipped => panic!("skipped"),
    }
}

/// What a reader must be able to do, and must not be able to do.
fn read_only_checks(dir: &CacheDir, entries: u64) {
    let c = Cache::open_read_only(dir, opts()).unwrap();
    let s = c.startup_check().unwrap();
    assert_ne!(s.need, AgingNeed::No, "over the limit: {s:?}");
    let i = c.info(&NoProgress).unwrap();
    assert_eq!(i.entries, entries, "{i:?}");
    let v = c.verify(&NoProgress).unwrap();
    assert!(!v.has_errors() && v.entries == entries, "{v:?}");
    assert!(matches!(
        c.get("ascend910b/te_a_0").unwrap(),
        Lookup::Hit(_) | Lookup::Miss(_)
    ));
    assert!(matches!(
        c.gc(&GcOptions::default()),
        Err(CacheError::ReadOnly(_))
    ));
    // A dry run changes nothing, so it still says what a pass would do.
    let dry = done(
        c.gc(&GcOptions {
            dry_run: true,
            ..GcOptions::default()
        })
        .unwrap(),
    );
    assert!(dry.dry_run && dry.entries_before == entries, "{dry:?}");
    assert_eq!(dry.bytes_before, i.bytes, "{dry:?}");
    assert!(matches!(
        c.put("ascend910b/te_r", b"x", ".o", None),
        Err(CacheError::ReadOnly(_))
    ));
}

#[test]
fn worker() {
    let Ok(role) = std::env::var("SHARED_ROLE") else {
        return;
    };
    let dir = CacheDir::explicit(PathBuf::from(std::env::var("SHARED_DIR").unwrap())).unwrap();
    match role.as_str() {
        "member_a" => {
            // A compiled two hours ago (the test also ages the files' times).
            let two_hours = 2 * 3600 * 1_000_000_000;
            let clock = cann_runtime::cache::ManualClock::new(
                cann_runtime::cache::clock::system_now() - two_hours,
            );
            let c = Cache::open(
                &dir,
                OpenOptions {
                    clock: Arc::new(clock),
                    ..opts()
                },
            )
            .unwrap();
            for i in 0..41 {
                c.put(&format!("ascend910b/te_a_{i}"), &[1; ENTRY], ".o", None)
                    .unwrap();
            }
            // Replace one: the commit path as another user would see it.
            c.put("ascend910b/te_a_0", &[2; ENTRY], ".o", None).unwrap();
        }
        "member_b" => {
            let c = Cache::open(&dir, opts()).unwrap();
            c.put("ascend910b/te_b_0", &[3; ENTRY], ".o", None).unwrap();
            // A's entries were aged by the test: B's gc removes them from A's directory.
            // (Before any read by B: without owning them, B cannot open A's manifests with
            // O_NOATIME, so reading them counts as an access on a relatime mount.)
            let r = done(c.gc(&GcOptions::default()).unwrap());
            assert!(r.removed.len() >= 20, "{r:?}");
            assert!(r.bytes_after <= 512 * 1024, "{r:?}");
            let i = c.info(&NoProgress).unwrap();
            assert_eq!(i.entries, r.entries_after, "{i:?}");
            let v = c.verify(&NoProgress).unwrap();
            assert!(!v.has_errors() && v.ledger_matches, "{v:?}");
        }
        "reader" => read_only_checks(&dir, 41),
        // One directory it may not read: skipped, and said so.
        "reader_skipping" => {
            let c = Cache::open_read_only(&dir, opts()).unwrap();
            let i = c.info(&NoProgress).unwrap();
            assert_eq!(i.skipped_dirs, ["private"], "{i:?}");
            assert_eq!(i.entries, 41, "{i:?}");
        }
        // After B's gc: what is left is whole, and info agrees with verify.
        "reader_after_gc" => {
            let c = Cache::open_read_only(&dir, opts()).unwrap();
            let v = c.verify(&NoProgress).unwrap();
            assert!(!v.has_errors(), "{v:?}");
            let i = c.info(&NoProgress).unwrap();
            assert_eq!(i.entries, v.entries, "{i:?} {v:?}");
        }
        other => panic!("unknown role {other}"),
    }
    std::process::exit(0);
}

fn walk(p: &Path, out: &mut Vec<(PathBuf, std::fs::Metadata)>) {
    for e in std::fs::read_dir(p).unwrap() {
        let e = e.unwrap();
        let m = std::fs::symlink_metadata(e.path()).unwrap();
        if m.is_dir() {
            walk(&e.path(), out);
        }
        out.push((e.path(), m));
    }
}

#[test]
fn group_members_share_a_setgid_cache_and_outsiders_read_it() {
    if !is_root() {
        println!("skipped: other users need root (setpriv); CI runs as root");
        return;
    }
    let t = cache_support::tmp();
    std::fs::set_permissions(t.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // Other uids must be able to run the test binary.
    let exe = t.path().join("worker-exe");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    let shared = t.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::os::unix::fs::chown(&shared, Some(0), Some(GROUP)).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o2775)).unwrap();
    let dir = CacheDir::explicit(shared.join("cache")).unwrap();

    run_as(&exe, MEMBER_A, MEMBER_A, &[GROUP], "member_a", &dir);
    let mut all = Vec::new();
    walk(&dir.base, &mut all);
    assert!(all.len() > 80, "{all:?}");
    for (p, m) in &all {
        let name = p.file_name().unwrap().to_string_lossy();
        assert_eq!(
            m.gid(),
            GROUP,
            "{} not in the directory's group",
            p.display()
        );
        if m.is_dir() {
            assert_eq!(m.mode() & 0o2070, 0o2070, "{}: {:o}", p.display(), m.mode());
        } else if name != "op_cache_file_del.lock" {
            // Ledger, index, locks, manifests, binaries: 0666 under umask 002.
            assert_eq!(m.mode() & 0o777, 0o664, "{}: {:o}", p.display(), m.mode());
        }
    }

    // The outsider reads A's 41 entries (1.3 MB, over the 1 MB limit) and changes nothing.
    run_as(&exe, OUTSIDER, OUTSIDER, &[], "reader", &dir);
    let private = dir.kernel_cache().join("private");
    cache_support::write_cann_entry(&private, "te_p", 1024);
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    run_as(&exe, OUTSIDER, OUTSIDER, &[], "reader_skipping", &dir);
    std::fs::remove_dir_all(&private).unwrap();

    let soc = dir.kernel_cache().join("ascend910b");
    let old = cann_runtime::cache::clock::system_now() - 2 * 3600 * 1_000_000_000;
    for e in std::fs::read_dir(&soc).unwrap() {
        cache_support::age_file(&e.unwrap().path(), old);
    }
    run_as(&exe, MEMBER_B, MEMBER_B, &[GROUP], "member_b", &dir);
    run_as(&exe, OUTSIDER, OUTSIDER, &[], "reader_after_gc", &dir);
}

#[test]
fn info_and_verify_work_on_a_read_only_cache() {
    let t = cache_support::tmp();
    let dir = cache_support::dir_of(&t);
    {
        let c = Cache::open(&dir, opts()).unwrap();
        for i in 0..41 {
            c.put(&format!("ascend910b/te_a_{i}"), &[1; ENTRY], ".o", None)
                .unwrap();
        }
    }
    if is_root() {
        // Root writes through any permission: a read-only bind mount, in a private mount
        // namespace, is the read-only medium.
        let exe = std::env::current_exe().unwrap();
        let script = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && \
                      exec \"$0\" --exact worker --nocapture --test-threads 1";
        let out = Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", script])
            .arg(&exe)
            .arg(&dir.base)
            .env("SHARED_ROLE", "reader")
            .env("SHARED_DIR", &dir.base)
            .output()
            .unwrap();
        if !out.status.success()
            && String::from_utf8_lossy(&out.stderr).contains("mount")
            && !String::from_utf8_lossy(&out.stdout).contains("panicked")
        {
            println!(
                "skipped: no read-only bind mount here ({})",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            return;
        }
        assert!(
            out.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    } else {
        let mut all = Vec::new();
        walk(&dir.base, &mut all);
        for (p, m) in all
            .iter()
            .chain([(dir.base.clone(), std::fs::metadata(&dir.base).unwrap())].iter())
        {
            let mode = m.mode() & 0o555;
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        read_only_checks(&dir, 41);
        // Give the temporary directory back its write permission so it can be removed.
        for (p, m) in all.iter().rev() {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m.mode() | 0o200)).unwrap();
        }
        std::fs::set_permissions(&dir.base, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}
