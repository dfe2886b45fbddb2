//! `#[cann(...)]` attributes of a downstream struct and its fields.

use syn::{Attribute, LitStr};

/// Attributes on the struct.
pub struct Container {
    /// Spec directory, relative to the file that holds the struct.
    pub spec: LitStr,
    /// The release the struct is written for.
    pub release: LitStr,
}

/// Attributes on one field.
#[derive(Default)]
pub struct Field {
    /// The option the field stands for, when it is not the field's own name.
    pub rename: Option<LitStr>,
}

fn cann_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("cann"))
}

pub fn container(input: &syn::DeriveInput) -> syn::Result<Container> {
    let mut spec = None;
    let mut release = None;
    for a in cann_attrs(&input.attrs) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("spec") {
                spec = Some(m.value()?.parse::<LitStr>()?);
            } else if m.path.is_ident("release") {
                release = Some(m.value()?.parse::<LitStr>()?);
            } else {
                return Err(
                    m.error("unknown attribute; expected `spec = \"...\"` or `release = \"...\"`")
                );
            }
            Ok(())
        })?;
    }
    let need = |what: &str| {
        syn::Error::new_spanned(
            &input.ident,
            format!("#[derive(CannConfig)] needs `#[cann({what} = \"...\")]` on the struct"),
        )
    };
    Ok(Container {
        spec: spec.ok_or_else(|| need("spec"))?,
        release: release.ok_or_else(|| need("release"))?,
    })
}

pub fn field(f: &syn::Field) -> syn::Result<Field> {
    let mut out = Field::default();
    for a in cann_attrs(&f.attrs) {
        a.parse_nested_meta(|m| {
            if m.path.is_ident("rename") {
                out.rename = Some(m.value()?.parse::<LitStr>()?);
                Ok(())
            } else {
                Err(m.error("unknown field attribute; expected `rename = \"option_name\"`"))
            }
        })?;
    }
    Ok(out)
}
