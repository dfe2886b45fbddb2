//! What every rule of lint's own declares; `crate::object` makes findings of it, so it sits
//! below both the rules and the facts they judge.

use cann_config::meta::Lang;

use crate::FindingKind;

/// A rule of lint's own: what SARIF and the other front ends say about it, beside its
/// findings. The spec's rules (see [`spec`]) are named and described by the spec, finding by
/// finding.
pub(crate) struct Rule {
    /// The kind its findings carry (serialized in JSON and SARIF properties).
    pub kind: FindingKind,
    /// The id its findings are grouped under.
    pub id: &'static str,
    /// The rule in a sentence (SARIF `shortDescription`), from the catalog.
    pub summary: fn(Lang) -> String,
}
