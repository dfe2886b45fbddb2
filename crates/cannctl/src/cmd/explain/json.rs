//! `explain --format json`: the facts of the chosen release, with each value's availability
//! and products, the history across releases, and the support table.

use cann_config::history::spelling;
use cann_config::in_release::OptionIn;
use cann_config::meta::{
    describe_int_values, Gone, Lang, OptionMeta, RemovalMeta, Span, TypeMeta, ValueMapMeta,
};
use cann_config::{Product, Release};
use serde_json::{json, Value};

use super::{support_rows, View};

fn ids(products: &[Product]) -> Vec<&'static str> {
    products.iter().map(|p| p.id()).collect()
}

fn span(s: Span) -> Value {
    json!({"from": s.from.map(|r| r.id()), "last": s.last.map(|r| r.id())})
}

/// The facts that vary by release, as one release has them.
fn facts(at: &OptionIn) -> Value {
    let o = at.option;
    json!({
        "release": at.release.id(),
        "read": at.read,
        "default": at.default.map(|d| d.to_string()),
        "range": at.range.map(|r| describe_int_values(Some(r), o.special)),
        "range_is_advice": at.range.is_some_and(|r| r.advice),
        "ge_key": at.ge_key,
        "values": at.available_values().map(|v| v.value.value.to_string()).collect::<Vec<_>>(),
    })
}

pub(super) fn render(view: &View) -> Value {
    let (o, at, lang) = (view.option(), &view.at, view.lang);
    let release = at.release;
    json!({
        "name": o.name,
        "path": o.path,
        "config": o.config,
        "type": o.ty.name(),
        "class": match o.ty { TypeMeta::Object(c) | TypeMeta::Config(c) => Some(c), _ => None },
        "release": release.id(),
        "read": at.read,
        "default": at.default.map(|d| d.to_string()),
        "values": at.values.iter().map(|v| json!({
            "value": v.value.value.to_string(),
            "name": v.value.name,
            "aliases": v.value.aliases.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            "available": span(v.value.available),
            "in_release": v.available,
            "products": ids(&v.products),
            "own_products": v.value.products.is_some(),
            "removed": v.value.removed.map(|r| removal(o, &r, lang)),
            "doc": v.value.doc.get(lang),
        })).collect::<Vec<_>>(),
        "range": at.range.map(|r| describe_int_values(Some(r), o.special)),
        "range_is_advice": at.range.is_some_and(|r| r.advice),
        "by_product": o.by_product.iter().map(|f| json!({
            "products": ids(f.products),
            "range": f.range.map(|r| r.to_string()),
            "default": f.default.map(|d| d.to_string()),
        })).collect::<Vec<_>>(),
        "unit": o.unit,
        "ge_key": at.ge_key,
        "estimator": o.estimator,
        "session": o.session.map(|(n, acc)| format!("custom_op.parameter_map[\"{n}\"].{}", acc.as_str())),
        "tf2": o.tf2.map(|p| format!("npu.global_options().{p}")),
        "env": o.env,
        "available": span(o.available),
        "products": ids(&at.products),
        "history": o.history().iter().map(facts).collect::<Vec<_>>(),
        "deprecated": o.deprecated.map(|d| json!({
            "since": d.since.id(),
            "replacement": d.replacement,
            "values": mappings(d.values),
            "note": d.note.get(lang),
            "source": d.source,
        })),
        "introduced": o.introduced.map(|i| json!({
            "after": i.after,
            "first_recorded": i.first_recorded.id(),
            "may_not_exist_here": i.uncertain_in(release),
            "summary": cann_config::history::introduced_summary(&i, lang),
            "source": i.source,
        })),
        "removed": o.removed.iter().map(|r| removal(o, r, lang)).collect::<Vec<_>>(),
        "support": support_rows(o).into_iter().map(|(p, row)| {
            let releases: Vec<&str> = Release::ALL.iter().zip(row).filter(|(_, ok)| *ok).map(|(r, _)| r.id()).collect();
            json!({"product": p, "releases": releases})
        }).collect::<Vec<_>>(),
        "rules": view.rules.iter().map(|r| r.id).collect::<Vec<_>>(),
        "rules_in_release": view.rules.iter().filter(|r| r.available.contains(release)).map(|r| r.id).collect::<Vec<_>>(),
        "doc": o.doc.get(lang),
        "source": o.source,
    })
}

fn mappings(values: &[ValueMapMeta]) -> Value {
    values
        .iter()
        .map(|m| json!({"from": m.from.to_string(), "to": m.to.to_string()}))
        .collect()
}

fn removal(o: &OptionMeta, r: &RemovalMeta, lang: Lang) -> Value {
    json!({
        "last": match r.gone { Gone::After(l) => Some(l.id()), _ => None },
        "before": match r.gone { Gone::Before(b) => Some(b.id()), _ => None },
        "never_read": r.gone == Gone::Never,
        "spelling": (!r.is_whole()).then(|| spelling(o, r)),
        "replacement": r.replacement,
        "values": mappings(r.values),
        "note": r.note.get(lang),
        "empty_ignored": r.empty_ignored,
        "source": r.source,
    })
}
