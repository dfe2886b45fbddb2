//! Config objects a running program built, rather than wrote down: the `NpuOptimizer`
//! entries of a TF1 `ConfigProto` and the keyword arguments of `NPURunConfig(...)`. They are
//! checked exactly as the same settings written in a script are (the same name lookup,
//! accessor check, typo policy and validation), so the Python API and `cannctl lint` never
//! disagree. Positions are the caller's: it numbers the settings it read, and a finding about
//! the object as a whole sits at the object's anchor.

use cann_config::meta::{Accessor, Lang, Severity, TypeMeta};
use cann_config::yaml::{Kind, Node as Value, Pos};
use cann_i18n::catalog::lint as msg;

use super::session::{set as set_param, Site};
use super::unknown::{self, Written};
use super::{ConfigObject, Val};
use crate::branch::Path;
use crate::{check, names, surface, Finding, FindingKind, LintOptions, Surface};

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

/// A field of `RewriterConfig` as set: its name and its number (an enum value, or 0/1 for a
/// boolean).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    pub field: String,
    pub value: i64,
    /// The enum value's name as the protobuf descriptor gives it, for messages.
    pub value_name: String,
}

/// What a TF1 session's `ConfigProto` says to the adapter.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SessionProto {
    /// Where findings about the whole object go.
    pub anchor: Pos,
    pub optimizers: Vec<Optimizer>,
    pub rewrites: Vec<Rewrite>,
}

/// The custom optimizer the adapter reads `parameter_map` from; every entry with this name
/// is read, in order, so a later one's values win (hicann/tensorflow@82957b9:
/// tf_adapter/util/npu_attrs.cc, the loops over `rewrite_options.custom_optimizers()`).
pub const NPU_OPTIMIZER: &str = "NpuOptimizer";

/// `RewriterConfig.Toggle.OFF` and `RewriterConfig.MemOptType` values that turn memory
/// optimization off (`NO_MEM_OPT`, and `MANUAL`, which is what `RewriterConfig.OFF` means in
/// that field and what the adapter's pages write) (tensorflow/core/protobuf/rewriter_config.proto).
const TOGGLE_OFF: i64 = 2;
const MEM_OPT_OFF: [i64; 2] = [1, 2];

/// What the adapter's porting guide asks of TensorFlow's own graph rewrites in a session
/// that runs on the NPU (hicann/tensorflow@82957b9:
/// docs/en/tfadapter_1/migration/script_migration/single_service_single_device_porting.md,
/// "Session Creation and Resource Initialization").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// On by default, must be turned off explicitly.
    Off,
    /// On by default, must stay on.
    On,
    /// A boolean that is false by default and must stay false.
    False,
}

const REWRITES: &[(&str, Want)] = &[
    ("remapping", Want::Off),
    ("memory_optimization", Want::Off),
    ("function_optimization", Want::On),
    ("constant_folding", Want::On),
    ("shape_optimization", Want::On),
    ("arithmetic_optimization", Want::On),
    ("loop_optimization", Want::On),
    ("dependency_optimization", Want::On),
    ("layout_optimizer", Want::On),
    ("disable_model_pruning", Want::False),
];

/// The `RewriterConfig` fields [`check_session`] looks at, for callers that read them.
pub fn rewrite_fields() -> impl Iterator<Item = &'static str> {
    REWRITES.iter().map(|(f, _)| *f)
}

fn wanted(field: &str, value: i64, want: Want) -> bool {
    match want {
        Want::Off if field == "memory_optimization" => MEM_OPT_OFF.contains(&value),
        Want::Off => value == TOGGLE_OFF,
        Want::On => value != TOGGLE_OFF,
        Want::False => value == 0,
    }
}

fn rewrite_finding(obj: &mut ConfigObject, lang: Lang, r: &Rewrite, want: Want) {
    let field = &r.field;
    let shown = if r.value_name.is_empty() {
        r.value.to_string()
    } else {
        r.value_name.clone()
    };
    let (text, hint) = match want {
        Want::Off => (
            msg::rewrite_should_be_off(lang, field, &shown),
            format!("config.graph_options.rewrite_options.{field} = RewriterConfig.OFF"),
        ),
        Want::On => (
            msg::rewrite_should_be_on(lang, field, &shown),
            msg::rewrite_remove_line(lang, field),
        ),
        Want::False => (
            msg::rewrite_should_be_false(lang, field),
            format!("config.graph_options.rewrite_options.{field} = False"),
        ),
    };
    let anchor = obj.anchor;
    let d = obj.finding(
        FindingKind::Session,
        &format!("rewrite_options.{field}"),
        anchor,
        text,
    );
    d.severity = Severity::Warning;
    d.value = Some(shown);
    d.hint = Some(hint);
}

/// `parameter_map["k"]` read without assigning creates an entry with no value, which the
/// adapter still reads (`params.count(k) > 0`), as the field's zero. Said for options the spec
/// knows; `false` for other keys, which go through the usual unknown-key policy.
fn empty_entry(obj: &mut ConfigObject, lang: Lang, p: &Param) -> bool {
    let Some((o, (_, want))) = names::session(&p.key).and_then(|o| Some((o, o.session?))) else {
        return false;
    };
    let zero = match want {
        Accessor::I => "0",
        Accessor::S => "\"\"",
        Accessor::B => "False",
    };
    let d = obj.finding(
        FindingKind::Accessor,
        o.path,
        p.at,
        msg::empty_entry(lang, &p.key, zero),
    );
    d.severity = Severity::Warning;
    d.hint = Some(msg::empty_entry_hint(lang, want.as_str(), &p.key));
    true
}

/// Checks a session's `ConfigProto`: that the adapter finds its optimizer, each
/// `parameter_map` entry as `cannctl lint` checks `parameter_map[...]` in a script, and the
/// rewrite options the porting guide names.
pub fn check_session(proto: &SessionProto, opts: &LintOptions) -> Vec<Finding> {
    let lang = opts.lang;
    let mut obj = ConfigObject::new(Surface::Session, proto.anchor);
    let npu: Vec<&Optimizer> = proto
        .optimizers
        .iter()
        .filter(|o| o.name == NPU_OPTIMIZER)
        .collect();
    if npu.is_empty() {
        let near = proto
            .optimizers
            .iter()
            .find(|o| names::typos(&o.name, [NPU_OPTIMIZER]).is_some());
        let at = near.map_or(proto.anchor, |o| o.at);
        let d = obj.finding(
            FindingKind::Session,
            "",
            at,
            msg::no_npu_optimizer(lang, NPU_OPTIMIZER),
        );
        d.hint = Some(match near {
            Some(o) => msg::npu_optimizer_misnamed(lang, &o.name, NPU_OPTIMIZER),
            None => format!(
                "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\ncustom_op.name = \"{NPU_OPTIMIZER}\""
            ),
        });
    }
    if let [_, second, ..] = npu.as_slice() {
        let d = obj.finding(
            FindingKind::Session,
            "",
            second.at,
            msg::npu_optimizer_twice(lang, npu.len(), NPU_OPTIMIZER),
        );
        d.severity = Severity::Warning;
        d.hint = Some(msg::npu_optimizer_twice_hint(lang));
    }
    for o in &npu {
        for p in &o.params {
            if p.accessor.is_empty() && empty_entry(&mut obj, lang, p) {
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
        for (field, want) in REWRITES {
            let Some(r) = proto.rewrites.iter().find(|r| r.field == *field) else {
                continue;
            };
            if !wanted(field, r.value, *want) {
                rewrite_finding(&mut obj, lang, r, *want);
            }
        }
    }
    sorted(check::check(obj, opts))
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
    Some(sorted(check::check(obj, opts)))
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
            unknown::report(obj, lang, w);
            continue;
        };
        let TypeMeta::Config(want) = o.ty else {
            let val = match &kw.value {
                Some(v) => surface::estimator(o, &kw.name, v, lang),
                None => Ok(Val::Unknown),
            };
            match val {
                Ok(val) => obj.set(o, kw.at, val, Path::default()),
                Err(text) => obj.refused(o, kw.at, text, Path::default()),
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
            other => {
                let text = msg::takes_class(lang, &kw.name, want, other.describe());
                let d = obj.finding(FindingKind::Type, o.path, kw.at, text);
                d.value = Some(v.display());
                d.hint = Some(format!("{}={want}(...)", kw.name));
            }
        }
    }
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
                name: NPU_OPTIMIZER.into(),
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
}
