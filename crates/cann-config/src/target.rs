//! What a config is checked against, and the errors of naming things.

use cann_i18n::catalog::config as msg;

use crate::meta::Lang;
use crate::{Product, Release};

/// A product and release to validate against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub product: Product,
    pub release: Release,
}

/// An id that the spec does not know, with what it does know; or a name several products
/// share, with those products.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} ({})", self.message(Lang::En), self.expected(Lang::En))]
pub struct UnknownId {
    /// `"product"` or `"release"`.
    pub kind: &'static str,
    pub id: String,
    pub expected: Vec<&'static str>,
    pub suggestion: Option<&'static str>,
    /// Products that all carry the name (a chip two lines use): the user must pick one.
    pub ambiguous: Vec<&'static str>,
}

impl UnknownId {
    pub fn new(kind: &'static str, id: &str, expected: &[&'static str]) -> Self {
        UnknownId {
            kind,
            id: id.to_string(),
            expected: expected.to_vec(),
            suggestion: cann_spec::did_you_mean(id, expected.iter().copied()),
            ambiguous: Vec::new(),
        }
    }

    /// "unknown product `x`; did you mean `y`?", in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        if !self.ambiguous.is_empty() {
            return msg::ambiguous_product(lang, &self.id);
        }
        let head = match self.kind {
            "product" => msg::unknown_product(lang, &self.id),
            _ => msg::unknown_release(lang, &self.id),
        };
        match self.suggestion {
            Some(s) => format!("{head}{}{}", sep(lang), msg::did_you_mean(lang, s)),
            None => head,
        }
    }

    /// What the spec knows instead: every id (there are few), or the products a shared
    /// name belongs to.
    pub fn expected(&self, lang: Lang) -> String {
        let list = if self.ambiguous.is_empty() {
            &self.expected
        } else {
            &self.ambiguous
        };
        let ids = list.iter().map(|i| format!("`{i}`"));
        msg::one_of(lang, &lang.join(ids))
    }
}

/// A product by a model or chip name the spec lists as an alias, matched on letters and
/// digits without case (`Atlas 800T A2`, `atlas-800t-a2`). Ids are matched by `FromStr`
/// before this.
pub fn product_named(name: &str) -> Result<Product, UnknownId> {
    use cann_spec::names::product_key;
    let key = product_key(name);
    let hits: Vec<&crate::meta::ProductMeta> = crate::PRODUCTS
        .iter()
        .filter(|p| product_key(p.id) == key || p.aliases.iter().any(|a| product_key(a) == key))
        .collect();
    let ids: Vec<&'static str> = crate::PRODUCTS.iter().map(|p| p.id).collect();
    let mut e = UnknownId::new("product", name, &ids);
    match hits.as_slice() {
        [one] => return Ok(one.product),
        [] => {
            // A name the start of exactly one longer alias suggests that alias; else the
            // nearest id or alias, as written in the spec.
            let names = || {
                crate::PRODUCTS
                    .iter()
                    .flat_map(|p| std::iter::once(p.id).chain(p.aliases.iter().copied()))
            };
            let longer: Vec<&'static str> = names()
                .filter(|n| !key.is_empty() && product_key(n).starts_with(&key))
                .collect();
            let near = match longer.as_slice() {
                [one] => Some(*one),
                _ => cann_spec::did_you_mean(name, names()),
            };
            // The suggestion is the id the name belongs to: what `--product` and the
            // config's `product:` are written with, whatever alias was nearest.
            // A name several products share (a chip) is no answer: no suggestion then.
            let owners: Vec<&'static str> = near.map_or_else(Vec::new, |n| {
                crate::PRODUCTS
                    .iter()
                    .filter(|p| p.id == n || p.aliases.contains(&n))
                    .map(|p| p.id)
                    .collect()
            });
            e.suggestion = match owners.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
        }
        many => {
            e.suggestion = None;
            e.ambiguous = many.iter().map(|p| p.id).collect();
        }
    }
    Err(e)
}

/// The separator between two clauses of one message.
fn sep(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "; ",
        Lang::Zh => "；",
    }
}

/// A value that is not one of an enumerated option's values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a value of `{option}`; expected one of {}", expected.join(", "))]
pub struct EnumError {
    pub option: &'static str,
    pub text: String,
    pub expected: Vec<String>,
}
