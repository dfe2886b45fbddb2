//! `SESSION_SETUP`: the session set-up facts of the spec as `static` data of the model's own
//! type (`cann_spec::session::SessionSetup`, borrowed for `'static`).

use cann_spec::session::{FieldType, OffValues, Want};
use proc_macro2::TokenStream;
use quote::quote;

use crate::Settings;

pub(crate) fn expand(spec: &cann_spec::Spec, s: &Settings) -> TokenStream {
    let Some(setup) = &spec.session else {
        // The support crate's lint rule and session emitter read these facts.
        return if s.is_support_crate() {
            quote!(::core::compile_error!(
                "the spec has no `session.yaml`: the TF session set-up facts (the custom optimizer the adapter reads, the rewrites it asks for) are read from it"
            );)
        } else {
            TokenStream::new()
        };
    };
    let k = &s.krate;
    let m = quote!(#k::session);
    let optimizer = &*setup.optimizer;
    let optimizer_source = strs(&setup.optimizer_source);
    let off = |o: &OffValues| {
        let values = o.off.iter();
        let source = strs(&o.source);
        quote!(#m::OffValues {
            off: ::std::borrow::Cow::Borrowed(&[#(#values),*]),
            source: #source,
        })
    };
    let (toggle, mem_opt, bool) = (
        off(&setup.field_types.toggle),
        off(&setup.field_types.mem_opt),
        off(&setup.field_types.bool),
    );
    let rewrites = setup.rewrites.iter().map(|r| {
        let field = &*r.field;
        let ty = match r.ty {
            FieldType::Toggle => quote!(#m::FieldType::Toggle),
            FieldType::MemOpt => quote!(#m::FieldType::MemOpt),
            FieldType::Bool => quote!(#m::FieldType::Bool),
        };
        let want = match r.want {
            Want::Off => quote!(#m::Want::Off),
            Want::On => quote!(#m::Want::On),
        };
        let source = strs(&r.source);
        quote!(#m::Rewrite {
            field: ::std::borrow::Cow::Borrowed(#field),
            ty: #ty,
            want: #want,
            source: #source,
        })
    });
    quote! {
        /// How a TF1 session is set up around `parameter_map` (`spec/session.yaml`).
        pub static SESSION_SETUP: #m::SessionSetup = #m::SessionSetup {
            optimizer: ::std::borrow::Cow::Borrowed(#optimizer),
            optimizer_source: #optimizer_source,
            field_types: #m::FieldTypes { toggle: #toggle, mem_opt: #mem_opt, bool: #bool },
            rewrites: ::std::borrow::Cow::Borrowed(&[#(#rewrites),*]),
        };
    }
}

fn strs(v: &[cann_spec::session::Str]) -> TokenStream {
    let v = v.iter().map(|s| &**s);
    quote!(::std::borrow::Cow::Borrowed(&[#(::std::borrow::Cow::Borrowed(#v)),*]))
}
