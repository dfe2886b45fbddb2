//! One struct per configuration class, plus the root `Config` of a user file.
//!
//! Every field is `Option<T>`: unset differs from default, and only set options are
//! emitted, as the adapter itself does.

use cann_spec::{names, ConfigClass, OptionSpec, OptionType, Spec};
use proc_macro2::TokenStream;
use quote::quote;

use crate::lit::ident;
use crate::{doc, Settings};

fn field_type(o: &OptionSpec, s: &Settings) -> TokenStream {
    let k = &s.krate;
    match &o.ty {
        OptionType::Bool => quote!(bool),
        OptionType::Int => quote!(i64),
        OptionType::Float => quote!(f64),
        OptionType::IntEnum | OptionType::StrEnum => {
            let e = ident(&names::option_enum(o));
            quote!(#e)
        }
        OptionType::Str | OptionType::Path { .. } | OptionType::Object(_) => {
            quote!(::std::string::String)
        }
        OptionType::CorePair => quote!(#k::CoreCounts),
        OptionType::Config(c) => {
            let t = ident(&names::type_name(c));
            quote!(#t)
        }
    }
}

/// How the parser reads one option's value node.
fn parse_value(o: &OptionSpec, index: usize, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let m = quote!(&OPTIONS[#index]);
    match &o.ty {
        OptionType::Bool => quote!(cx.bool(v, #m)),
        OptionType::Int => quote!(cx.int(v, #m)),
        OptionType::Float => quote!(cx.float(v, #m)),
        OptionType::IntEnum | OptionType::StrEnum => quote!(cx.enumerated(v, #m)),
        OptionType::Str | OptionType::Path { .. } | OptionType::Object(_) => {
            quote!(cx.string(v, #m))
        }
        OptionType::CorePair => quote!(cx.cores(v, #m)),
        OptionType::Config(c) => {
            let t = ident(&names::type_name(c));
            let path = &o.path;
            quote!(::core::option::Option::Some(<#t as #k::FromMap>::from_map(v, #path, cx)))
        }
    }
}

/// How the visitor sees one field's value.
fn visit_value(o: &OptionSpec, index: usize, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let m = quote!(&OPTIONS[#index]);
    match &o.ty {
        OptionType::Bool => quote!(v.value(#m, #k::ValueRef::Bool(*x))),
        OptionType::Int => quote!(v.value(#m, #k::ValueRef::Int(*x))),
        OptionType::Float => quote!(v.value(#m, #k::ValueRef::Float(#k::meta::Float(*x)))),
        OptionType::IntEnum | OptionType::StrEnum => {
            quote!(v.value(#m, <_ as #k::SpecEnum>::value_ref(*x)))
        }
        OptionType::Str | OptionType::Path { .. } | OptionType::Object(_) => {
            quote!(v.value(#m, #k::ValueRef::Str(x)))
        }
        OptionType::CorePair => quote!(v.value(#m, #k::ValueRef::Cores(*x))),
        OptionType::Config(_) => quote! {
            v.enter(#m);
            #k::Visit::visit(x, v);
            v.leave(#m);
        },
    }
}

fn class(spec: &Spec, c: &ConfigClass, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let krate_str = format!("{}::__private::serde", s.krate_str);
    let name = ident(&names::type_name(&c.name));
    let opts: Vec<(usize, &OptionSpec)> = spec
        .options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.config == c.name)
        .collect();
    let fields: Vec<_> = opts
        .iter()
        .map(|(_, o)| ident(&names::field_name(&o.name)))
        .collect();
    let keys: Vec<&str> = opts.iter().map(|(_, o)| o.name.as_str()).collect();
    let types = opts.iter().map(|(_, o)| field_type(o, s));
    let fdocs = opts.iter().map(|(_, o)| doc::lines(&doc::option(spec, o)));
    let parse = opts.iter().map(|(i, o)| parse_value(o, *i, s));
    let visits = opts.iter().map(|(i, o)| visit_value(o, *i, s));
    let idx = opts.iter().map(|(i, _)| *i);
    // A nested class is placed at its key; a value at the value itself.
    let at = opts.iter().map(|(_, o)| match o.ty {
        OptionType::Config(_) => quote!(key_node),
        _ => quote!(v),
    });
    let cdoc = doc::lines(&format!("{}\n\n{}\n", c.doc.en, c.doc.zh));
    quote! {
        #cdoc
        #[derive(Debug, Clone, Default, PartialEq, #k::__private::serde::Serialize, #k::__private::serde::Deserialize)]
        #[serde(crate = #krate_str, deny_unknown_fields)]
        pub struct #name {
            #(
                #fdocs
                #[serde(rename = #keys, default, skip_serializing_if = "Option::is_none")]
                pub #fields: ::core::option::Option<#types>,
            )*
        }

        impl #name {
            /// The keys this class accepts in a config file.
            pub const KEYS: &'static [&'static str] = &[#(#keys),*];
        }

        impl #k::Visit for #name {
            fn visit<V: #k::Visitor + ?Sized>(&self, v: &mut V) {
                #( if let ::core::option::Option::Some(x) = &self.#fields { #visits } )*
            }
        }

        impl #k::FromMap for #name {
            fn from_map(node: &#k::yaml::Node, path: &str, cx: &mut #k::ParseCx) -> Self {
                let mut out = Self::default();
                let ::core::option::Option::Some(entries) = cx.map(node, path) else { return out; };
                for (key_node, v) in entries {
                    let ::core::option::Option::Some(key) = cx.key(key_node) else { continue };
                    match key {
                        #( #keys => {
                            cx.record(OPTIONS[#idx].path, #at);
                            out.#fields = #parse;
                        } )*
                        _ => cx.unknown_key(key_node, key, path, Self::KEYS),
                    }
                }
                out
            }
        }
    }
}

pub(crate) fn expand(spec: &Spec, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let krate_str = format!("{}::__private::serde", s.krate_str);
    let classes = spec.configs.iter().map(|c| class(spec, c, s));
    let roots: Vec<&ConfigClass> = spec
        .configs
        .iter()
        .filter(|c| c.root_key.is_some())
        .collect();
    let root_keys: Vec<&str> = roots.iter().filter_map(|c| c.root_key.as_deref()).collect();
    let root_fields: Vec<_> = root_keys
        .iter()
        .map(|k| ident(&names::field_name(k)))
        .collect();
    let root_types: Vec<_> = roots
        .iter()
        .map(|c| ident(&names::type_name(&c.name)))
        .collect();
    let root_docs = roots.iter().map(|c| format!(" {}", c.doc.en));
    quote! {
        #(#classes)*

        /// Everything a user config file sets, below `product` and `release`.
        #[derive(Debug, Clone, Default, PartialEq, #k::__private::serde::Serialize, #k::__private::serde::Deserialize)]
        #[serde(crate = #krate_str, deny_unknown_fields)]
        pub struct Config {
            #(
                #[doc = #root_docs]
                #[serde(rename = #root_keys, default, skip_serializing_if = "Option::is_none")]
                pub #root_fields: ::core::option::Option<#root_types>,
            )*
        }

        impl Config {
            /// Top-level keys for configuration classes.
            pub const ROOT_KEYS: &'static [&'static str] = &[#(#root_keys),*];

            /// Reads one top-level entry; `false` when the key is not a class.
            pub fn read_root_entry(&mut self, key: &str, v: &#k::yaml::Node, cx: &mut #k::ParseCx) -> bool {
                match key {
                    #( #root_keys => {
                        self.#root_fields = ::core::option::Option::Some(<#root_types as #k::FromMap>::from_map(v, #root_keys, cx));
                        true
                    } )*
                    _ => false,
                }
            }
        }

        impl #k::Visit for Config {
            fn visit<V: #k::Visitor + ?Sized>(&self, v: &mut V) {
                #( if let ::core::option::Option::Some(x) = &self.#root_fields { #k::Visit::visit(x, v); } )*
            }
        }
    }
}
