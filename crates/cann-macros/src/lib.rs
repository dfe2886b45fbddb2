//! Proc-macro front end over `cann-codegen`: locate the spec, load it, expand it.
//!
//! ```ignore
//! cann_macros::include_spec!("../../spec");                 // code for an external crate
//! cann_macros::include_spec!("../../spec", krate = crate);  // inside cann_config itself
//! ```
//! The path is relative to the invoking crate's `CARGO_MANIFEST_DIR`. Every spec problem
//! becomes a compile error on the path literal, prefixed with its file, line and column.

use std::path::PathBuf;

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::{quote, ToTokens};
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

struct Args {
    path: LitStr,
    krate: Option<syn::Path>,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(input
                .error("include_spec! needs the spec directory: include_spec!(\"path/to/spec\")"));
        }
        let path: LitStr = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "the first argument of include_spec! must be a string literal: the spec directory",
            )
        })?;
        let mut krate = None;
        if input.parse::<Token![,]>().is_ok() && !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            if key != "krate" {
                return Err(syn::Error::new(
                    key.span(),
                    "unknown argument; expected `krate = <path>`",
                ));
            }
            input.parse::<Token![=]>()?;
            let p = if input.peek(Token![crate]) {
                let t: Token![crate] = input.parse()?;
                syn::Path::from(syn::Ident::new("crate", t.span))
            } else {
                input.parse()?
            };
            krate = Some(p);
            let _ = input.parse::<Token![,]>();
        }
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the arguments of include_spec!"));
        }
        Ok(Args { path, krate })
    }
}

/// Generates the typed configuration for a whole spec directory.
#[proc_macro]
pub fn include_spec(input: TokenStream) -> TokenStream {
    let args = match syn::parse::<Args>(input) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error().into(),
    };
    expand(&args)
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}

fn expand(args: &Args) -> syn::Result<proc_macro2::TokenStream> {
    let span = args.path.span();
    let base = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| {
            syn::Error::new(
                Span::call_site(),
                "CARGO_MANIFEST_DIR is not set; include_spec! must be built by cargo",
            )
        })?;
    let dir = base.join(args.path.value());
    if !dir.is_dir() {
        return Err(syn::Error::new(
            span,
            format!(
                "spec directory `{}` not found (resolved to {})",
                args.path.value(),
                dir.display()
            ),
        ));
    }
    let spec = cann_spec::load_dir(&dir).map_err(|errs| {
        let mut combined: Option<syn::Error> = None;
        for d in errs.0 {
            let mut d = d;
            if let Ok(rel) = d.loc.file.strip_prefix(&base) {
                d.loc.file = rel.to_path_buf();
            }
            let e = syn::Error::new(span, d.to_string());
            match &mut combined {
                Some(c) => c.combine(e),
                None => combined = Some(e),
            }
        }
        combined.unwrap_or_else(|| syn::Error::new(span, "the spec could not be loaded"))
    })?;
    let settings = match &args.krate {
        Some(p) => {
            let s = p.to_token_stream().to_string().replace(' ', "");
            cann_codegen::Settings {
                krate: p.to_token_stream(),
                krate_str: s,
            }
        }
        None => cann_codegen::Settings::external(),
    };
    let body = cann_codegen::expand_spec(&spec, &settings);
    // Anchors make cargo rebuild when a spec file changes (typify's approach); build.rs
    // covers files added later.
    let anchors = spec.inputs.iter().map(|p| {
        let p = p.display().to_string();
        quote!(
            const _: &[u8] = include_bytes!(#p);
        )
    });
    Ok(quote! {
        #(#anchors)*
        #body
    })
}
