//! Small token helpers shared by the generators.

use cann_spec::{Literal, ReleaseRange, Support};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::Settings;

pub(crate) fn ident(s: &str) -> Ident {
    Ident::new(s, Span::call_site())
}

pub(crate) fn lit(l: &Literal, s: &Settings) -> TokenStream {
    let k = &s.krate;
    match l {
        Literal::Bool(b) => quote!(#k::meta::Lit::Bool(#b)),
        Literal::Int(i) => quote!(#k::meta::Lit::Int(#i)),
        Literal::Str(v) => quote!(#k::meta::Lit::Str(#v)),
    }
}

pub(crate) fn opt_str(v: Option<&str>) -> TokenStream {
    match v {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

pub(crate) fn text(t: &cann_spec::Text, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let (en, zh) = (&t.en, &t.zh);
    quote!(#k::meta::Text { en: #en, zh: #zh })
}

pub(crate) fn opt_text(t: Option<&cann_spec::Text>, s: &Settings) -> TokenStream {
    match t {
        Some(t) => {
            let t = text(t, s);
            quote!(::core::option::Option::Some(#t))
        }
        None => quote!(::core::option::Option::None),
    }
}

pub(crate) fn release(id: &str, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let v = ident(&cann_spec::names::release_variant(id));
    quote!(#k::Release::#v)
}

fn opt_release(id: Option<&str>, s: &Settings) -> TokenStream {
    match id {
        Some(id) => {
            let r = release(id, s);
            quote!(::core::option::Option::Some(#r))
        }
        None => quote!(::core::option::Option::None),
    }
}

pub(crate) fn span(r: &ReleaseRange, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let from = opt_release(r.from.as_deref(), s);
    let last = opt_release(r.last.as_deref(), s);
    quote!(#k::meta::Span { from: #from, last: #last, loc: () })
}

pub(crate) fn product(id: &str, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let v = ident(&cann_spec::names::product_variant(id));
    quote!(#k::Product::#v)
}

/// `Products`: the spec's list, as written.
pub(crate) fn products(list: &[Support], s: &Settings) -> TokenStream {
    let k = &s.krate;
    let items = list.iter().map(|sup| {
        let p = product(&sup.product, s);
        let sp = span(&sup.releases, s);
        quote!(#k::meta::SupportMeta { product: #p, releases: #sp, loc: () })
    });
    quote!(&[#(#items),*])
}
