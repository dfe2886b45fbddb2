//! Cross-option rules as plain Rust over the typed config: no interpreter at run time.

use cann_spec::{names, Condition, Literal, OptionType, Spec, Test};
use proc_macro2::TokenStream;
use quote::quote;

use crate::lit::ident;
use crate::Settings;

/// `Option<_>` of the option's value, comparable with a literal.
fn access(spec: &Spec, path: &str) -> Option<TokenStream> {
    let o = spec.option_by_path(path)?;
    let mut segs = path.split('.');
    let root = ident(&names::field_name(segs.next()?));
    let mut expr = quote!(cfg.#root.as_ref());
    for seg in segs {
        let f = ident(&names::field_name(seg));
        expr = quote!(#expr.and_then(|c| c.#f.as_ref()));
    }
    Some(match &o.ty {
        OptionType::IntEnum => quote!(#expr.map(|x| x.code())),
        OptionType::StrEnum => quote!(#expr.map(|x| x.as_str())),
        OptionType::Bool | OptionType::Int | OptionType::Float => quote!(#expr.copied()),
        OptionType::Str | OptionType::Path { .. } | OptionType::Object(_) => {
            quote!(#expr.map(|x| x.as_str()))
        }
        OptionType::CorePair | OptionType::Config(_) => quote!(#expr.map(|_| ())),
    })
}

fn lit(l: &Literal) -> TokenStream {
    match l {
        Literal::Bool(b) => quote!(#b),
        Literal::Int(i) => quote!(#i),
        Literal::Float(x) => crate::lit::f64_tokens(x.get()),
        Literal::Str(s) => quote!(#s),
    }
}

/// A condition as Rust. An option the front end could not read (`unread(path)` is `Some`) is
/// absent from `cfg`; a value test on it is false, since its value is not known, and it
/// counts as set only when it is surely set, as unset only when it is surely unset.
fn condition(spec: &Spec, c: &Condition, k: &TokenStream) -> TokenStream {
    let Some(x) = access(spec, &c.option) else {
        // The spec checks reject unknown paths before codegen runs.
        return quote!(false);
    };
    let path = &c.option;
    match &c.test {
        Test::Equals(l) => {
            let l = lit(l);
            quote!(matches!(#x, ::core::option::Option::Some(v) if v == #l))
        }
        Test::Not(l) => {
            let l = lit(l);
            quote!(matches!(#x, ::core::option::Option::Some(v) if v != #l))
        }
        Test::In(ls) => {
            let ls = ls.iter().map(lit);
            quote!(matches!(#x, ::core::option::Option::Some(v) if [#(#ls),*].contains(&v)))
        }
        Test::Set => quote!(
            (#x.is_some() || matches!(unread(#path), ::core::option::Option::Some(#k::Unread::Set)))
        ),
        Test::Unset => quote!((#x.is_none() && unread(#path).is_none())),
    }
}

pub(crate) fn expand(spec: &Spec, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let checks = spec.rules.iter().enumerate().map(|(i, r)| {
        let conds = r.when.iter().map(|c| condition(spec, c, k));
        quote! {
            if RULES[#i].available.contains(release) #( && #conds )* {
                report.push(#k::__private::rule_diagnostic(&RULES[#i], report.lang));
            }
        }
    });
    quote! {
        /// Applies every cross-option rule the spec states for `release` to `cfg`.
        pub fn check_rules(cfg: &Config, release: #k::Release, report: &mut #k::Report) {
            check_rules_partial(cfg, release, report, &|_| ::core::option::Option::None)
        }

        /// As [`check_rules`], for a config some of whose options a front end could not read:
        /// `unread(path)` says what is known of each (see `Unread`); such options are absent
        /// from `cfg`. A rule fires only when it surely holds.
        pub fn check_rules_partial(
            cfg: &Config,
            release: #k::Release,
            report: &mut #k::Report,
            unread: &dyn Fn(&str) -> ::core::option::Option<#k::Unread>,
        ) {
            let _ = &unread;
            #(#checks)*
        }
    }
}
