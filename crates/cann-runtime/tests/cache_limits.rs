//! Precedence and validity of `op_cache.ini` vs environment vs defaults, the ratio
//! arithmetic, version stamps and lossless ini updates.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::cache::env::{
    ASCEND_MAX_OP_CACHE_SIZE as MAX_VAR, ASCEND_REMAIN_CACHE_SIZE_RATIO as RATIO_VAR,
};
use cann_runtime::cache::ini::IniDoc;
use cann_runtime::cache::{
    open_session, resolve_limits, stamp_versions, CacheDir, CacheMode, CacheSettings, EnvSnapshot,
    Fallback, IniUse, Limits, Lookup, ManualClock, MaxSize, Miss, Origin, Problem, ToolkitVersions,
    VersionStamp,
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
            assert_eq!(
                (f.valid.as_str(), &f.fallback),
                ("-1 or 1..=2147483647", &Fallback::IniIgnored),
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
            assert_eq!(l.findings[0].valid, "1..=100");
            assert_eq!(l.findings[0].unit, Some("percent"));
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
    assert_eq!(
        l.findings[0].problem,
        Problem::SectionMissing {
            section: "op_compiler_cache"
        }
    );
    let l = resolve(
        Some("[op_compiler_cache]\nmax_op_cache_size=800\n"),
        &env(None, Some("70")),
    );
    assert_eq!(
        (l.ini.clone(), l.max, l.remain_ratio),
        (IniUse::Ignored, MaxSize::Mb(500), 70)
    );
    assert_eq!(l.findings[0].name, "remain_cache_size_ratio");
    assert_eq!(l.findings[0].problem, Problem::KeyMissing);
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
                assert_eq!(
                    l.findings[0].fallback,
                    Fallback::Default {
                        value: "500".into()
                    }
                );
                assert_eq!(l.findings[0].valid, "-1 or 1..=2147483646");
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
                (l.remain_ratio, l.findings[0].valid.as_str()),
                (50, "0..=100"),
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
        mode: Some(CacheMode::Enable),
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
        mode: Some(CacheMode::Enable),
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

/// Every value near an edge of the spec's ranges, its special values, and the compiler's own
/// edges (`INT_MAX`), for one integer option.
fn probes(
    range: Option<cann_config::meta::RangeMeta>,
    special: &[(i64, cann_config::meta::Text)],
) -> Vec<i64> {
    let mut v = vec![-2, -1, 0, 1, 2, 49, 50, 99, 100, 101, 500];
    v.extend([
        i64::from(i32::MAX) - 1,
        i64::from(i32::MAX),
        i64::from(i32::MAX) + 1,
    ]);
    if let Some(r) = range {
        for b in [r.min, r.max].into_iter().flatten() {
            v.extend([b - 1, b, b + 1]);
        }
    }
    v.extend(special.iter().map(|(s, _)| *s));
    v.sort_unstable();
    v.dedup();
    v
}

/// `cannctl check` and the runtime decide the same for every environment value: the runtime
/// applies a value exactly when the spec's validator accepts it.
#[test]
fn runtime_and_spec_agree_on_the_environment() {
    use cann_runtime::cache::facts::{ENV_MAX_SIZE, ENV_REMAIN_RATIO};
    let target = cann_config::Target {
        product: *cann_config::Product::ALL.last().unwrap(),
        release: *cann_config::Release::ALL.last().unwrap(),
    };
    for o in [ENV_MAX_SIZE, ENV_REMAIN_RATIO] {
        let var = o.env.unwrap();
        for v in probes(o.range_in(target.release), o.special) {
            let file = cann_config::parse_config(&format!("env:\n  {var}: {v}\n")).unwrap();
            let spec_ok = !cann_config::validate(&file.config, target).has_errors();
            let l = resolve(None, &EnvSnapshot::empty().with(var, v.to_string()));
            let runtime_ok = !l.findings.iter().any(|f| f.name == var);
            assert_eq!(runtime_ok, spec_ok, "{var}={v}");
        }
    }
}

/// The runtime accepts an `op_cache.ini` value exactly when the spec's key accepts it.
#[test]
fn runtime_and_spec_agree_on_the_ini() {
    use cann_runtime::cache::facts::{INI_MAX_SIZE, INI_REMAIN_RATIO};
    for (k, other) in [
        (INI_MAX_SIZE, INI_REMAIN_RATIO),
        (INI_REMAIN_RATIO, INI_MAX_SIZE),
    ] {
        for v in probes(k.range, k.special) {
            let mut text = format!("[{}]\n{}={v}\n", k.section, k.name);
            text.push_str(&format!("{}={}\n", other.name, other.default.unwrap()));
            let l = resolve(Some(&text), &EnvSnapshot::empty());
            assert_eq!(l.ini == IniUse::Applied, k.accepts(v), "{}={v}", k.name);
        }
    }
}

/// The spec's ranges are the compiler's: `UpdateOpCacheSizeCfg` (file: -1 or 1..=INT_MAX,
/// ratio 1..=100), `GetCacheSpaceMaxSizeCfg` (environment: -1 or 1..INT_MAX) and
/// `GetCacheRemainSizeRadio` (environment: 0..=100), in
/// hicann/ge@ffdcbc9:compiler/opcompiler/op_compile_adapter/source/cache/te_cache_space_manager.cc.
#[test]
fn the_spec_states_the_compilers_ranges() {
    use cann_runtime::cache::facts::{
        ENV_MAX_SIZE, ENV_REMAIN_RATIO, INI_MAX_SIZE, INI_REMAIN_RATIO,
    };
    use cann_runtime::cache::limits::AGING_OFF;
    let int_max = i64::from(i32::MAX);
    for v in probes(INI_MAX_SIZE.range, INI_MAX_SIZE.special) {
        assert_eq!(
            INI_MAX_SIZE.accepts(v),
            v == -1 || (1..=int_max).contains(&v),
            "ini max {v}"
        );
        assert_eq!(
            ENV_MAX_SIZE.accepts_int(v),
            v == -1 || (1..int_max).contains(&v),
            "env max {v}"
        );
        assert_eq!(
            INI_REMAIN_RATIO.accepts(v),
            (1..=100).contains(&v),
            "ini ratio {v}"
        );
        assert_eq!(
            ENV_REMAIN_RATIO.accepts_int(v),
            (0..=100).contains(&v),
            "env ratio {v}"
        );
    }
    // The one special value of the limit is the switch the runtime implements.
    for special in [INI_MAX_SIZE.special, ENV_MAX_SIZE.special] {
        assert_eq!(special.iter().map(|s| s.0).collect::<Vec<_>>(), [AGING_OFF]);
    }
}
