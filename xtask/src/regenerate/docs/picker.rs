//! The release × product picker (`picker.html`): for each release and product, exactly the
//! options `cannctl check` accepts there and the values each takes there. The page's script
//! reads `assets/picker-data.js`: per option and per value, one bit mask of products per
//! release (bit i: the spec's i-th product).

use serde_json::{json, Value};

use crate::ensure::{MARKER, REGENERATE};
use crate::regenerate::by_release;
use crate::regenerate::facts::Facts;

pub fn script(f: &Facts<'_>) -> String {
    format!(
        "// {MARKER} from spec/; do not edit. Run `{REGENERATE}`.\n\
         window.CANN_PICKER = {};\n",
        serde_json::to_string(&data(f)).unwrap_or_else(|_| "{}".into())
    )
}

fn mask(f: &Facts<'_>, ok: impl Fn(&str) -> bool) -> u64 {
    f.spec
        .products
        .iter()
        .enumerate()
        .filter(|(_, p)| ok(&p.id))
        .fold(0, |m, (i, _)| m | (1u64 << i))
}

fn data(f: &Facts<'_>) -> Value {
    let spec = f.spec;
    let releases: Vec<Value> = spec
        .releases
        .iter()
        .enumerate()
        .map(|(ri, r)| {
            json!({
                "id": r.id,
                "unreleased": r.unreleased,
                "products": mask(f, |p| f.release_knows(ri, p)),
            })
        })
        .collect();
    let products: Vec<Value> = spec
        .products
        .iter()
        .map(|p| json!({ "id": p.id, "en": p.name.en, "zh": p.name.zh }))
        .collect();
    let options: Vec<Value> = spec
        .options
        .iter()
        .filter_map(|o| {
            let support: Vec<u64> = (0..spec.releases.len())
                .map(|ri| mask(f, |p| f.supported(o, p, ri)))
                .collect();
            if support.iter().all(|m| *m == 0) {
                return None;
            }
            let meta = by_release::meta(o);
            // Each value: its literal and, by release, the products that may use it there
            // (the option's own support narrowed by the value's).
            let values: Vec<Value> = match meta {
                Some(m) => m
                    .values
                    .iter()
                    .enumerate()
                    .map(|(vi, v)| {
                        let by: Vec<u64> = cann_config::Release::ALL
                            .iter()
                            .enumerate()
                            .map(|(ri, r)| {
                                let at = m.in_release(*r);
                                let Some(vin) = at.values.get(vi).filter(|x| x.available) else {
                                    return 0;
                                };
                                support[ri] & mask(f, |p| vin.products.iter().any(|q| q.id() == p))
                            })
                            .collect();
                        json!([v.value.to_string(), by])
                    })
                    .collect(),
                None => Vec::new(),
            };
            Some(json!({ "name": o.name, "path": o.path, "support": support, "values": values }))
        })
        .collect();
    json!({ "releases": releases, "products": products, "options": options })
}
