//! Config objects a running program built, rather than wrote down: the `NpuOptimizer`
//! entries of a TF1 `ConfigProto` and the keyword arguments of `NPURunConfig(...)`. They are
//! checked exactly as the same settings written in a script are (the same name lookup,
//! accessor check, typo policy and validation), so the Python API and `cannctl lint` never
//! disagree. Positions are the caller's: it numbers the settings it read, and a finding about
//! the object as a whole sits at the object's anchor.

use cann_config::meta::{Lang, TypeMeta};
use cann_config::yaml::{Kind, Node as Value, Pos};

use super::session::{set as set_param, Site};
use crate::branch::Path;
use crate::object::{ConfigObject, Val, Written};
use crate::rules::spec::check;
use crate::rules::{session_accessor, session_setup, unknown_option, value_type};
use crate::{names, surface, Finding, LintOptions, Surface};

pub use crate::object::Rewrite;
pub use crate::rules::session_setup::{npu_optimizer, rewrite_fields};

/// One `parameter_map` entry: its key, the `AttrValue` field that holds its value (`i`, `s`,
/// `b`, `f`, `list`, ...; empty when none is set) and the value when it is one a config file
/// can hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub key: String,
    pub accessor: String,
    pub at: Pos,
    pub value: Option<Value>,
}

/// One custom optimizer of a `ConfigProto`'s rewrite options.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimizer {
    pub name: String,
    pub at: Pos,
    pub params: Vec<Param>,
}

/// What a TF1 session's `ConfigProto` says to the adapter.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SessionProto {
    /// Where findings about the whole object go.
    pub anchor: Pos,
    pub optimizers: Vec<Optimizer>,
    pub rewrites: Vec<Rewrite>,
}

/// Checks a session's `ConfigProto`: that the adapter finds its optimizer, each
/// `parameter_map` entry as `cannctl lint` checks `parameter_map[...]` in a script, and the
/// rewrite options the porting guide names.
pub fn check_session(proto: &SessionProto, opts: &LintOptions) -> Vec<Finding> {
    let lang = opts.lang;
    let mut obj = ConfigObject::new(Surface::Session, proto.anchor);
    let named: Vec<(&str, Pos)> = proto
        .optimizers
        .iter()
        .map(|o| (o.name.as_str(), o.at))
        .collect();
    let npu = session_setup::optimizers(&mut obj, lang, &named, proto.anchor);
    for o in npu.iter().filter_map(|&i| proto.optimizers.get(i)) {
        for p in &o.params {
            if p.accessor.is_empty() && session_accessor::empty_entry(&mut obj, lang, &p.key, p.at)
            {
                continue;
            }
            let site = Site {
                key: &p.key,
                at: p.at,
                span: None,
                accessor: &p.accessor,
            };
            // `.list` entries set a list, whose values are not read (as `.list...` calls in a
            // script are not).
            let value = (p.accessor != "list").then(|| p.value.clone());
            // A live object has no branches: every entry is set.
            set_param(&mut obj, lang, &site, value, Path::default());
        }
    }
    if !npu.is_empty() {
        session_setup::rewrites(&mut obj, lang, &proto.rewrites);
    }
    sorted(check(obj, opts))
}

/// One keyword argument: its name and the value when a config file can hold it (`None`: set
/// to something that cannot be read, such as an object, which counts as set).
#[derive(Debug, Clone, PartialEq)]
pub struct Kwarg {
    pub name: String,
    pub at: Pos,
    pub value: Option<Value>,
}

/// Classes nested deeper than this are not read; the caller's data may be cyclic-looking.
const MAX_NESTING: u32 = 8;

/// Checks the keyword arguments of a call to one of the spec's Estimator classes
/// (`NPURunConfig`, `MemoryConfig`, ...). A class an option takes (`memory_config=`) is given
/// as a mapping of its own keyword arguments. `None` when `class` is not such a class.
pub fn check_estimator(
    class: &str,
    kwargs: &[Kwarg],
    anchor: Pos,
    opts: &LintOptions,
) -> Option<Vec<Finding>> {
    let meta = names::python_class(class)?;
    let path = names::class_path(meta)?;
    let mut obj = ConfigObject::new(Surface::Estimator, anchor);
    obj.classes.push((path, anchor));
    class_args(&mut obj, opts.lang, meta.name, kwargs, 0);
    Some(sorted(check(obj, opts)))
}

fn class_args(obj: &mut ConfigObject, lang: Lang, class: &str, kwargs: &[Kwarg], depth: u32) {
    for kw in kwargs {
        let Some(o) = names::estimator(class, &kw.name) else {
            let w = Written {
                surface: Surface::Estimator,
                name: &kw.name,
                class: Some(class),
                at: kw.at,
                span: None,
                accessor: None,
                value: kw.value.as_ref(),
            };
            unknown_option::judge(obj, lang, w);
            continue;
        };
        let TypeMeta::Config(want) = o.ty else {
            let val = match &kw.value {
                Some(v) => surface::estimator(o, &kw.name, v, lang),
                None => Ok(Val::Unknown),
            };
            match val {
                Ok(val) => obj.set(o, kw.at, val, Path::default()),
                Err(text) => value_type::refused(obj, o, kw.at, text, Path::default()),
            }
            continue;
        };
        let Some(v) = &kw.value else { continue };
        match &v.kind {
            Kind::Null => {}
            Kind::Map(entries) if depth < MAX_NESTING => {
                obj.classes.push((o.path, kw.at));
                let inner: Vec<Kwarg> = entries
                    .iter()
                    .filter_map(|(k, v)| {
                        Some(Kwarg {
                            name: k.as_str()?.to_string(),
                            at: k.pos,
                            value: Some(v.clone()),
                        })
                    })
                    .collect();
                class_args(obj, lang, want, &inner, depth + 1);
            }
            Kind::Map(_) => {}
            _ => value_type::not_a_class(obj, lang, o, (&kw.name, kw.at), want, v),
        }
    }
}

/// Checks TF2's `npu.global_options()` as set by attribute paths below it
/// (`memory_config.atomic_clean_policy`), each as `cannctl lint` checks the same assignment
/// in a script.
pub fn check_tf2(attrs: &[Kwarg], anchor: Pos, opts: &LintOptions) -> Vec<Finding> {
    let lang = opts.lang;
    let mut obj = ConfigObject::new(Surface::Tf2, anchor);
    for kw in attrs {
        let path = kw.name.as_str();
        match names::tf2(path) {
            Some(o) => {
                let val = match &kw.value {
                    Some(v) => surface::tf2(o, path, v, lang),
                    None => Ok(Val::Unknown),
                };
                match val {
                    Ok(val) => obj.set(o, kw.at, val, Path::default()),
                    Err(text) => value_type::refused(&mut obj, o, kw.at, text, Path::default()),
                }
            }
            // A whole section (`memory_config`) set to an object that was not read.
            None if names::tf2_names().any(|p| p.starts_with(&format!("{path}."))) => {}
            None => {
                let w = Written {
                    surface: Surface::Tf2,
                    name: path,
                    class: None,
                    at: kw.at,
                    span: None,
                    accessor: None,
                    value: kw.value.as_ref(),
                };
                unknown_option::judge(&mut obj, lang, w);
            }
        }
    }
    sorted(check(obj, opts))
}

fn sorted(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| {
        (a.line(), a.column(), a.kind, &a.diagnostic.option).cmp(&(
            b.line(),
            b.column(),
            b.kind,
            &b.diagnostic.option,
        ))
    });
    findings
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::FindingKind;
    use cann_config::meta::Severity;

    fn at(line: u32) -> Pos {
        Pos { line, col: 1 }
    }

    fn val(line: u32, kind: Kind) -> Option<Value> {
        Some(Value {
            pos: at(line),
            kind,
        })
    }

    fn param(line: u32, key: &str, acc: &str, kind: Kind) -> Param {
        Param {
            key: key.into(),
            accessor: acc.into(),
            at: at(line),
            value: val(line, kind),
        }
    }

    fn off(field: &str) -> Rewrite {
        Rewrite {
            field: field.into(),
            value: 2,
            value_name: "OFF".into(),
        }
    }

    fn session(params: Vec<Param>, rewrites: Vec<Rewrite>) -> SessionProto {
        SessionProto {
            anchor: at(0),
            optimizers: vec![Optimizer {
                name: npu_optimizer().into(),
                at: at(0),
                params,
            }],
            rewrites,
        }
    }

    fn summary(fs: &[Finding]) -> Vec<(u32, Severity, String)> {
        fs.iter()
            .map(|f| (f.line(), f.severity(), f.diagnostic.option.clone()))
            .collect()
    }

    #[test]
    fn a_clean_session_has_no_findings() {
        let p = session(
            vec![
                param(1, "use_off_line", "b", Kind::Bool(true)),
                param(2, "op_compiler_cache_mode", "s", Kind::Str("enable".into())),
            ],
            vec![off("remapping"), off("memory_optimization")],
        );
        assert_eq!(check_session(&p, &LintOptions::default()), vec![]);
    }

    #[test]
    fn session_findings_are_lints_findings_at_the_callers_positions() {
        let p = session(
            vec![
                param(1, "op_compiler_cache_mode", "s", Kind::Str("enabel".into())),
                // Read with `.i`: the value set with `.s` is ignored.
                param(2, "static_memory_policy", "s", Kind::Str("2".into())),
                param(3, "op_debug_levl", "i", Kind::Int(0)),
            ],
            vec![off("remapping"), off("memory_optimization")],
        );
        let fs = check_session(&p, &LintOptions::default());
        let kinds: Vec<FindingKind> = fs.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds,
            vec![
                FindingKind::Spec,
                FindingKind::Accessor,
                FindingKind::UnknownOption
            ],
            "{fs:#?}"
        );
        assert_eq!(fs[0].line(), 1);
        assert_eq!(fs[2].line(), 3);
        assert_eq!(
            fs[2].diagnostic.hint.as_deref(),
            Some("did you mean `op_debug_level`?")
        );
    }

    #[test]
    fn rewrites_the_porting_guide_names_are_checked() {
        let mut on = off("remapping");
        on.value = 0;
        on.value_name = "DEFAULT".into();
        let mut folding = off("constant_folding");
        folding.value = 2;
        let fs = check_session(&session(vec![], vec![on, folding]), &LintOptions::default());
        assert_eq!(
            summary(&fs),
            vec![
                (
                    0,
                    Severity::Warning,
                    "rewrite_options.constant_folding".into()
                ),
                (0, Severity::Warning, "rewrite_options.remapping".into()),
            ]
        );
        assert!(fs[1].diagnostic.message.contains("DEFAULT"), "{fs:#?}");
        // NO_MEM_OPT turns memory optimization off as well.
        let mem = Rewrite {
            field: "memory_optimization".into(),
            value: 1,
            value_name: "NO_MEM_OPT".into(),
        };
        let fs = check_session(&session(vec![], vec![mem]), &LintOptions::default());
        assert_eq!(fs, vec![]);
    }

    #[test]
    fn a_session_without_the_npu_optimizer_is_an_error_naming_the_near_miss() {
        let mut p = session(vec![], vec![]);
        p.optimizers[0].name = "NPUOptimizer".into();
        p.optimizers[0].at = at(4);
        let fs = check_session(&p, &LintOptions::default());
        assert_eq!(summary(&fs), vec![(4, Severity::Error, String::new())]);
        assert!(fs[0]
            .diagnostic
            .hint
            .as_deref()
            .unwrap()
            .contains("NPUOptimizer"));
    }

    #[test]
    fn an_entry_without_a_value_is_read_as_zero() {
        let p = session(
            vec![Param {
                key: "use_off_line".into(),
                accessor: String::new(),
                at: at(1),
                value: None,
            }],
            vec![],
        );
        let fs = check_session(&p, &LintOptions::default());
        assert_eq!(
            summary(&fs),
            vec![(1, Severity::Warning, "npu_run_config.use_off_line".into())]
        );
        assert!(fs[0].diagnostic.message.contains("False"), "{fs:#?}");
    }

    #[test]
    fn two_npu_optimizers_are_read_in_turn() {
        let mut p = session(vec![param(1, "op_debug_level", "i", Kind::Int(0))], vec![]);
        let mut second = p.optimizers[0].clone();
        second.at = at(5);
        second.params = vec![param(6, "op_debug_level", "i", Kind::Int(9))];
        p.optimizers.push(second);
        let fs = check_session(&p, &LintOptions::default());
        let lines: Vec<(u32, Severity)> = fs.iter().map(|f| (f.line(), f.severity())).collect();
        // The warning, and 9 is no value of op_debug_level: the later entry is the one read.
        assert!(lines.contains(&(5, Severity::Warning)), "{fs:#?}");
        assert!(lines.contains(&(6, Severity::Error)), "{fs:#?}");
    }

    fn kw(line: u32, name: &str, kind: Kind) -> Kwarg {
        Kwarg {
            name: name.into(),
            at: at(line),
            value: val(line, kind),
        }
    }

    #[test]
    fn estimator_kwargs_and_nested_classes_as_mappings() {
        let memory = Kind::Map(vec![(
            Value {
                pos: at(3),
                kind: Kind::Str("static_memory_policy".into()),
            },
            Value {
                pos: at(3),
                kind: Kind::Int(7),
            },
        )]);
        let fs = check_estimator(
            "NPURunConfig",
            &[
                kw(1, "op_compiler_cache_mode", Kind::Str("enable".into())),
                kw(2, "memory_config", memory),
                kw(4, "op_debug_levl", Kind::Int(0)),
                kw(5, "dump_config", Kind::Int(1)),
            ],
            at(0),
            &LintOptions::default(),
        )
        .unwrap();
        assert_eq!(
            summary(&fs),
            vec![
                (
                    3,
                    Severity::Error,
                    "npu_run_config.memory_config.static_memory_policy".into()
                ),
                (4, Severity::Error, "npu_run_config.op_debug_levl".into()),
                (5, Severity::Error, "npu_run_config.dump_config".into()),
            ]
        );
        assert!(check_estimator("Estimator", &[], at(0), &LintOptions::default()).is_none());
    }

    #[test]
    fn tf2_attribute_paths_as_lint_reads_the_assignments() {
        let fs = check_tf2(
            &[
                kw(1, "op_compiler_cache_mode", Kind::Str("enable".into())),
                kw(2, "memory_config.atomic_clean_policy", Kind::Int(3)),
                kw(3, "op_debug_levl", Kind::Int(0)),
                kw(4, "memory_config", Kind::Null),
            ],
            at(0),
            &LintOptions::default(),
        );
        let lines: Vec<(u32, Severity)> = fs.iter().map(|f| (f.line(), f.severity())).collect();
        assert_eq!(
            lines,
            vec![(2, Severity::Error), (3, Severity::Error)],
            "{fs:#?}"
        );
        assert_eq!(
            fs[1].diagnostic.hint.as_deref(),
            Some("did you mean `op_debug_level`?")
        );
    }
}
