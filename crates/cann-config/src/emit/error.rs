//! Why an emitter refused a config: every reason at once, each naming its option.

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
        match (&self.kind, lang) {
            (EmitErrorKind::Nul, Lang::En) => format!(
                "the value of `{}` holds a NUL character, which no output can carry",
                self.option
            ),
            (EmitErrorKind::Nul, Lang::Zh) => {
                format!("`{}` 的取值含 NUL 字符，任何输出都无法承载", self.option)
            }
            (EmitErrorKind::MissingArgument { class, param }, Lang::En) => format!(
                "`{class}(...)` requires the argument `{param}`, which the config does not set"
            ),
            (EmitErrorKind::MissingArgument { class, param }, Lang::Zh) => {
                format!("`{class}(...)` 必须传入参数 `{param}`，但配置中未设置")
            }
        }
    }

    pub fn hint(&self, lang: Lang) -> String {
        match (&self.kind, lang) {
            (EmitErrorKind::Nul, Lang::En) => "remove the NUL character from the value".into(),
            (EmitErrorKind::Nul, Lang::Zh) => "请删除取值中的 NUL 字符".into(),
            (EmitErrorKind::MissingArgument { .. }, Lang::En) => {
                format!("set `{}` in the config", self.option)
            }
            (EmitErrorKind::MissingArgument { .. }, Lang::Zh) => {
                format!("请在配置中设置 `{}`", self.option)
            }
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
