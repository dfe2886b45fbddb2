//! Proc-macro front end over `cann-codegen`: locate the spec, load it, expand it.
//!
//! ```ignore
//! cann_macros::include_spec!("../../spec");                 // code for an external crate
//! cann_macros::include_spec!("../../spec", krate = crate);  // inside cann_config itself
//! ```
//! The path is relative to the file that invokes the macro, as for `include_bytes!`. Every
//! spec problem becomes a compile error on the path literal, prefixed with its file, line
//! and column relative to the spec directory's parent.

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

/// The invoking file's directory joined with `written`, as `include_bytes!` resolves.
fn resolve(written: &str, span: Span) -> syn::Result<PathBuf> {
    let path = PathBuf::from(written);
    if path.is_absolute() {
        return Ok(path);
    }
    let file = proc_macro::Span::call_site().local_file();
    match file.as_deref().and_then(|f| f.parent()) {
        Some(parent) => Ok(parent.join(path)),
        // No real source file (e.g. in a doc test): fall back to the crate root.
        None => std::env::var_os("CARGO_MANIFEST_DIR")
            .map(|d| PathBuf::from(d).join(&path))
            .ok_or_else(|| {
                syn::Error::new(
                    span,
                    "cannot locate the invoking file to resolve the spec path",
                )
            }),
    }
}

/// The spec directory as a package carries it: outside the workspace (an sdist, a crate
/// unpacked from its `.crate` file) the spec is the crate's own `spec/` (cann-config links
/// the workspace's spec there, and `cargo package` copies the files), under the same name
/// as the path written.
fn packaged(written: &str) -> Option<PathBuf> {
    let name = std::path::Path::new(written).file_name()?;
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?).join(name);
    dir.is_dir().then_some(dir)
}

/// Derives defaults, validation, emitters and serde for a struct whose fields name spec
/// options:
///
/// ```ignore
/// #[derive(cann_macros::CannConfig)]
/// #[cann(spec = "../../spec", release = "9.0.0")]
/// struct Memory {
///     static_memory_policy: Option<cann_config::StaticMemoryPolicy>,
///     #[cann(rename = "atomic_clean_policy")]
///     clean: Option<cann_config::AtomicCleanPolicy>,
/// }
/// ```
#[proc_macro_derive(CannConfig, attributes(cann))]
pub fn derive_cann_config(input: TokenStream) -> TokenStream {
    let input = match syn::parse::<syn::DeriveInput>(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error().into(),
    };
    derive(&input)
        .unwrap_or_else(|e| {
            // The error, and items that keep the struct's uses from failing again.
            let mut out = e.to_compile_error();
            out.extend(cann_codegen::derive::fallback(
                &input,
                &cann_codegen::Settings::external(),
            ));
            out
        })
        .into()
}

fn derive(input: &syn::DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let c = cann_codegen::derive::container(input)?;
    let loaded = load(&c.spec)?;
    let anchors = loaded.anchors();
    let body =
        cann_codegen::expand_derive(&loaded.0, input, &c, &cann_codegen::Settings::external())?;
    Ok(quote! {
        #anchors
        #body
    })
}

/// A loaded spec, and the paths of its files (findings' names, absolute paths), which the
/// expansion includes so that cargo rebuilds when a spec file changes (typify's approach;
/// build scripts cover files added later).
struct Loaded(cann_spec::Spec, Vec<(String, String)>);

impl Loaded {
    /// `SPEC_SOURCES`, the files' text under the names findings use: `include_spec!` hands
    /// the same bytes to the loader at run time. Emitted once per crate, by `include_spec!`.
    fn sources(&self) -> proc_macro2::TokenStream {
        let sources = self
            .1
            .iter()
            .map(|(name, p)| quote!((#name, include_str!(#p))));
        quote! {
            /// The spec files this expansion was generated from (name, text), in the order
            /// they were read. Not a stable API.
            #[doc(hidden)]
            pub static SPEC_SOURCES: &[(&str, &str)] = &[#(#sources),*];
        }
    }

    /// Unnamed anchors only: a derive may stand beside another in the same module, where a
    /// named item would be defined twice.
    fn anchors(&self) -> proc_macro2::TokenStream {
        let anchors = self.1.iter().map(|(_, p)| {
            quote!(
                const _: &[u8] = include_bytes!(#p);
            )
        });
        quote!(#(#anchors)*)
    }
}

/// Locates and loads the spec named by `lit`; every spec problem becomes an error on `lit`.
fn load(lit: &LitStr) -> syn::Result<Loaded> {
    let span = lit.span();
    let written = lit.value();
    let dir = resolve(&written, span)?;
    let dir = if dir.is_dir() {
        dir
    } else {
        packaged(&written).unwrap_or(dir)
    };
    if !dir.is_dir() {
        return Err(syn::Error::new(
            span,
            format!("spec directory `{written}` not found; the path is relative to the file that invokes the macro"),
        ));
    }
    // include_bytes! anchors need absolute paths: a relative one would be resolved again
    // against the invoking file.
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    // Findings name files relative to the directory that holds the spec directory.
    let base = dir.parent().map(PathBuf::from).unwrap_or_default();
    let spec = cann_spec::load_dir(&dir).map_err(|errs| {
        let mut combined: Option<syn::Error> = None;
        for mut d in errs.0 {
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
    let files = spec
        .inputs
        .iter()
        .map(|p| {
            let name = p.strip_prefix(&base).unwrap_or(p).display().to_string();
            (name, p.display().to_string())
        })
        .collect();
    Ok(Loaded(spec, files))
}

fn expand(args: &Args) -> syn::Result<proc_macro2::TokenStream> {
    let loaded = load(&args.path)?;
    let anchors = loaded.sources();
    let spec = loaded.0;
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
    Ok(quote! {
        #anchors
        #body
    })
}
