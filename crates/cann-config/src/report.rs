//! Findings about a user config: every problem at once, each with its option path.

use serde::Serialize;

use crate::meta::{Lang, Severity};

/// One finding. `message` and `hint` are already in the requested language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Dotted option path, e.g. `npu_run_config.memory_config.static_memory_policy`.
    pub option: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The spec rule that fired, for cross-option findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// Line and column in the user's file, when the config came from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

impl Diagnostic {
    pub fn new(severity: Severity, option: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            option: option.into(),
            value: None,
            message: message.into(),
            expected: None,
            hint: None,
            rule: None,
            line: None,
            column: None,
        }
    }

    pub fn with_value(mut self, v: impl std::fmt::Display) -> Self {
        self.value = Some(v.to_string());
        self
    }

    pub fn with_expected(mut self, e: impl Into<String>) -> Self {
        self.expected = Some(e.into());
        self
    }

    pub fn with_hint(mut self, h: impl Into<String>) -> Self {
        self.hint = Some(h.into());
        self
    }
}

/// All findings of one check, in the order found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub diagnostics: Vec<Diagnostic>,
    #[serde(skip)]
    pub lang: Lang,
}

impl Report {
    pub fn new(lang: Lang) -> Self {
        Report {
            diagnostics: Vec::new(),
            lang,
        }
    }

    pub fn push(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    pub fn count(&self, s: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == s).count()
    }
}
