//! What a config is checked against, and the errors of naming things.

use crate::{Product, Release};

/// A product and release to validate against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub product: Product,
    pub release: Release,
}

/// An id that the spec does not know, with what it does know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{id}`{}; expected one of {}", suggestion.map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default(), expected.join(", "))]
pub struct UnknownId {
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
}

/// A value that is not one of an enumerated option's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a value of `{option}`; expected one of {}", expected.join(", "))]
pub struct EnumError {
    pub option: &'static str,
    pub text: String,
    pub expected: Vec<String>,
}
