//! `#[derive(CannConfig)]` for downstream crates: a struct whose fields name spec options
//! gets defaults, validation, the emitters and serde, all through `cann_config`.
//!
//! serde's split at small scale: attributes (`attr`), checks against the spec with spans
//! (`check`), then generation here.

mod attr;
mod check;
mod fallback;

pub use attr::{container, Container};
pub use fallback::fallback;

use cann_spec::{names, Literal, OptionType, Spec};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::lit::ident;
use crate::Settings;

/// Expands the derive for `input` against an already loaded `spec`.
pub fn expand_derive(
    spec: &Spec,
    input: &syn::DeriveInput,
    c: &Container,
    s: &Settings,
) -> syn::Result<TokenStream> {
    let k = &s.krate;
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "#[derive(CannConfig)] does not support generic structs",
        ));
    }
    let release = c.release.value();
    let Some(release_index) = spec.release_index(&release) else {
        let known: Vec<&str> = spec.releases.iter().map(|r| r.id.as_str()).collect();
        return Err(syn::Error::new(
            c.release.span(),
            format!(
                "unknown release `{release}`; expected one of {}",
                known.join(", ")
            ),
        ));
    };
    let fields = check::fields(spec, &release, input)?;
    let syn::Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(CannConfig)] works on structs",
        ));
    };
    let tys: Vec<&syn::Type> = data.fields.iter().map(|f| &f.ty).collect();
    let name = &input.ident;
    let rel = ident(&names::release_variant(&release));
    let idents: Vec<&syn::Ident> = fields.iter().map(|f| &f.ident).collect();
    let keys: Vec<&str> = fields.iter().map(|f| f.option.name.as_str()).collect();

    let defaults = fields
        .iter()
        .zip(&tys)
        .map(|(f, ty)| default_expr(spec, release_index, f.option, ty, s));
    let to_config = fields.iter().map(|f| {
        let id = &f.ident;
        let (root, mids, last) = path_parts(&f.option.path);
        quote! {
            if let ::core::option::Option::Some(v) = &self.#id {
                let c = cfg.#root.get_or_insert_with(::core::default::Default::default);
                #( let c = c.#mids.get_or_insert_with(::core::default::Default::default); )*
                c.#last = ::core::option::Option::Some(::core::clone::Clone::clone(v));
            }
        }
    });
    let from_config = fields.iter().map(|f| {
        let id = &f.ident;
        let (root, mids, last) = path_parts(&f.option.path);
        quote!(#id: cfg.#root.as_ref() #( .and_then(|c| c.#mids.as_ref()) )* .and_then(|c| ::core::clone::Clone::clone(&c.#last)))
    });
    let serde_str = format!("{}::__private::serde", s.krate_str);
    let ser_fields = idents.iter().map(|i| format_ident!("{i}"));
    let de_fields: Vec<_> = idents.iter().map(|i| format_ident!("{i}")).collect();

    Ok(quote! {
        #[automatically_derived]
        impl ::core::default::Default for #name {
            /// Every option at its spec default; options without one stay unset.
            fn default() -> Self {
                #name { #( #idents: #defaults, )* }
            }
        }

        #[automatically_derived]
        impl #name {
            /// The release this struct is written for.
            pub const RELEASE: #k::Release = #k::Release::#rel;

            /// The options set here, placed in a full config.
            pub fn to_config(&self) -> #k::Config {
                let mut cfg = #k::Config::default();
                #(#to_config)*
                cfg
            }

            /// The options of `cfg` this struct has fields for.
            pub fn from_config(cfg: &#k::Config) -> Self {
                #name { #(#from_config,)* }
            }

            /// Validates against `product` in [`Self::RELEASE`].
            pub fn validate(&self, product: #k::Product) -> #k::Report {
                #k::validate(&self.to_config(), #k::Target { product, release: Self::RELEASE })
            }

            /// Renders the options for the graph engine, a script or the shell, or says
            /// every reason it cannot.
            pub fn emit(
                &self,
                format: #k::emit::Format,
            ) -> ::core::result::Result<::std::string::String, ::std::vec::Vec<#k::emit::EmitError>> {
                #k::emit::emit_for(&self.to_config(), format, Self::RELEASE)
            }
        }

        const _: () = {
            use #k::__private::serde;

            #[allow(clippy::ref_option)]
            fn is_none<T>(v: &&::core::option::Option<T>) -> bool {
                v.is_none()
            }

            #[derive(serde::Serialize)]
            #[serde(crate = #serde_str)]
            struct Ser<'a> {
                #( #[serde(rename = #keys, skip_serializing_if = "is_none")] #ser_fields: &'a #tys, )*
            }

            #[derive(serde::Deserialize)]
            #[serde(crate = #serde_str, deny_unknown_fields)]
            struct De {
                #( #[serde(rename = #keys, default)] #de_fields: #tys, )*
            }

            #[automatically_derived]
            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                    serde::Serialize::serialize(&Ser { #( #idents: &self.#idents, )* }, s)
                }
            }

            #[automatically_derived]
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    let v = <De as serde::Deserialize>::deserialize(d)?;
                    ::core::result::Result::Ok(#name { #( #idents: v.#de_fields, )* })
                }
            }
        };
    })
}

/// `npu_run_config.memory_config.x` -> (`npu_run_config`, [`memory_config`], `x`) as fields.
fn path_parts(path: &str) -> (syn::Ident, Vec<syn::Ident>, syn::Ident) {
    let segs: Vec<syn::Ident> = path
        .split('.')
        .map(|p| ident(&names::field_name(p)))
        .collect();
    let root = segs.first().cloned().unwrap_or_else(|| ident("_"));
    let last = segs.last().cloned().unwrap_or_else(|| ident("_"));
    let mids = if segs.len() > 2 {
        segs[1..segs.len() - 1].to_vec()
    } else {
        Vec::new()
    };
    (root, mids, last)
}

/// The field's default: the option's default in the struct's declared `release`, so a
/// default changed in a later release follows the struct that names it.
fn default_expr(
    spec: &Spec,
    release: usize,
    o: &cann_spec::OptionSpec,
    ty: &syn::Type,
    s: &Settings,
) -> TokenStream {
    let k = &s.krate;
    let none = quote!(::core::option::Option::None);
    let Some(d) = o.default_at(spec, release) else {
        return none;
    };
    // The field type is `Option<T>`; `T` comes from the user's own path.
    let inner = quote!(<#ty as #k::__private::OptionInner>::Inner);
    match (&o.ty, d) {
        (OptionType::IntEnum, Literal::Int(i)) => {
            quote!(<#inner as #k::SpecEnum>::from_int(#i).map(|(v, _)| v))
        }
        (OptionType::StrEnum, Literal::Str(v)) => {
            quote!(<#inner as #k::SpecEnum>::from_str_code(#v).map(|(v, _)| v))
        }
        (OptionType::Bool, Literal::Bool(b)) => quote!(::core::option::Option::Some(#b)),
        (OptionType::Int, Literal::Int(i)) => quote!(::core::option::Option::Some(#i)),
        (OptionType::Float, Literal::Float(x)) => {
            let x = crate::lit::f64_tokens(x.get());
            quote!(::core::option::Option::Some(#x))
        }
        (OptionType::Str | OptionType::Path { .. }, Literal::Str(v)) => {
            quote!(::core::option::Option::Some(::std::string::String::from(#v)))
        }
        (OptionType::CorePair, Literal::Str(v)) => quote!(#v.parse::<#k::CoreCounts>().ok()),
        _ => none,
    }
}
