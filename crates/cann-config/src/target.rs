//! What a config is checked against, and the errors of naming things.

use cann_i18n::catalog::config as msg;

use crate::meta::Lang;
use crate::{Product, Release};

/// A product and release to validate against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub product: Product,
    pub release: Release,
}

/// An id that the spec does not know, with what it does know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} ({})", self.message(Lang::En), self.expected(Lang::En))]
pub struct UnknownId {
    /// `"product"` or `"release"`.
    pub kind: &'static str,
    pub id: String,
    pub expected: Vec<&'static str>,
    pub suggestion: Option<&'static str>,
}

impl UnknownId {
    pub fn new(kind: &'static str, id: &str, expected: &[&'static str]) -> Self {
        UnknownId {
            kind,
            id: id.to_string(),
            expected: expected.to_vec(),
            suggestion: cann_spec::did_you_mean(id, expected.iter().copied()),
        }
    }

    /// "unknown product `x`; did you mean `y`?", in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        let head = match self.kind {
            "product" => msg::unknown_product(lang, &self.id),
            _ => msg::unknown_release(lang, &self.id),
        };
        match self.suggestion {
            Some(s) => format!("{head}{}{}", sep(lang), msg::did_you_mean(lang, s)),
            None => head,
        }
    }

    /// What the spec knows instead: every id (there are few).
    pub fn expected(&self, lang: Lang) -> String {
        let ids = self.expected.iter().map(|i| format!("`{i}`"));
        msg::one_of(lang, &lang.join(ids))
    }
}

/// The separator between two clauses of one message.
fn sep(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "; ",
        Lang::Zh => "；",
    }
}

/// A value that is not one of an enumerated option's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a value of `{option}`; expected one of {}", expected.join(", "))]
pub struct EnumError {
    pub option: &'static str,
    pub text: String,
    pub expected: Vec<String>,
}
