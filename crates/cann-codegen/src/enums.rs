//! One enum per enumerated option, variants named for what they mean.

use cann_spec::{names, Literal, OptionType, Spec};
use proc_macro2::TokenStream;
use quote::quote;

use crate::lit::ident;
use crate::{doc, Settings};

pub(crate) fn expand(spec: &Spec, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let mut out = TokenStream::new();
    for (index, o) in spec.options.iter().enumerate() {
        let is_int = match o.ty {
            OptionType::IntEnum => true,
            OptionType::StrEnum => false,
            _ => continue,
        };
        if o.values_of.is_some() {
            // Its values are another option's, and so is its enum.
            continue;
        }
        let name = ident(&names::enum_name(&o.name));
        let variants: Vec<_> = o
            .values
            .iter()
            .map(|v| ident(&names::variant_name(&v.name)))
            .collect();
        let vdocs = o
            .values
            .iter()
            .map(|v| format!(" `{}`: {}", v.value, v.doc.en));
        let type_doc = doc::lines(&format!(
            "Values of `{}`.\n\n{}",
            o.path,
            doc::option(spec, o)
        ));
        let vidx: Vec<usize> = (0..o.values.len()).collect();

        // Canonical values and aliases, each mapped to its variant.
        let mut int_arms = Vec::new();
        let mut str_arms = Vec::new();
        for (v, var) in o.values.iter().zip(&variants) {
            let spellings =
                std::iter::once((&v.value, false)).chain(v.aliases.iter().map(|a| (a, true)));
            for (l, alias) in spellings {
                match l {
                    Literal::Int(i) => int_arms
                        .push(quote!(#i => ::core::option::Option::Some((#name::#var, #alias)),)),
                    Literal::Str(st) => str_arms
                        .push(quote!(#st => ::core::option::Option::Some((#name::#var, #alias)),)),
                    // Enumerated values are integers or strings (the loader checks).
                    Literal::Bool(_) | Literal::Float(_) => {}
                }
            }
        }
        let value_names: Vec<&str> = o.values.iter().map(|v| v.name.as_str()).collect();
        let codes = o.values.iter().map(|v| match &v.value {
            Literal::Int(i) => quote!(#i),
            Literal::Str(st) => quote!(#st),
            Literal::Bool(b) => quote!(#b),
            Literal::Float(x) => crate::lit::f64_tokens(x.get()),
        });
        let (code_fn, ser, de, from_str_body) = if is_int {
            (
                quote! {
                    /// The integer the option takes.
                    pub const fn code(self) -> i64 { match self { #( #name::#variants => #codes, )* } }
                },
                quote!(s.serialize_i64(self.code())),
                quote! {
                    let v = <i64 as #k::__private::serde::Deserialize>::deserialize(d)?;
                    <#name as #k::SpecEnum>::from_int(v).map(|(e, _)| e).ok_or_else(|| {
                        <D::Error as #k::__private::serde::de::Error>::custom(#k::__private::enum_error(#name::OPTION, &v.to_string()))
                    })
                },
                quote! {
                    let t = text.trim();
                    let found = match t.parse::<i64>() {
                        ::core::result::Result::Ok(i) => <#name as #k::SpecEnum>::from_int(i).map(|(e, _)| e),
                        ::core::result::Result::Err(_) => match t { #( #value_names => ::core::option::Option::Some(#name::#variants), )* _ => ::core::option::Option::None },
                    };
                    found.ok_or_else(|| #k::__private::enum_error(#name::OPTION, text))
                },
            )
        } else {
            (
                quote! {
                    /// The string the option takes.
                    pub const fn as_str(self) -> &'static str { match self { #( #name::#variants => #codes, )* } }
                },
                quote!(s.serialize_str(self.as_str())),
                quote! {
                    let v = <::std::string::String as #k::__private::serde::Deserialize>::deserialize(d)?;
                    <#name as #k::SpecEnum>::from_str_code(&v).map(|(e, _)| e).ok_or_else(|| {
                        <D::Error as #k::__private::serde::de::Error>::custom(#k::__private::enum_error(#name::OPTION, &v))
                    })
                },
                quote! {
                    <#name as #k::SpecEnum>::from_str_code(text.trim()).map(|(e, _)| e)
                        .ok_or_else(|| #k::__private::enum_error(#name::OPTION, text))
                },
            )
        };
        // The default a config that leaves the option unset gets: the newest released
        // release's (an unreleased one is never the default target).
        let newest = spec
            .releases
            .iter()
            .rposition(|r| !r.unreleased)
            .unwrap_or(0);
        let default_impl = o
            .default_at(spec, newest)
            .and_then(|d| {
                o.values
                    .iter()
                    .zip(&variants)
                    .find(|(v, _)| &v.value == d || v.aliases.contains(d))
            })
            .map(|(v, var)| {
                let doc = format!(" The spec's default in the newest release: `{}`.", v.value);
                quote! {
                    impl ::core::default::Default for #name {
                        #[doc = #doc]
                        fn default() -> Self { #name::#var }
                    }
                }
            });
        let display = if is_int {
            quote!(write!(f, "{}", self.code()))
        } else {
            quote!(f.write_str(self.as_str()))
        };
        let behaviour = behaviour_fns(o, &name, &variants, s);
        out.extend(quote! {
            #type_doc
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #( #[doc = #vdocs] #variants, )*
            }

            #default_impl

            impl #name {
                /// Every value, in spec order.
                pub const ALL: &'static [#name] = &[#(#name::#variants),*];
                #code_fn
                #behaviour
                /// The option's row in `OPTIONS`: the enum holds it, nothing searches.
                pub const OPTION: &'static #k::meta::OptionMeta = &OPTIONS[#index];
                /// This value's row in its option's table.
                pub const fn meta(self) -> &'static #k::meta::ValueMeta {
                    match self { #( #name::#variants => &Self::OPTION.values[#vidx], )* }
                }
            }

            impl #k::SpecEnum for #name {
                const OPTION: &'static #k::meta::OptionMeta = #name::OPTION;
                fn meta(self) -> &'static #k::meta::ValueMeta { #name::meta(self) }
                fn from_int(v: i64) -> ::core::option::Option<(Self, bool)> {
                    #[allow(unreachable_patterns)]
                    match v { #(#int_arms)* _ => ::core::option::Option::None }
                }
                fn from_str_code(v: &str) -> ::core::option::Option<(Self, bool)> {
                    #[allow(unreachable_patterns)]
                    match v { #(#str_arms)* _ => ::core::option::Option::None }
                }
            }

            impl ::core::str::FromStr for #name {
                type Err = #k::EnumError;
                fn from_str(text: &str) -> ::core::result::Result<Self, Self::Err> { #from_str_body }
            }

            impl ::core::fmt::Display for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result { #display }
            }

            impl #k::__private::serde::Serialize for #name {
                fn serialize<S: #k::__private::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> { #ser }
            }

            impl<'de> #k::__private::serde::Deserialize<'de> for #name {
                fn deserialize<D: #k::__private::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> { #de }
            }
        });
    }
    out
}

/// `behaviour()` and `from_behaviour()` for an option whose values declare what the runtime
/// does with them: the runtime matches on these, never on the variants.
fn behaviour_fns(
    o: &cann_spec::OptionSpec,
    name: &proc_macro2::Ident,
    variants: &[proc_macro2::Ident],
    s: &Settings,
) -> TokenStream {
    let k = &s.krate;
    let Some(family) = o.behaviours else {
        return TokenStream::new();
    };
    let ty = ident(family.type_name());
    let of = |b: cann_spec::behaviour::Behaviour| {
        let v = ident(&names::variant_name(b.name()));
        quote!(#k::behaviour::#ty::#v)
    };
    // The loader requires a behaviour on every value of such an option.
    let arms: Vec<TokenStream> = o
        .values
        .iter()
        .zip(variants)
        .filter_map(|(v, var)| v.behaviour.map(|b| (of(b), var)))
        .map(|(b, var)| quote!(#name::#var => #b,))
        .collect();
    // For each behaviour of the family with a value, the first such value in spec order.
    let firsts = family.behaviours().filter_map(|b| {
        let (_, var) = o
            .values
            .iter()
            .zip(variants)
            .find(|(v, _)| v.behaviour == Some(b))?;
        Some((of(b), var))
    });
    let (from_ret, from_body) = if family.needs_every() {
        // Every behaviour has a value (checked by the loader).
        let arms = firsts.map(|(b, var)| quote!(#b => #name::#var,));
        (quote!(Self), quote!(match b { #(#arms)* }))
    } else {
        let arms = firsts.map(|(b, var)| quote!(#b => ::core::option::Option::Some(#name::#var),));
        (
            quote!(::core::option::Option<Self>),
            quote! {
                #[allow(unreachable_patterns)]
                match b { #(#arms)* _ => ::core::option::Option::None }
            },
        )
    };
    quote! {
        /// What the runtime does with this value, as the spec says.
        pub const fn behaviour(self) -> #k::behaviour::#ty { match self { #(#arms)* } }
        /// The first value, in spec order, that does `b`.
        pub const fn from_behaviour(b: #k::behaviour::#ty) -> #from_ret { #from_body }
    }
}
