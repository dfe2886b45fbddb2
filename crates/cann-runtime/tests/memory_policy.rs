//! Option codes and `static_memory_policy` / `GE_USE_STATIC_MEMORY` resolution.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::memory::policy::{parse_env, Input};
use cann_runtime::memory::{
    resolve, AtomicCleanPolicy, HugePagePolicy, InvalidCode, PolicySource, ResolutionWarning,
    StaticMemoryPolicy as P,
};

#[test]
fn codes_round_trip_and_invalid_codes_are_typed() {
    for code in 0..=4 {
        assert_eq!(P::from_code(code).unwrap().code(), code);
    }
    for code in 0..=1 {
        assert_eq!(AtomicCleanPolicy::from_code(code).unwrap().code(), code);
    }
    for code in 0..=2 {
        assert_eq!(HugePagePolicy::from_code(code).unwrap().code(), code);
    }
    assert_eq!(
        P::from_code(5),
        Err(InvalidCode {
            option: "static_memory_policy",
            code: 5,
            expected: "0, 1, 2, 3, 4"
        })
    );
    assert!(P::try_from(-1).is_err());
    assert_eq!(
        AtomicCleanPolicy::from_code(2).unwrap_err().option,
        "atomic_clean_policy"
    );
    let e = HugePagePolicy::from_code(3).unwrap_err();
    assert_eq!(
        e.to_string(),
        "3 is not a valid `variable_use_1g_huge_page`; expected one of 0, 1, 2"
    );
}

#[test]
fn parts_of_each_policy() {
    let parts = |p: P| (p.static_expansion(), p.dynamic_expansion());
    assert_eq!(parts(P::Dynamic), (false, false));
    assert_eq!(parts(P::LegacyStatic), (true, false));
    assert_eq!(parts(P::StaticExpand), (true, false));
    assert_eq!(parts(P::DynamicExpand), (false, true));
    assert_eq!(parts(P::BothExpand), (true, true));
    assert_eq!(P::LegacyStatic.normalized(), P::StaticExpand);
    assert!(P::Dynamic.allows_concurrent_graphs() && P::DynamicExpand.allows_concurrent_graphs());
    assert!(
        !P::StaticExpand.allows_concurrent_graphs() && !P::BothExpand.allows_concurrent_graphs()
    );
}

#[test]
fn nothing_set_is_policy_0_from_defaults() {
    let r = resolve(None, None);
    assert_eq!(r.effective, P::Dynamic);
    assert_eq!(r.static_expansion, PolicySource::Default);
    assert_eq!(r.dynamic_expansion, PolicySource::Default);
    assert!(r.warnings.is_empty());
}

#[test]
fn option_alone_and_env_alone() {
    let r = resolve(Some(P::DynamicExpand), None);
    assert_eq!(r.effective, P::DynamicExpand);
    assert_eq!(
        (r.static_expansion, r.dynamic_expansion),
        (PolicySource::Default, PolicySource::Option)
    );
    assert_eq!(r.warnings, vec![ResolutionWarning::PerformanceCost(3)]);

    let r = resolve(None, Some("2"));
    assert_eq!(r.effective, P::StaticExpand);
    assert_eq!(
        (r.static_expansion, r.dynamic_expansion),
        (PolicySource::Env, PolicySource::Default)
    );
    assert_eq!(r.warnings, vec![ResolutionWarning::NoConcurrentGraphs(2)]);
}

#[test]
fn env_2_with_option_3_is_4() {
    let r = resolve(Some(P::DynamicExpand), Some("2"));
    assert_eq!(r.effective, P::BothExpand);
    assert_eq!(r.static_expansion, PolicySource::Env);
    assert_eq!(r.dynamic_expansion, PolicySource::Option);
    assert_eq!(
        r.warnings,
        vec![
            ResolutionWarning::Combined {
                option: 3,
                env: 2,
                effective: 4
            },
            ResolutionWarning::NoConcurrentGraphs(4),
            ResolutionWarning::PerformanceCost(4),
        ]
    );
}

#[test]
fn union_cases() {
    // (option, env) -> (effective, static origin, dynamic origin)
    let cases = [
        (
            Some(P::BothExpand),
            Some("3"),
            P::BothExpand,
            PolicySource::Option,
            PolicySource::Both,
        ),
        (
            Some(P::StaticExpand),
            Some("4"),
            P::BothExpand,
            PolicySource::Both,
            PolicySource::Env,
        ),
        (
            Some(P::Dynamic),
            Some("3"),
            P::DynamicExpand,
            PolicySource::Default,
            PolicySource::Env,
        ),
        (
            Some(P::StaticExpand),
            Some("0"),
            P::StaticExpand,
            PolicySource::Option,
            PolicySource::Default,
        ),
        (
            Some(P::StaticExpand),
            Some("2"),
            P::StaticExpand,
            PolicySource::Both,
            PolicySource::Default,
        ),
        (
            Some(P::LegacyStatic),
            Some("3"),
            P::BothExpand,
            PolicySource::Option,
            PolicySource::Env,
        ),
        (
            None,
            Some(" 4 "),
            P::BothExpand,
            PolicySource::Env,
            PolicySource::Env,
        ),
    ];
    for (option, env, effective, s, d) in cases {
        let r = resolve(option, env);
        assert_eq!(
            (r.effective, r.static_expansion, r.dynamic_expansion),
            (effective, s, d),
            "{option:?} {env:?}"
        );
    }
    // Same policy from both sides is not a combination worth warning about.
    assert!(!resolve(Some(P::StaticExpand), Some("2"))
        .warnings
        .iter()
        .any(|w| matches!(w, ResolutionWarning::Combined { .. })));
}

#[test]
fn legacy_1_is_2_with_a_warning_naming_its_source() {
    let r = resolve(Some(P::LegacyStatic), None);
    assert_eq!(r.effective, P::StaticExpand);
    assert_eq!(r.warnings[0], ResolutionWarning::LegacyAlias(Input::Option));
    let r = resolve(None, Some("1"));
    assert_eq!(r.effective, P::StaticExpand);
    assert_eq!(r.warnings[0], ResolutionWarning::LegacyAlias(Input::Env));
    assert_eq!(
        r.warnings[0].to_string(),
        "GE_USE_STATIC_MEMORY = 1 is a legacy value and is treated as 2"
    );
    // 1 and 2 are the same policy: no "combined" warning.
    let r = resolve(Some(P::LegacyStatic), Some("2"));
    assert!(!r
        .warnings
        .iter()
        .any(|w| matches!(w, ResolutionWarning::Combined { .. })));
}

#[test]
fn invalid_env_is_ignored_with_a_warning() {
    for bad in ["5", "-1", "two", "2.0", "0x2"] {
        let r = resolve(Some(P::DynamicExpand), Some(bad));
        assert_eq!(r.effective, P::DynamicExpand, "{bad}");
        assert_eq!(r.dynamic_expansion, PolicySource::Option);
        assert_eq!(
            r.warnings[0],
            ResolutionWarning::InvalidEnv {
                value: bad.to_owned()
            }
        );
    }
    // Empty means unset, not invalid.
    assert_eq!(parse_env(""), Ok(None));
    assert_eq!(parse_env("  "), Ok(None));
    assert!(resolve(None, Some("")).warnings.is_empty());
}
