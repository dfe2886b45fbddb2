//! `Product` and `Release`: closed, ordered enums of what the spec knows.

use cann_spec::{names, Spec};
use proc_macro2::TokenStream;
use quote::quote;

use crate::lit::{ident, opt_text, product, text};
use crate::{doc, Settings};

pub(crate) fn expand(spec: &Spec, s: &Settings) -> TokenStream {
    let k = &s.krate;
    let p_variants: Vec<_> = spec
        .products
        .iter()
        .map(|p| ident(&names::product_variant(&p.id)))
        .collect();
    let p_docs = spec.products.iter().map(|p| {
        let mut d = format!("{} ({})", p.name.en, p.name.zh);
        if let Some(n) = &p.note {
            d.push_str(&format!("\n\n{}", n.en));
        }
        d
    });
    let p_ids: Vec<&str> = spec.products.iter().map(|p| p.id.as_str()).collect();
    let p_idx: Vec<usize> = (0..spec.products.len()).collect();
    let pn = spec.products.len();
    let p_meta = spec.products.iter().map(|p| {
        let id = &p.id;
        let pv = product(id, s);
        let name = text(&p.name, s);
        let note = opt_text(p.note.as_ref(), s);
        let cores = match p.cores {
            Some(c) => {
                let (cu, ve) = (c.cube, c.vector);
                quote!(::core::option::Option::Some((#cu, #ve)))
            }
            None => quote!(::core::option::Option::None),
        };
        let aliases = p.aliases.iter().map(|a| a.name.as_str());
        quote!(#k::meta::ProductMeta { product: #pv, id: #id, name: #name, aliases: &[#(#aliases),*], note: #note, cores: #cores })
    });

    let r_variants: Vec<_> = spec
        .releases
        .iter()
        .map(|r| ident(&names::release_variant(&r.id)))
        .collect();
    let r_ids: Vec<&str> = spec.releases.iter().map(|r| r.id.as_str()).collect();
    let r_idx: Vec<usize> = (0..spec.releases.len()).collect();
    let rn = spec.releases.len();
    let r_docs = spec.releases.iter().map(|r| {
        if r.unreleased {
            format!("CANN {} (not released yet)", r.id)
        } else {
            format!("CANN {}", r.id)
        }
    });
    let r_meta = spec.releases.iter().map(|r| {
        let id = &r.id;
        let rv = crate::lit::release(id, s);
        let ps = r.products.iter().map(|p| product(p, s));
        let note = opt_text(r.note.as_ref(), s);
        let unreleased = r.unreleased;
        quote!(#k::meta::ReleaseMeta { release: #rv, id: #id, products: &[#(#ps),*], unreleased: #unreleased, note: #note })
    });
    // The default target is the newest release that is out, never an unreleased one.
    let latest = spec
        .releases
        .iter()
        .rposition(|r| !r.unreleased)
        .and_then(|i| r_variants.get(i));
    let product_doc = doc::lines("An Ascend product line known to the spec.");
    let release_doc = doc::lines("A CANN release known to the spec, ordered oldest first.");

    let tables = quote! {
        /// Metadata of every product, in spec order.
        pub static PRODUCTS: [#k::meta::ProductMeta; #pn] = [#(#p_meta),*];
        /// Metadata of every release, oldest first.
        pub static RELEASES: [#k::meta::ReleaseMeta; #rn] = [#(#r_meta),*];
    };
    if !s.is_support_crate() {
        // The support crate's tables (`ProductMeta::product`, `RuleMeta::available`) and
        // functions (`validate`, `Target`, `product_named`) are typed by its own `Product`
        // and `Release`: a second pair declared here would be distinct types of the same
        // name, and the expansion would not compile.
        return quote! {
            pub use #k::{Product, Release};
            #tables
        };
    }
    quote! {
        #tables

        #product_doc
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Product {
            #( #[doc = #p_docs] #p_variants, )*
        }

        impl Product {
            /// Every product, in spec order.
            pub const ALL: &'static [Product] = &[#(Product::#p_variants),*];

            /// The id used in spec and config files, e.g. `atlas-a2-training`.
            pub const fn id(self) -> &'static str {
                match self { #( Product::#p_variants => #p_ids, )* }
            }

            pub fn meta(self) -> &'static #k::meta::ProductMeta {
                match self { #( Product::#p_variants => &PRODUCTS[#p_idx], )* }
            }
        }

        /// An id, or a model or chip name the spec lists as an alias.
        impl ::core::str::FromStr for Product {
            type Err = #k::UnknownId;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                match s {
                    #( #p_ids => ::core::result::Result::Ok(Product::#p_variants), )*
                    _ => #k::product_named(s),
                }
            }
        }

        impl ::core::fmt::Display for Product {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.id())
            }
        }

        #release_doc
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Release {
            #( #[doc = #r_docs] #r_variants, )*
        }

        impl Release {
            /// Every release, oldest first.
            pub const ALL: &'static [Release] = &[#(Release::#r_variants),*];
            /// The newest released release in the spec: the default target (an
            /// unreleased one is chosen only by name).
            pub const LATEST: Release = Release::#latest;

            /// CANN's own version string, e.g. `9.0.0`.
            pub const fn id(self) -> &'static str {
                match self { #( Release::#r_variants => #r_ids, )* }
            }

            pub fn meta(self) -> &'static #k::meta::ReleaseMeta {
                match self { #( Release::#r_variants => &RELEASES[#r_idx], )* }
            }
        }

        impl ::core::str::FromStr for Release {
            type Err = #k::UnknownId;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                match s {
                    #( #r_ids => ::core::result::Result::Ok(Release::#r_variants), )*
                    _ => ::core::result::Result::Err(#k::UnknownId::new("release", s, &[#(#r_ids),*])),
                }
            }
        }

        impl ::core::fmt::Display for Release {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.id())
            }
        }
    }
}
