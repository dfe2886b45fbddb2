//! `session-setup`: how a TF1 session is set up around `parameter_map`: that the adapter
//! finds its custom optimizer, and TensorFlow's own graph rewrites as the adapter's porting
//! guide asks for a session that runs on the NPU. Judged on the `ConfigProto` a running
//! program built (`crate::live`), where these fields are read exactly.
//!
//! ```python
//! custom_op.name = "NPUOptimizer"      # error: the adapter reads "NpuOptimizer" only
//! config.graph_options.rewrite_options.remapping = RewriterConfig.OFF   # as asked
//! ```

use cann_config::meta::{Lang, Severity};
use cann_config::yaml::Pos;
use cann_i18n::catalog::lint as msg;

use super::Rule;
use crate::names;
use crate::object::{ConfigObject, Rewrite};
use crate::FindingKind;

pub(crate) static RULE: Rule = Rule {
    kind: FindingKind::Session,
    id: "session-setup",
    summary: msg::rule_session,
};

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

/// The `RewriterConfig` fields judged here, for callers that read them.
pub fn rewrite_fields() -> impl Iterator<Item = &'static str> {
    REWRITES.iter().map(|(f, _)| *f)
}

/// Judges the session's custom optimizers, given by name and place: none the adapter reads
/// (naming a near miss), or more than one. Returns the indices of the ones it reads, in
/// order.
pub(crate) fn optimizers(
    obj: &mut ConfigObject,
    lang: Lang,
    all: &[(&str, Pos)],
    anchor: Pos,
) -> Vec<usize> {
    let npu: Vec<usize> = (0..all.len())
        .filter(|&i| all[i].0 == NPU_OPTIMIZER)
        .collect();
    if npu.is_empty() {
        let near = all
            .iter()
            .find(|(name, _)| names::typos(name, [NPU_OPTIMIZER]).is_some());
        let at = near.map_or(anchor, |(_, at)| *at);
        let d = obj.finding(&RULE, "", at, msg::no_npu_optimizer(lang, NPU_OPTIMIZER));
        d.hint = Some(match near {
            Some((name, _)) => msg::npu_optimizer_misnamed(lang, name, NPU_OPTIMIZER),
            None => format!(
                "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\ncustom_op.name = \"{NPU_OPTIMIZER}\""
            ),
        });
    }
    if let Some(&(_, second)) = npu.get(1).and_then(|&i| all.get(i)) {
        let d = obj.finding(
            &RULE,
            "",
            second,
            msg::npu_optimizer_twice(lang, npu.len(), NPU_OPTIMIZER),
        );
        d.severity = Severity::Warning;
        d.hint = Some(msg::npu_optimizer_twice_hint(lang));
    }
    npu
}

/// Judges the rewrite options set, at the object's anchor.
pub(crate) fn rewrites(obj: &mut ConfigObject, lang: Lang, set: &[Rewrite]) {
    for (field, want) in REWRITES {
        let Some(r) = set.iter().find(|r| r.field == *field) else {
            continue;
        };
        if !wanted(field, r.value, *want) {
            rewrite_finding(obj, lang, r, *want);
        }
    }
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
    let d = obj.finding(&RULE, &format!("rewrite_options.{field}"), anchor, text);
    d.severity = Severity::Warning;
    d.value = Some(shown);
    d.hint = Some(hint);
}
