//! Precedence and validity of `op_cache.ini` vs environment vs defaults, the ratio
//! arithmetic, version stamps and lossless ini updates.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::cache::env::{
    ASCEND_MAX_OP_CACHE_SIZE as MAX_VAR, ASCEND_REMAIN_CACHE_SIZE_RATIO as RATIO_VAR,
};
use cann_runtime::cache::ini::IniDoc;
use cann_runtime::cache::{
    open_session, resolve_limits, stamp_versions, CacheDir, CacheMode, CacheSettings, EnvSnapshot,
    IniUse, Limits, Lookup, ManualClock, MaxSize, Miss, Origin, ToolkitVersions, VersionStamp,
};
use std::path::PathBuf;
use std::sync::Arc;

mod cache_support;
use cache_support::*;

fn ini(max: &str, ratio: &str) -> String {
    format!("[op_compiler_cache]\nmax_op_cache_size={max}\nremain_cache_size_ratio={ratio}\n")
}

fn resolve(ini_text: Option<&str>, env: &EnvSnapshot) -> Limits {
    let doc = ini_text.map(IniDoc::parse);
    Limits::resolve(
        doc.as_ref().map(|d| (PathBuf::from("/c/op_cache.ini"), d)),
        env,
    )
}

fn env(max: Option<&str>, ratio: Option<&str>) -> EnvSnapshot {
    let mut e = EnvSnapshot::empty();
    if let Some(m) = max {
        e = e.with(MAX_VAR, m)
    }
    if let Some(r) = ratio {
        e = e.with(RATIO_VAR, r)
    }
    e
}

#[test]
fn defaults_when_nothing_is_set() {
    let l = resolve(None, &EnvSnapshot::empty());
    assert_eq!((l.max, l.remain_ratio), (MaxSize::Mb(500), 50));
    assert_eq!(
        (l.max_origin.clone(), l.ini.clone()),
        (Origin::Default, IniUse::Missing)
    );
    assert!(l.findings.is_empty());
}

#[test]
fn valid_ini_beats_env() {
    let l = resolve(Some(&ini("800", "80")), &env(Some("100"), Some("10")));
    assert_eq!(
        (l.max, l.remain_ratio, l.ini.clone()),
        (MaxSize::Mb(800), 80, IniUse::Applied)
    );
    assert!(
        matches!(l.max_origin, Origin::Ini { .. }) && matches!(l.ratio_origin, Origin::Ini { .. })
    );
}

#[test]
fn ini_max_edges() {
    for (v, ok) in [
        ("0", false),
        ("-1", true),
        ("-2", false),
        ("1", true),
        ("2147483647", true),
        ("2147483648", false),
        ("abc", false),
        ("500MB", false),
        ("", false),
        ("99999999999999999999", false),
    ] {
        let l = resolve(Some(&ini(v, "80")), &env(Some("100"), None));
        if ok {
            assert_eq!(l.ini, IniUse::Applied, "{v}");
            assert_eq!(l.remain_ratio, 80);
        } else {
            assert_eq!(l.ini, IniUse::Ignored, "{v}");
            // Both values fall back, the valid ratio too: the file counts only as a whole.
            assert_eq!((l.max, l.remain_ratio), (MaxSize::Mb(100), 50), "{v}");
            let f = &l.findings[0];
            assert_eq!(f.name, "max_op_cache_size");
            assert!(
                f.valid.contains("2147483647") && f.fallback.contains("ignored"),
                "{f:?}"
            );
        }
    }
    assert_eq!(
        resolve(Some(&ini("-1", "80")), &EnvSnapshot::empty()).max,
        MaxSize::AgingOff
    );
    assert_eq!(
        resolve(Some(&ini("2147483647", "1")), &EnvSnapshot::empty()).max,
        MaxSize::Mb(2_147_483_647)
    );
}

#[test]
fn ini_ratio_edges() {
    for (v, ok) in [
        ("0", false),
        ("1", true),
        ("100", true),
        ("101", false),
        ("-1", false),
        ("x", false),
        ("50.5", false),
    ] {
        let l = resolve(Some(&ini("800", v)), &EnvSnapshot::empty());
        assert_eq!(l.ini == IniUse::Applied, ok, "{v}");
        if !ok {
            assert_eq!((l.max, l.remain_ratio), (MaxSize::Mb(500), 50));
            assert_eq!(l.findings[0].valid, "1..=100 (percent)");
        }
    }
}

#[test]
fn missing_section_or_key_ignores_the_file() {
    let l = resolve(
        Some("max_op_cache_size=800\nremain_cache_size_ratio=80\n"),
        &EnvSnapshot::empty(),
    );
    assert_eq!((l.ini.clone(), l.max), (IniUse::Ignored, MaxSize::Mb(500)));
    assert!(l.findings[0].problem.contains("section"));
    let l = resolve(
        Some("[op_compiler_cache]\nmax_op_cache_size=800\n"),
        &env(None, Some("70")),
    );
    assert_eq!(
        (l.ini.clone(), l.max, l.remain_ratio),
        (IniUse::Ignored, MaxSize::Mb(500), 70)
    );
    assert_eq!(l.findings[0].name, "remain_cache_size_ratio");
    assert_eq!(l.findings[0].problem, "key is missing");
    let l = resolve(
        Some("[op_compiler_cache]\nremain_cache_size_ratio=80\n"),
        &EnvSnapshot::empty(),
    );
    assert_eq!(l.findings[0].name, "max_op_cache_size");
    // Keys in another section do not count.
    let l = resolve(
        Some("[other]\nmax_op_cache_size=800\nremain_cache_size_ratio=80\n[op_compiler_cache]\n"),
        &EnvSnapshot::empty(),
    );
    assert_eq!(l.ini, IniUse::Ignored);
}

#[test]
fn env_edges_each_value_on_its_own() {
    for (v, want) in [
        ("0", None),
        ("-1", Some(MaxSize::AgingOff)),
        ("-2", None),
        ("2147483646", Some(MaxSize::Mb(2_147_483_646))),
        ("2147483647", None),
        ("ten", None),
        (" 42 ", Some(MaxSize::Mb(42))),
    ] {
        let l = resolve(None, &env(Some(v), Some("30")));
        assert_eq!(
            l.remain_ratio, 30,
            "a bad size does not spoil a good ratio ({v})"
        );
        match want {
            Some(m) => assert_eq!((l.max, l.findings.len()), (m, 0), "{v}"),
            None => {
                assert_eq!(l.max, MaxSize::Mb(500), "{v}");
                assert_eq!(l.findings[0].fallback, "default 500 MB");
                assert!(l.findings[0].valid.contains("upper bound excluded"));
            }
        }
    }
    for (v, want) in [
        ("0", Some(0)),
        ("100", Some(100)),
        ("101", None),
        ("-1", None),
        ("half", None),
    ] {
        let l = resolve(None, &env(None, Some(v)));
        assert_eq!(l.max, MaxSize::Mb(500));
        match want {
            Some(r) => assert_eq!(l.remain_ratio, r, "{v}"),
            None => assert_eq!(
                (l.remain_ratio, l.findings[0].valid),
                (50, "0..=100 (percent)"),
                "{v}"
            ),
        }
    }
    // Empty means unset, no finding.
    assert!(resolve(None, &env(Some(""), Some(""))).findings.is_empty());
}

#[test]
fn invalid_ini_falls_back_to_env_then_default_and_reports_both() {
    let l = resolve(Some(&ini("-2", "101")), &env(Some("abc"), Some("20")));
    assert_eq!((l.max, l.remain_ratio), (MaxSize::Mb(500), 20));
    let names: Vec<_> = l.findings.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        [
            "max_op_cache_size",
            "remain_cache_size_ratio",
            "ASCEND_MAX_OP_CACHE_SIZE"
        ]
    );
}

#[test]
fn ratio_arithmetic() {
    let l = Limits::fixed(MaxSize::Mb(500), 50);
    assert_eq!(
        (l.max_bytes(), l.retained_bytes()),
        (Some(524_288_000), Some(262_144_000))
    );
    assert!(l.over_limit(524_288_000) && !l.over_limit(524_287_999));
    let l = Limits::fixed(MaxSize::Mb(3), 33);
    assert_eq!(l.retained_bytes(), Some(3 * 1_048_576 * 33 / 100));
    let l = Limits::fixed(MaxSize::Mb(u32::try_from(i32::MAX).unwrap()), 100);
    assert_eq!(l.retained_bytes(), Some(2_147_483_647 * 1_048_576));
    let l = Limits::fixed(MaxSize::Mb(1), 0);
    assert_eq!(l.retained_bytes(), Some(0));
    let off = Limits::fixed(MaxSize::AgingOff, 50);
    assert!(!off.aging_enabled() && off.max_bytes().is_none() && !off.over_limit(u64::MAX));
}

#[test]
fn limits_read_from_the_directory() {
    let t = tmp();
    let d = CacheDir::explicit(t.path()).unwrap();
    std::fs::write(d.ini_path(), ini("64", "25")).unwrap();
    let l = resolve_limits(&d, &env(Some("1"), None)).unwrap();
    assert_eq!((l.max, l.remain_ratio), (MaxSize::Mb(64), 25));
}

fn v(adk: &str, ops: &str) -> ToolkitVersions {
    ToolkitVersions {
        adk: adk.into(),
        ops: ops.into(),
    }
}

#[test]
fn stamping_versions_never_loses_user_settings() {
    let t = tmp();
    let d = CacheDir::explicit(t.path()).unwrap();
    assert_eq!(
        stamp_versions(&d, &v("8.0", "8.0")).unwrap(),
        VersionStamp::Created
    );
    let created = std::fs::read_to_string(d.ini_path()).unwrap();
    assert!(
        created.starts_with("[op_compiler_cache]\nadk_version=8.0\nops_version=8.0\n"),
        "{created}"
    );
    let user = "# my notes\r\n[op_compiler_cache]\r\nmax_op_cache_size = 900\r\nadk_version=8.0\r\nremain_cache_size_ratio=70\r\nunknown_key=keep\r\n\r\n[team]\r\nowner=me\r\n";
    std::fs::write(d.ini_path(), user).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(d.ini_path(), std::fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(
        stamp_versions(&d, &v("8.0", "8.0")).unwrap(),
        VersionStamp::Changed {
            old_adk: Some("8.0".into()),
            old_ops: None
        }
    );
    let after = std::fs::read_to_string(d.ini_path()).unwrap();
    assert_eq!(
        after,
        user.replace(
            "unknown_key=keep\r\n",
            "unknown_key=keep\r\nops_version=8.0\r\n"
        )
    );
    assert_eq!(
        std::fs::metadata(d.ini_path())
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o600
    );
    assert_eq!(
        stamp_versions(&d, &v("8.0", "8.0")).unwrap(),
        VersionStamp::Same
    );
    assert_eq!(
        stamp_versions(&d, &v("8.1", "8.0")).unwrap(),
        VersionStamp::Changed {
            old_adk: Some("8.0".into()),
            old_ops: Some("8.0".into())
        }
    );
    let l = resolve_limits(&d, &EnvSnapshot::empty()).unwrap();
    assert_eq!((l.max, l.remain_ratio), (MaxSize::Mb(900), 70));
    // No temporary left behind.
    let names: Vec<_> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn version_change_invalidates_older_entries() {
    let t = tmp();
    let clock = ManualClock::new(t0());
    let settings = |ver: &str| CacheSettings {
        mode: CacheMode::Enable,
        dir: Some(t.path().join("c")),
        versions: Some(v(ver, "1")),
        ..CacheSettings::default()
    };
    let s = open_session(
        &settings("1"),
        &EnvSnapshot::empty(),
        Arc::new(clock.clone()),
    )
    .unwrap();
    assert_eq!(s.versions, VersionStamp::Created);
    clock.advance(MIN);
    let c = s.cache.unwrap();
    c.put("k", b"old", ".o", None).unwrap();
    clock.advance(MIN);
    let s = open_session(
        &settings("1"),
        &EnvSnapshot::empty(),
        Arc::new(clock.clone()),
    )
    .unwrap();
    assert!(!s.invalidated);
    assert!(matches!(
        s.cache.as_ref().unwrap().get("k").unwrap(),
        Lookup::Hit(_)
    ));
    clock.advance(MIN);
    let s = open_session(
        &settings("2"),
        &EnvSnapshot::empty(),
        Arc::new(clock.clone()),
    )
    .unwrap();
    assert!(s.invalidated);
    assert_eq!(
        s.cache.as_ref().unwrap().get("k").unwrap(),
        Lookup::Miss(Miss::Invalidated)
    );
}

#[test]
fn disabled_policy_opens_nothing() {
    let t = tmp();
    let settings = CacheSettings {
        mode: CacheMode::Enable,
        op_debug_level: Some(1),
        dir: Some(t.path().join("c")),
        ..CacheSettings::default()
    };
    let s = open_session(
        &settings,
        &EnvSnapshot::empty(),
        Arc::new(ManualClock::new(t0())),
    )
    .unwrap();
    assert!(s.cache.is_none());
    assert!(
        !t.path().join("c").exists(),
        "a disabled cache creates no directory"
    );
}
