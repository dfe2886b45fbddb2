//! Checking a downstream struct against the spec: every error at the field it concerns.

use cann_spec::{names, OptionSpec, OptionType, Spec};
use quote::ToTokens;
use syn::spanned::Spanned;

use super::attr;

/// A field resolved to its option.
pub struct Resolved<'s> {
    pub ident: syn::Ident,
    pub option: &'s OptionSpec,
}

/// The `T` in `Option<T>`, or `None` when the type is not an `Option`.
fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// The Rust type name the option's values have.
pub fn expected_type(o: &OptionSpec) -> String {
    match &o.ty {
        OptionType::Bool => "bool".into(),
        OptionType::Int => "i64".into(),
        OptionType::Float => "f64".into(),
        OptionType::IntEnum | OptionType::StrEnum => names::option_enum(o),
        OptionType::Str | OptionType::Path { .. } | OptionType::Object(_) => "String".into(),
        OptionType::CorePair => "CoreCounts".into(),
        OptionType::Config(c) => names::type_name(c),
    }
}

fn last_ident(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn find<'s>(spec: &'s Spec, name: &str) -> Result<&'s OptionSpec, String> {
    if let Some(o) = spec.option_by_path(name) {
        return Ok(o);
    }
    let by_name: Vec<&OptionSpec> = spec.options.iter().filter(|o| o.name == name).collect();
    match by_name.as_slice() {
        [one] => Ok(one),
        [] => {
            let mut msg = format!("`{name}` is not an option of the spec");
            let names = spec.options.iter().map(|o| o.name.as_str());
            if let Some(s) = cann_spec::did_you_mean(name, names) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            Err(msg)
        }
        many => {
            let paths: Vec<&str> = many.iter().map(|o| o.path.as_str()).collect();
            Err(format!(
                "`{name}` names several options; rename to one of: {}",
                paths.join(", ")
            ))
        }
    }
}

/// Resolves every field, collecting every error with the field's own span.
pub fn fields<'s>(
    spec: &'s Spec,
    release: &str,
    input: &syn::DeriveInput,
) -> syn::Result<Vec<Resolved<'s>>> {
    let syn::Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(CannConfig)] works on structs with named fields",
        ));
    };
    let syn::Fields::Named(named) = &data.fields else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(CannConfig)] needs named fields",
        ));
    };
    let rel_idx = spec.release_index(release);
    let mut errors: Option<syn::Error> = None;
    let mut push = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    let mut out = Vec::new();
    for f in &named.named {
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        let a = match attr::field(f) {
            Ok(a) => a,
            Err(e) => {
                push(e);
                continue;
            }
        };
        let (name, span) = match &a.rename {
            Some(l) => (l.value(), l.span()),
            None => (ident.to_string(), ident.span()),
        };
        let option = match find(spec, &name) {
            Ok(o) => o,
            Err(msg) => {
                push(syn::Error::new(span, msg));
                continue;
            }
        };
        let want = expected_type(option);
        match option_inner(&f.ty) {
            None => push(syn::Error::new(
                f.ty.span(),
                format!("field `{ident}` must be `Option<{want}>`: an unset option differs from its default"),
            )),
            Some(inner) if last_ident(inner).as_deref() != Some(want.as_str()) => push(syn::Error::new(
                inner.span(),
                format!(
                    "option `{}` is of type {}, so this field must be `Option<{want}>`, not `Option<{}>`",
                    option.path,
                    option.ty.name(),
                    inner.to_token_stream().to_string().replace(' ', "")
                ),
            )),
            Some(_) => {}
        }
        if let Some(ri) = rel_idx {
            if !option
                .available
                .contains_index(ri, |id| spec.release_index(id))
            {
                push(syn::Error::new(
                    span,
                    format!(
                        "option `{}` is not available in release {release} (available: {})",
                        option.path, option.available
                    ),
                ));
            }
        }
        out.push(Resolved { ident, option });
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(out),
    }
}
