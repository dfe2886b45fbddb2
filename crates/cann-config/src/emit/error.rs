//! Why an emitter refused a config: every reason at once, each naming its option.

use cann_i18n::catalog::emit as msg;

use crate::meta::{Lang, Severity};
use crate::Diagnostic;

/// One reason a config cannot be written in a format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitError {
    /// Dotted option path (for a missing argument, the path the option would have).
    pub option: &'static str,
    pub kind: EmitErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmitErrorKind {
    /// A string holds U+0000. No target carries it: `export` cannot put it in the
    /// environment, and the adapter and graph engine read option values as C strings,
    /// so it would cut the value short wherever Python let it through.
    Nul,
    /// A constructor argument upstream declares without a default is not set, and the spec
    /// gives no default to fill in.
    MissingArgument {
        class: &'static str,
        param: &'static str,
    },
}

impl EmitError {
    pub fn message(&self, lang: Lang) -> String {
        match &self.kind {
            EmitErrorKind::Nul => msg::nul_value(lang, self.option),
            EmitErrorKind::MissingArgument { class, param } => {
                msg::missing_argument(lang, class, param)
            }
        }
    }

    pub fn hint(&self, lang: Lang) -> String {
        match &self.kind {
            EmitErrorKind::Nul => msg::nul_value_hint(lang),
            EmitErrorKind::MissingArgument { .. } => msg::missing_argument_hint(lang, self.option),
        }
    }

    /// The refusal as a finding, so it renders like every other one.
    pub fn diagnostic(&self, lang: Lang) -> Diagnostic {
        Diagnostic::new(Severity::Error, self.option, self.message(lang)).with_hint(self.hint(lang))
    }
}

impl std::fmt::Display for EmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for EmitError {}
