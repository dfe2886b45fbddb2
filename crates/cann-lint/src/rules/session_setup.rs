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
use cann_config::session::{FieldType, Rewrite as Wanted, SessionSetup, Want};
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

/// The session set-up facts (`spec/session.yaml`): the custom optimizer the adapter reads
/// `parameter_map` from, and the rewrites its porting guide asks to be off or on.
fn setup() -> &'static SessionSetup {
    &cann_config::SESSION_SETUP
}

/// The name of the custom optimizer the adapter reads `parameter_map` from.
pub fn npu_optimizer() -> &'static str {
    &setup().optimizer
}

/// The `RewriterConfig` fields judged here, for callers that read them.
pub fn rewrite_fields() -> impl Iterator<Item = &'static str> {
    setup().fields()
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
    let name = npu_optimizer();
    let read: Vec<usize> = (0..all.len()).filter(|&i| all[i].0 == name).collect();
    if read.is_empty() {
        let near = all
            .iter()
            .find(|(written, _)| names::typos(written, [name]).is_some());
        let at = near.map_or(anchor, |(_, at)| *at);
        let d = obj.finding(&RULE, "", at, msg::no_npu_optimizer(lang, name));
        d.hint = Some(match near {
            Some((written, _)) => msg::npu_optimizer_misnamed(lang, written, name),
            None => format!(
                "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\ncustom_op.name = \"{name}\""
            ),
        });
    }
    if let Some(&(_, second)) = read.get(1).and_then(|&i| all.get(i)) {
        let d = obj.finding(
            &RULE,
            "",
            second,
            msg::npu_optimizer_twice(lang, read.len(), name),
        );
        d.severity = Severity::Warning;
        d.hint = Some(msg::npu_optimizer_twice_hint(lang));
    }
    read
}

/// Judges the rewrite options set, at the object's anchor.
pub(crate) fn rewrites(obj: &mut ConfigObject, lang: Lang, set: &[Rewrite]) {
    let setup = setup();
    for want in setup.rewrites.iter() {
        let Some(r) = set.iter().find(|r| r.field == want.field) else {
            continue;
        };
        if !setup.as_wanted(want, r.value) {
            rewrite_finding(obj, lang, r, want);
        }
    }
}

fn rewrite_finding(obj: &mut ConfigObject, lang: Lang, r: &Rewrite, want: &Wanted) {
    let field = &r.field;
    let shown = if r.value_name.is_empty() {
        r.value.to_string()
    } else {
        r.value_name.clone()
    };
    let (text, hint) = match (want.want, want.ty) {
        (Want::Off, FieldType::Bool) => (
            msg::rewrite_should_be_false(lang, field),
            format!("config.graph_options.rewrite_options.{field} = False"),
        ),
        (Want::Off, FieldType::Toggle | FieldType::MemOpt) => (
            msg::rewrite_should_be_off(lang, field, &shown),
            format!("config.graph_options.rewrite_options.{field} = RewriterConfig.OFF"),
        ),
        (Want::On, _) => (
            msg::rewrite_should_be_on(lang, field, &shown),
            msg::rewrite_remove_line(lang, field),
        ),
    };
    let anchor = obj.anchor;
    let d = obj.finding(&RULE, &format!("rewrite_options.{field}"), anchor, text);
    d.severity = Severity::Warning;
    d.value = Some(shown);
    d.hint = Some(hint);
}
