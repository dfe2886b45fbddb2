//! `DeprecationMeta` and `RemovalMeta` tokens: what an option became across releases.

use cann_spec::{Accessor, Deprecation, Gone, Introduced, Removal, ValueMapping};
use proc_macro2::TokenStream;
use quote::quote;

use crate::lit::{lit, opt_str, release, text};
use crate::Settings;

pub(crate) fn accessor(a: Accessor, s: &Settings) -> TokenStream {
    let k = &s.krate;
    match a {
        Accessor::I => quote!(#k::meta::Accessor::I),
        Accessor::S => quote!(#k::meta::Accessor::S),
        Accessor::B => quote!(#k::meta::Accessor::B),
    }
}

fn mappings(values: &[ValueMapping], s: &Settings) -> TokenStream {
    let k = &s.krate;
    let items = values.iter().map(|m| {
        let (from, to) = (lit(&m.from, s), lit(&m.to, s));
        quote!(#k::meta::ValueMapMeta { from: #from, to: #to, loc: () })
    });
    quote!(&[#(#items),*])
}

pub(crate) fn deprecation(dep: Option<&Deprecation>, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let Some(d) = dep else {
        return quote!(::core::option::Option::None);
    };
    let since = release(&d.since, s);
    let rep = opt_str(d.replacement.as_deref());
    let values = mappings(&d.values, s);
    let note = text(&d.note, s);
    let source = &d.source;
    quote!(::core::option::Option::Some(#k::meta::DeprecationMeta {
        since: #since, replacement: #rep, values: #values, note: #note, source: &[#(#source),*],
    }))
}

/// `Option<IntroducedMeta>`: `after` stays a string, since it may be a release the spec does
/// not model.
pub(crate) fn introduced(i: Option<&Introduced>, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let Some(i) = i else {
        return quote!(::core::option::Option::None);
    };
    let after = &i.after;
    let first = release(&i.first_recorded, s);
    let source = &i.source;
    quote!(::core::option::Option::Some(#k::meta::IntroducedMeta {
        after: #after, first_recorded: #first, source: &[#(#source),*], loc: (),
    }))
}

pub(crate) fn removal(r: &Removal, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let gone = match &r.gone {
        Gone::After(id) => {
            let id = release(id, s);
            quote!(#k::meta::Gone::After(#id))
        }
        Gone::Before(id) => {
            let id = release(id, s);
            quote!(#k::meta::Gone::Before(#id))
        }
        Gone::Never => quote!(#k::meta::Gone::Never),
    };
    let surfaces = crate::lit::surfaces(&r.surfaces, s);
    let rep = opt_str(r.replacement.as_deref());
    let values = mappings(&r.values, s);
    let empty = match &r.empty_ignored {
        Some(sources) => quote!(::core::option::Option::Some(&[#(#sources),*])),
        None => quote!(::core::option::Option::None),
    };
    let note = text(&r.note, s);
    let source = &r.source;
    quote!(#k::meta::RemovalMeta {
        gone: #gone, surfaces: #surfaces, replacement: #rep, values: #values,
        empty_ignored: #empty, note: #note, source: &[#(#source),*], loc: (),
    })
}

pub(crate) fn opt_removal(r: Option<&Removal>, s: &Settings) -> TokenStream {
    match r {
        Some(r) => {
            let r = removal(r, s);
            quote!(::core::option::Option::Some(#r))
        }
        None => quote!(::core::option::Option::None),
    }
}
