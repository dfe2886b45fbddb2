//! What `#[derive(CannConfig)]` emits next to its error when expansion fails: the same
//! items with bodies that never run (the crate does not compile), so code that calls
//! `validate`, `emit`, `to_config`, `Default` or serde on the struct brings no knock-on
//! errors and the user reads exactly the one that matters (thiserror's fallback, clap's
//! dummies).

use proc_macro2::TokenStream;
use quote::quote;

use crate::Settings;

pub fn fallback(input: &syn::DeriveInput, s: &Settings) -> TokenStream {
    // Generic structs are refused outright; their error stands alone.
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let k = &s.krate;
    let name = &input.ident;
    let never = quote!(::core::unreachable!(
        "#[derive(CannConfig)] failed to expand"
    ));
    quote! {
        #[automatically_derived]
        impl ::core::default::Default for #name {
            fn default() -> Self { #never }
        }

        #[automatically_derived]
        #[allow(dead_code)]
        impl #name {
            pub const RELEASE: #k::Release = #k::Release::LATEST;
            pub fn to_config(&self) -> #k::Config { #never }
            pub fn from_config(_: &#k::Config) -> Self { #never }
            pub fn validate(&self, _:  #k::Product) -> #k::Report { #never }
            pub fn emit(
                &self,
                _: #k::emit::Format,
            ) -> ::core::result::Result<::std::string::String, ::std::vec::Vec<#k::emit::EmitError>> {
                #never
            }
        }

        const _: () = {
            use #k::__private::serde;

            #[automatically_derived]
            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, _: S) -> ::core::result::Result<S::Ok, S::Error> {
                    #never
                }
            }

            #[automatically_derived]
            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(_: D) -> ::core::result::Result<Self, D::Error> {
                    #never
                }
            }
        };
    }
}
