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
        Literal::Float(x) => {
            let x = f64_tokens(x.get());
            quote!(#k::meta::Lit::Float(#k::meta::Float(#x)))
        }
        Literal::Str(v) => quote!(#k::meta::Lit::Str(#v)),
    }
}

/// An `f64` as a Rust literal. The loader admits finite numbers only; anything else would
/// be a bug upstream of codegen, and is written as the constant rather than a panic here.
pub(crate) fn f64_tokens(x: f64) -> TokenStream {
    if x.is_finite() {
        let l = proc_macro2::Literal::f64_suffixed(x);
        quote!(#l)
    } else if x.is_nan() {
        quote!(::core::f64::NAN)
    } else if x > 0.0 {
        quote!(::core::f64::INFINITY)
    } else {
        quote!(::core::f64::NEG_INFINITY)
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

/// `SurfacesMeta`: the names on each API surface.
pub(crate) fn surfaces(f: &cann_spec::Surfaces, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let opt_lit = |l: Option<&Literal>| match l {
        Some(l) => {
            let l = lit(l, s);
            quote!(::core::option::Option::Some(#l))
        }
        None => quote!(::core::option::Option::None),
    };
    let estimator = opt_str(f.estimator.as_deref());
    let estimator_default = match &f.estimator_default {
        cann_spec::PyDefault::None => quote!(#k::meta::PyDefault::None),
        cann_spec::PyDefault::Required => quote!(#k::meta::PyDefault::Required),
        cann_spec::PyDefault::Lit(l) => {
            let l = lit(l, s);
            quote!(#k::meta::PyDefault::Lit(#l))
        }
    };
    let session = match &f.session {
        Some((n, a)) => {
            let a = crate::history::accessor(*a, s);
            quote!(::core::option::Option::Some((#n, #a)))
        }
        None => quote!(::core::option::Option::None),
    };
    let tf2 = opt_str(f.tf2.as_deref());
    let tf2_as = match f.tf2_as {
        Some(e) => {
            let e = match e {
                cann_spec::Encoding::Int => quote!(Int),
                cann_spec::Encoding::Str => quote!(Str),
                cann_spec::Encoding::Bool => quote!(Bool),
            };
            quote!(::core::option::Option::Some(#k::meta::Encoding::#e))
        }
        None => quote!(::core::option::Option::None),
    };
    let tf2_default = opt_lit(f.tf2_default.as_ref());
    let tf2_values = match &f.tf2_values {
        Some(vs) => {
            let vs = vs.iter().map(|v| opt_lit(v.as_ref()));
            quote!(::core::option::Option::Some(&[#(#vs),*]))
        }
        None => quote!(::core::option::Option::None),
    };
    let env = opt_str(f.env.as_deref());
    quote!(#k::meta::SurfacesMeta {
        estimator: #estimator, estimator_default: #estimator_default, session: #session,
        tf2: #tf2, tf2_as: #tf2_as, tf2_default: #tf2_default, tf2_values: #tf2_values,
        env: #env,
    })
}

/// `Option<Behaviour>`: what the runtime does with a value.
pub(crate) fn opt_behaviour(
    b: Option<cann_spec::behaviour::Behaviour>,
    s: &Settings,
) -> TokenStream {
    use cann_spec::behaviour::Behaviour;
    let k = &s.krate;
    let Some(b) = b else {
        return quote!(::core::option::Option::None);
    };
    let outer = ident(match b {
        Behaviour::Cache(_) => "Cache",
        Behaviour::Memory(_) => "Memory",
        Behaviour::Clean(_) => "Clean",
        Behaviour::Pages(_) => "Pages",
    });
    let ty = ident(b.family().type_name());
    let v = ident(&cann_spec::names::variant_name(b.name()));
    quote!(::core::option::Option::Some(#k::behaviour::Behaviour::#outer(#k::behaviour::#ty::#v)))
}
