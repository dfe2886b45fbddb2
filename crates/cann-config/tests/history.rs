//! Retired options across releases: every option the spec retires is an error once no
//! release reads it, names what to use instead, and shows in `diff` where it went.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use cann_config::diff::diff;
use cann_config::meta::{Gone, Lang, Lit, OptionMeta, Severity, TypeMeta};
use cann_config::{parse_config, validate_into, Release, Report, OPTIONS};
use common::*;

/// A config file setting `o` (a leaf option) to a value of its type.
fn setting(o: &OptionMeta) -> Option<String> {
    let value = match o.ty {
        TypeMeta::Bool => "true".to_string(),
        TypeMeta::Int => o.range.and_then(|r| r.min).unwrap_or(0).to_string(),
        TypeMeta::Float => "0.5".to_string(),
        TypeMeta::IntEnum | TypeMeta::StrEnum => match o.values.first()?.value {
            Lit::Int(i) => i.to_string(),
            Lit::Float(x) => x.to_string(),
            Lit::Str(s) => format!("{s:?}"),
            Lit::Bool(b) => b.to_string(),
        },
        TypeMeta::Str | TypeMeta::Path { .. } => "\"a\"".to_string(),
        TypeMeta::CorePair => "\"1|1\"".to_string(),
        TypeMeta::Config(_) | TypeMeta::Object(_) => return None,
    };
    Some(set_to(o, &value))
}

/// A config file setting `o` to `value` (YAML text).
fn set_to(o: &OptionMeta, value: &str) -> String {
    let parts: Vec<&str> = o.path.split('.').collect();
    let mut yaml = String::new();
    for (depth, p) in parts.iter().enumerate() {
        let indent = "  ".repeat(depth);
        if depth + 1 == parts.len() {
            yaml.push_str(&format!("{indent}{p}: {value}\n"));
        } else {
            yaml.push_str(&format!("{indent}{p}:\n"));
        }
    }
    yaml
}

fn findings(o: &OptionMeta, release: Release, lang: Lang) -> Vec<cann_config::Diagnostic> {
    let Some(yaml) = setting(o) else {
        return Vec::new();
    };
    findings_of(o, &yaml, release, lang)
}

fn findings_of(
    o: &OptionMeta,
    yaml: &str,
    release: Release,
    lang: Lang,
) -> Vec<cann_config::Diagnostic> {
    let f = parse_config(yaml).unwrap_or_else(|e| panic!("{}: {e:?}", o.path));
    assert!(f.diagnostics.is_empty(), "{}: {:?}", o.path, f.diagnostics);
    // Any product the release knows: a removal holds on every one of them.
    let product = release.meta().products[0];
    let mut r = Report::new(lang);
    validate_into(&f.config, cann_config::Target { product, release }, &mut r);
    r.diagnostics
}

fn retired() -> impl Iterator<Item = &'static OptionMeta> {
    OPTIONS.iter().filter(|o| o.removal().is_some())
}

/// The option itself, or the removed class it sits in, which is reported instead.
fn reported_at(o: &OptionMeta, release: Release) -> &'static str {
    OPTIONS
        .iter()
        .filter(|p| o.path.starts_with(&format!("{}.", p.path)))
        .find(|p| p.removed_in(release).is_some())
        .map_or(o.path, |p| p.path)
}

#[test]
fn the_spec_models_retired_options() {
    assert!(retired().count() >= 16, "{}", retired().count());
}

#[test]
fn a_retired_option_is_an_error_naming_its_replacement_once_no_release_reads_it() {
    for o in retired() {
        let r = o.removal().unwrap();
        if matches!(o.ty, TypeMeta::Config(_)) {
            continue; // reached through its fields
        }
        for &release in Release::ALL.iter().filter(|rel| r.gone_in(**rel)) {
            let ds = findings(o, release, Lang::En);
            if cann_config::history::is_env(o) {
                // A retired variable may be the script's own name: a warning, not an error.
                let [w] = ds.as_slice() else {
                    panic!("{} in {release}: one warning, got {ds:#?}", o.path);
                };
                assert_eq!(w.severity, Severity::Warning, "{w:?}");
                assert!(w.message.contains("no longer reads"), "{}", w.message);
                continue;
            }
            let errs: Vec<_> = ds
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            assert_eq!(errs.len(), 1, "{} in {release}: {ds:#?}", o.path);
            let e = errs[0];
            let at = reported_at(o, release);
            assert_eq!(e.option, at);
            if at != o.path {
                continue; // the class's removal, said at the class
            }
            let said = match r.gone {
                Gone::After(last) => format!("{last} is the last release that supports it"),
                Gone::Before(b) => format!("no release since {b} supports it"),
                Gone::Never => "no release of the adapter reads it".to_string(),
            };
            assert!(e.message.contains(&said), "{}: {}", o.path, e.message);
            if let Some(rep) = r.replacement {
                assert!(e.hint.as_deref().unwrap().contains(rep), "{e:?}");
            }
            // Said once, as an error: no deprecation warning besides.
            assert!(ds.iter().all(|d| d.severity == Severity::Error), "{ds:#?}");
        }
    }
}

/// Upstream ignores an empty value of some retired options (`empty_ignored` on the removal,
/// as cann-lint reads it): set to `""` where no release reads it, such an option is a
/// warning that the setting has no effect, not the removal's error. Any other value, and an
/// empty value of any other retired option, stays an error.
#[test]
fn an_empty_value_upstream_ignores_is_a_warning_not_the_removal_error() {
    let strings = || {
        retired()
            .filter(|o| matches!(o.ty, TypeMeta::Str | TypeMeta::Path { .. }))
            .filter(|o| !cann_config::history::is_env(o))
    };
    let ignoring: Vec<_> = strings()
        .filter(|o| o.removal().unwrap().ignores_empty())
        .collect();
    assert!(
        !ignoring.is_empty(),
        "the spec marks no removal empty_ignored"
    );
    for o in strings() {
        let r = o.removal().unwrap();
        for &release in Release::ALL.iter().filter(|rel| r.gone_in(**rel)) {
            if reported_at(o, release) != o.path {
                continue; // the class's removal, said at the class
            }
            let ds = findings_of(o, &set_to(o, "\"\""), release, Lang::En);
            let errs = ds.iter().filter(|d| d.severity == Severity::Error).count();
            if !r.ignores_empty() {
                assert_eq!(errs, 1, "{} = \"\" in {release}: {ds:#?}", o.path);
                continue;
            }
            assert_eq!(errs, 0, "{} = \"\" in {release}: {ds:#?}", o.path);
            let [w] = ds.as_slice() else {
                panic!("{} = \"\" in {release}: one warning, got {ds:#?}", o.path);
            };
            assert_eq!(w.severity, Severity::Warning);
            assert_eq!(w.option, o.path);
            assert_eq!(w.value.as_deref(), Some("\"\""));
            assert!(w.message.contains("has no effect"), "{}", w.message);
            assert!(w.message.contains("was removed"), "{}", w.message);
            if let Some(rep) = r.replacement {
                assert!(w.hint.as_deref().unwrap().contains(rep), "{w:?}");
            }
            let zh = findings_of(o, &set_to(o, "\"\""), release, Lang::Zh);
            assert_eq!(zh.len(), 1, "{zh:#?}");
            assert_eq!(zh[0].severity, Severity::Warning);
            assert!(zh[0].message.contains("不会生效"), "{}", zh[0].message);
            // A value that is not empty is refused as before.
            let ds = findings_of(o, &set_to(o, "\"RL,GA\""), release, Lang::En);
            let errs: Vec<_> = ds
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            assert_eq!(
                errs.len(),
                1,
                "{} = \"RL,GA\" in {release}: {ds:#?}",
                o.path
            );
            assert!(
                errs[0].message.contains("was removed"),
                "{}",
                errs[0].message
            );
        }
    }
}

#[test]
fn a_retired_option_is_accepted_up_to_its_last_release() {
    for o in retired() {
        let Gone::After(last) = o.removal().unwrap().gone else {
            continue;
        };
        for &release in Release::ALL
            .iter()
            .filter(|r| **r <= last && o.available.contains(**r))
        {
            let ds = findings(o, release, Lang::En);
            assert!(
                !ds.iter().any(|d| d.message.contains("was removed")),
                "{} in {release}: {ds:#?}",
                o.path
            );
        }
    }
}

#[test]
fn a_key_no_release_reads_is_an_error_in_every_release() {
    let ds = check(
        "npu_run_config:\n  enable_auto_mix_precision: true\n",
        "atlas-training",
        "8.0.RC2",
    );
    let e = errors(&ds);
    assert_eq!(e.len(), 1, "{ds:#?}");
    assert!(e[0].message.contains("no release of the adapter reads it"));
    let hint = e[0].hint.as_deref().unwrap();
    assert!(hint.contains("npu_run_config.precision_mode"), "{hint}");
    assert!(hint.contains("true -> \"allow_mix_precision\""), "{hint}");
}

#[test]
fn the_removal_is_said_in_chinese_too() {
    let o = OPTIONS
        .iter()
        .find(|o| o.name == "enable_auto_mix_precision")
        .unwrap();
    let ds = findings(o, Release::LATEST, Lang::Zh);
    assert!(
        ds[0].message.contains("适配器的任何版本都不读取它"),
        "{ds:#?}"
    );
    assert!(ds[0].hint.as_deref().unwrap().contains("请改用"), "{ds:#?}");
}

#[test]
fn diff_lists_each_removal_in_the_release_after_its_last() {
    for o in retired() {
        let r = o.removal().unwrap();
        let Gone::After(last) = r.gone else { continue };
        let Some(next) = Release::ALL.iter().copied().find(|x| *x > last) else {
            continue;
        };
        let d = diff(last, next, None);
        let c = d
            .changes
            .iter()
            .find(|c| c.kind == "option" && c.subject == o.path)
            .unwrap_or_else(|| panic!("{} not in diff {last} {next}", o.path));
        assert_eq!(c.change, "removed");
        let detail = c.detail.as_deref().unwrap();
        assert!(
            detail.contains(&format!("last supported in {last}")),
            "{detail}"
        );
    }
}

#[test]
fn keys_never_read_do_not_show_in_diff() {
    let d = diff(Release::ALL[0], Release::LATEST, None);
    assert!(!d
        .changes
        .iter()
        .any(|c| c.subject == "npu_run_config.enable_auto_mix_precision"));
}
