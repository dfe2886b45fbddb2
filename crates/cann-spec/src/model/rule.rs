//! Cross-option rules: conditions over option values, a severity and a message.

use super::{Literal, Sources, Text};
use crate::diag::Loc;
use crate::range::ReleaseRange;

/// Serialized as `as_str` writes it: `note`, `warning`, `error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// The option is set and equals the value.
    Equals(Literal),
    /// The option is set and differs from the value.
    Not(Literal),
    /// The option is set to one of the values.
    In(Vec<Literal>),
    Set,
    Unset,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// Dotted option path.
    pub option: String,
    pub test: Test,
    pub loc: Loc,
}

/// The condition as users read it in `explain`, `diff` and the docs:
/// `npu_run_config.op_debug_level != 0`. The one rendering; codegen stores it in `RULES`.
impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.option;
        match &self.test {
            Test::Equals(l) => write!(f, "{o} == {l}"),
            Test::Not(l) => write!(f, "{o} != {l}"),
            Test::In(ls) => {
                let list: Vec<String> = ls.iter().map(|l| l.to_string()).collect();
                write!(f, "{o} in [{}]", list.join(", "))
            }
            Test::Set => write!(f, "{o} is set"),
            Test::Unset => write!(f, "{o} is unset"),
        }
    }
}

/// A cross-option rule: when every condition holds, report the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub id: String,
    pub severity: Severity,
    pub when: Vec<Condition>,
    /// Releases whose documentation states the rule.
    pub available: ReleaseRange,
    pub message: Text,
    pub hint: Option<Text>,
    pub source: Sources,
    /// Config fragments the rule must fire on and close neighbours it must not: the rule
    /// tests run every one, and the docs show them.
    pub examples: RuleExamples,
    pub loc: Loc,
}

/// A rule's examples, as written under `examples: { fires: [...], quiet: [...] }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RuleExamples {
    pub fires: Vec<Example>,
    pub quiet: Vec<Example>,
}

/// One user config file (YAML or JSON, as `cannctl check` reads it) and where the spec
/// writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    pub config: String,
    pub loc: Loc,
}
