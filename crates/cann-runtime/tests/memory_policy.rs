//! `static_memory_policy` / `GE_USE_STATIC_MEMORY` resolution over the spec's own types, with
//! the spec's rules as its warnings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cann_runtime::memory::policy::parse_env;
use cann_runtime::memory::{
    resolve, Expansion, PolicySource, ResolutionWarning, StaticMemoryPolicy as P,
};

/// The spec's rule `id`, as a resolution warning.
fn rule(id: &str) -> ResolutionWarning {
    ResolutionWarning::Rule(cann_config::RULES.iter().find(|r| r.id == id).unwrap())
}

const NOT_CONCURRENT: &str = "static-memory-policy-not-concurrent";
const COSTS_SPEED: &str = "expandable-memory-costs-speed";

#[test]
fn parts_of_each_policy() {
    let parts = |p: P| (p.static_expansion(), p.dynamic_expansion());
    assert_eq!(parts(P::Dynamic), (false, false));
    assert_eq!(parts(P::StaticShapeExpand), (true, false));
    assert_eq!(parts(P::DynamicShapeExpand), (false, true));
    assert_eq!(parts(P::AllShapeExpand), (true, true));
    assert!(
        P::Dynamic.allows_concurrent_graphs() && P::DynamicShapeExpand.allows_concurrent_graphs()
    );
    assert!(
        !P::StaticShapeExpand.allows_concurrent_graphs()
            && !P::AllShapeExpand.allows_concurrent_graphs()
    );
    // The environment variable means what the option means, value for value: its codes
    // parse into the option's own enum.
    for p in P::ALL {
        let (e, legacy) = parse_env(&p.code().to_string()).unwrap().unwrap();
        assert_eq!((e, legacy), (*p, false));
        assert_eq!(parts(e), parts(*p));
    }
}

/// The rules the runtime warns with are the ones `check` applies to the same option value,
/// in both languages.
#[test]
fn warnings_are_the_spec_rules() {
    let r = resolve(Some(P::AllShapeExpand), None);
    assert_eq!(r.warnings, vec![rule(NOT_CONCURRENT), rule(COSTS_SPEED)]);
    let rule_meta = cann_config::RULES
        .iter()
        .find(|r| r.id == COSTS_SPEED)
        .unwrap();
    assert_eq!(
        r.warnings[1].message(cann_config::meta::Lang::Zh),
        rule_meta.message.zh
    );
    assert_eq!(r.warnings[1].to_string(), rule_meta.message.en);
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
    let r = resolve(Some(P::DynamicShapeExpand), None);
    assert_eq!(r.effective, P::DynamicShapeExpand);
    assert_eq!(
        (r.static_expansion, r.dynamic_expansion),
        (PolicySource::Default, PolicySource::Option)
    );
    assert_eq!(r.warnings, vec![rule(COSTS_SPEED)]);

    let r = resolve(None, Some("2"));
    assert_eq!(r.effective, P::StaticShapeExpand);
    assert_eq!(
        (r.static_expansion, r.dynamic_expansion),
        (PolicySource::Env, PolicySource::Default)
    );
    assert_eq!(r.warnings, vec![rule(NOT_CONCURRENT)]);
}

#[test]
fn env_2_with_option_3_is_4() {
    let r = resolve(Some(P::DynamicShapeExpand), Some("2"));
    assert_eq!(r.effective, P::AllShapeExpand);
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
            rule(NOT_CONCURRENT),
            rule(COSTS_SPEED),
        ]
    );
}

#[test]
fn union_cases() {
    // (option, env) -> (effective, static origin, dynamic origin)
    let cases = [
        (
            Some(P::AllShapeExpand),
            Some("3"),
            P::AllShapeExpand,
            PolicySource::Option,
            PolicySource::Both,
        ),
        (
            Some(P::StaticShapeExpand),
            Some("4"),
            P::AllShapeExpand,
            PolicySource::Both,
            PolicySource::Env,
        ),
        (
            Some(P::Dynamic),
            Some("3"),
            P::DynamicShapeExpand,
            PolicySource::Default,
            PolicySource::Env,
        ),
        (
            Some(P::StaticShapeExpand),
            Some("0"),
            P::StaticShapeExpand,
            PolicySource::Option,
            PolicySource::Default,
        ),
        (
            Some(P::StaticShapeExpand),
            Some("2"),
            P::StaticShapeExpand,
            PolicySource::Both,
            PolicySource::Default,
        ),
        (
            None,
            Some(" 4 "),
            P::AllShapeExpand,
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
    assert!(!resolve(Some(P::StaticShapeExpand), Some("2"))
        .warnings
        .iter()
        .any(|w| matches!(w, ResolutionWarning::Combined { .. })));
}

#[test]
fn legacy_env_1_is_2_with_a_warning() {
    let r = resolve(None, Some("1"));
    assert_eq!(r.effective, P::StaticShapeExpand);
    assert_eq!(
        r.warnings[0],
        ResolutionWarning::LegacyEnv {
            value: "1".into(),
            canonical: 2
        }
    );
    assert_eq!(
        r.warnings[0].to_string(),
        "GE_USE_STATIC_MEMORY = 1 is a legacy spelling of 2"
    );
    assert_eq!(
        r.warnings[0].message(cann_config::meta::Lang::Zh),
        "GE_USE_STATIC_MEMORY = 1 是 2 的旧写法"
    );
    // 1 and 2 are the same policy: no "combined" warning.
    let r = resolve(Some(P::StaticShapeExpand), Some("1"));
    assert!(!r
        .warnings
        .iter()
        .any(|w| matches!(w, ResolutionWarning::Combined { .. })));
}

#[test]
fn invalid_env_is_ignored_with_a_warning() {
    for bad in ["5", "-1", "two", "2.0", "0x2"] {
        let r = resolve(Some(P::DynamicShapeExpand), Some(bad));
        assert_eq!(r.effective, P::DynamicShapeExpand, "{bad}");
        assert_eq!(r.dynamic_expansion, PolicySource::Option);
        assert_eq!(
            r.warnings[0],
            ResolutionWarning::InvalidEnv {
                value: bad.to_owned(),
                expected: "0, 1, 2, 3, 4".into()
            }
        );
    }
    // Empty means unset, not invalid.
    assert_eq!(parse_env(""), Ok(None));
    assert_eq!(parse_env("  "), Ok(None));
    assert!(resolve(None, Some("")).warnings.is_empty());
}

/// Where a part of the policy came from reads in the language asked for; the option's and
/// the variable's names stay as the spec spells them.
#[test]
fn policy_sources_are_worded_in_each_language() {
    use cann_config::meta::Lang;
    let words = |lang| {
        [
            PolicySource::Default,
            PolicySource::Option,
            PolicySource::Env,
            PolicySource::Both,
        ]
        .map(|s| s.describe(lang))
    };
    assert_eq!(
        words(Lang::En),
        [
            "default (off)",
            "static_memory_policy",
            "GE_USE_STATIC_MEMORY",
            "static_memory_policy and GE_USE_STATIC_MEMORY",
        ]
    );
    assert_eq!(
        words(Lang::Zh),
        [
            "默认（关闭）",
            "static_memory_policy",
            "GE_USE_STATIC_MEMORY",
            "static_memory_policy 与 GE_USE_STATIC_MEMORY",
        ]
    );
    assert_eq!(PolicySource::Both.to_string(), words(Lang::En)[3]);
}
