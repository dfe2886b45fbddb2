//! Typed configuration for the Ascend CANN TF Adapter, generated from the spec in `spec/`.
//!
//! - Types: one struct per configuration class ([`NpuRunConfig`], [`MemoryConfig`], ...),
//!   one enum per enumerated option, and [`Product`] / [`Release`].
//! - [`parse_config`] reads a user config file (YAML or JSON) with a position for every value.
//! - [`validate`] checks a config against a product and release and reports every problem.
//! - [`emit`] writes the graph-engine option map, Python for each API surface, env exports
//!   and JSON.

pub mod diff;
pub mod emit;
pub mod facts;
pub mod fidelity;
mod from_node;
pub mod history;
pub mod in_release;
pub mod meta;
mod parse;
mod report;
pub mod soc;
mod target;
mod validate;
mod value;
pub use from_node::{config_from_node, config_from_node_in};

pub use cann_spec::{behaviour, session, yaml};
pub use parse::{
    parse_config, parse_config_in, parse_json_config_in, read_document_with, ConfigFile, FromMap,
    ParseCx, ParseError, ReadLimits,
};
pub use report::{Diagnostic, Report};
pub use target::{product_named, EnumError, Target, UnknownId};
pub use validate::{validate, validate_into, validate_on_device, validate_partial, Unread};
pub use value::{
    CoreCounts, CoreCountsError, CoreCountsProblem, SpecEnum, ValueRef, Visit, Visitor,
};

cann_macros::include_spec!("../../../spec", krate = crate);

/// The checked spec model these types and tables were generated from: the loader's reading
/// of the very bytes `include_spec!` expanded (`SPEC_SOURCES`), read once. xtask renders
/// the docs site, the schema and the reference from it, so what they say and what the CLI
/// checks come from one build of one spec and cannot disagree.
pub fn model() -> Result<&'static cann_spec::Spec, &'static cann_spec::SpecErrors> {
    static MODEL: std::sync::OnceLock<Result<cann_spec::Spec, cann_spec::SpecErrors>> =
        std::sync::OnceLock::new();
    MODEL
        .get_or_init(|| {
            let files: Vec<cann_spec::SourceFile> = SPEC_SOURCES
                .iter()
                .map(|(name, text)| cann_spec::SourceFile {
                    path: (*name).into(),
                    text: (*text).to_string(),
                })
                .collect();
            cann_spec::load_files(&files)
        })
        .as_ref()
}

/// Support for generated code; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use serde;

    /// The `T` of an `Option<T>` field, for derived defaults.
    pub trait OptionInner {
        type Inner;
    }

    impl<T> OptionInner for Option<T> {
        type Inner = T;
    }

    use crate::meta::{Lang, OptionMeta, RuleMeta};

    pub fn enum_error(option: &'static OptionMeta, text: &str) -> crate::EnumError {
        crate::EnumError {
            option: option.path,
            text: text.to_string(),
            expected: option.values.iter().map(|v| v.value.to_string()).collect(),
        }
    }

    pub fn rule_diagnostic(rule: &'static RuleMeta, lang: Lang) -> crate::Diagnostic {
        let mut d = crate::Diagnostic::new(
            rule.severity,
            rule.options.first().copied().unwrap_or(""),
            rule.message.get(lang),
        );
        d.hint = rule.hint.map(|h| h.get(lang).to_string());
        d.rule = Some(rule.id);
        d
    }
}
