//! Product support by release range (`products: { atlas-350: "9.0.0.." }`), as classes,
//! options and values write it.

use super::MapReader;
use crate::diag::{Diagnostics, Loc};
use crate::keys as k;
use crate::model::Support;
use crate::yaml::{Kind, Node};

/// `products: { atlas-350: "9.0.0..", ... }`
pub(crate) fn read_support(r: &MapReader<'_>, d: &mut Diagnostics) -> Vec<Support> {
    let Some(node) = r.get(k::PRODUCTS) else {
        return Vec::new();
    };
    let Kind::Map(entries) = &node.kind else {
        d.error(
            Loc::new(r.file(), node.pos),
            format!(
                "`products` must map product ids to release ranges, found {}",
                node.kind.describe()
            ),
        )
        .hint("write `products: { atlas-a2-training: \"8.0.RC2..\" }`");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in entries {
        let loc = Loc::new(r.file(), key.pos);
        let Some(product) = key.as_str() else {
            d.error(loc, "product ids must be strings");
            continue;
        };
        // One range, or a list when support lapsed and came back.
        let ranges: Vec<&Node> = match &value.kind {
            Kind::Seq(items) => items.iter().collect(),
            _ => vec![value],
        };
        for rn in ranges {
            let Some(text) = rn.as_str() else {
                d.error(
                    Loc::new(r.file(), rn.pos),
                    format!("the release range of `{product}` must be a string such as \"9.0.0..\", or a list of them"),
                );
                continue;
            };
            let releases = super::read_range(text, Loc::new(r.file(), rn.pos), d);
            out.push(Support {
                product: product.to_string(),
                releases,
                loc: loc.clone(),
            });
        }
    }
    out
}
