//! Pure code generation: a checked [`cann_spec::Spec`] in, a `TokenStream` out.
//!
//! No file I/O and no `proc_macro`: the macro crate, tests and tools call the same
//! functions, so the expansion can be pinned by snapshot tests.

pub mod derive;
mod doc;
mod enums;
mod history;
mod lit;
mod products;
mod rules;
mod session;
mod structs;
mod tables;

use proc_macro2::TokenStream;
use quote::quote;

pub use cann_spec;
pub use derive::expand_derive;

/// How generated code reaches the support crate (`cann_config`).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Path of the support crate: `crate` inside cann-config, `::cann_config` elsewhere.
    pub krate: TokenStream,
    /// The same path as a string, for `#[serde(crate = "...")]`.
    pub krate_str: String,
}

impl Settings {
    /// Settings for code that lives inside `cann_config` itself.
    pub fn in_support_crate() -> Self {
        Settings {
            krate: quote!(crate),
            krate_str: "crate".into(),
        }
    }

    /// Settings for code in any other crate.
    pub fn external() -> Self {
        Settings {
            krate: quote!(::cann_config),
            krate_str: "::cann_config".into(),
        }
    }

    /// Whether the code lands in `cann_config` itself, which declares `Product` and
    /// `Release`; elsewhere the expansion uses the support crate's.
    pub fn is_support_crate(&self) -> bool {
        self.krate_str == "crate"
    }
}

/// Everything generated from the spec: products, releases, metadata tables, option enums,
/// config structs with parsing and visiting, the cross-option rules, and the session set-up.
pub fn expand_spec(spec: &cann_spec::Spec, settings: &Settings) -> TokenStream {
    let products = products::expand(spec, settings);
    let tables = tables::expand(spec, settings);
    let enums = enums::expand(spec, settings);
    let structs = structs::expand(spec, settings);
    let rules = rules::expand(spec, settings);
    let session = session::expand(spec, settings);
    quote! {
        #products
        #tables
        #enums
        #structs
        #rules
        #session
    }
}
