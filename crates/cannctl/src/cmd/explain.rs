//! `cannctl explain OPTION`

use std::fmt::Write as _;
use std::io::Write;

use cann_config::history::{removal_summary, spelling};
use cann_config::meta::{supports, Gone, Lang, OptionMeta, RemovalMeta, ValueMapMeta};
use cann_config::{Release, OPTIONS, PRODUCTS, RULES};
use serde_json::json;

use crate::cli::{ExplainArgs, OutputFormat};
use crate::{CliError, EXIT_OK};

/// By dotted path, option name or environment variable name.
pub fn find(query: &str) -> Result<&'static OptionMeta, CliError> {
    let q = query.trim();
    if let Some(o) = OPTIONS
        .iter()
        .find(|o| o.path == q || o.name == q || o.env == Some(q))
    {
        return Ok(o);
    }
    let names = OPTIONS.iter().map(|o| o.name);
    let hint = cann_spec::did_you_mean(q, names)
        .map(|s| format!("did you mean `{s}`? (`cannctl options` lists them all)"));
    Err(CliError::Usage(
        format!("unknown option `{q}`"),
        hint.or(Some("`cannctl options` lists every option".into())),
    ))
}

/// Whether `o` can be used on each product, per release.
fn support_rows(o: &OptionMeta) -> Vec<(&'static str, Vec<bool>)> {
    PRODUCTS
        .iter()
        .map(|p| {
            let row = Release::ALL
                .iter()
                .map(|r| o.available.contains(*r) && supports(o.products, p.product, *r))
                .collect();
            (p.id, row)
        })
        .collect()
}

pub fn run(a: &ExplainArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let o = find(&a.option)?;
    let lang: Lang = a.lang.into();
    let rules: Vec<_> = RULES
        .iter()
        .filter(|r| r.options.contains(&o.path))
        .collect();
    match a.format {
        OutputFormat::Json => {
            let v = json!({
                "name": o.name,
                "path": o.path,
                "config": o.config,
                "type": o.ty.name(),
                "default": o.default.map(|d| d.to_string()),
                "values": o.values.iter().map(|v| json!({
                    "value": v.lit.to_string(),
                    "name": v.name,
                    "aliases": v.aliases.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
                    "removed": v.removed.map(|r| removal_json(o, &r, lang)),
                    "doc": v.doc.get(lang),
                })).collect::<Vec<_>>(),
                "range": o.range.map(|r| cann_config::meta::describe_int_values(Some(r), o.special)),
                "by_product": o.by_product.iter().map(|f| json!({
                    "products": f.products.iter().map(|p| p.id()).collect::<Vec<_>>(),
                    "range": f.range.map(|r| r.to_string()),
                    "default": f.default.map(|d| d.to_string()),
                })).collect::<Vec<_>>(),
                "unit": o.unit,
                "ge_key": o.ge_key,
                "estimator": o.estimator,
                "session": o.session.map(|(n, acc)| format!("custom_op.parameter_map[\"{n}\"].{}", acc.as_str())),
                "tf2": o.tf2.map(|p| format!("npu.global_options().{p}")),
                "env": o.env,
                "deprecated": o.deprecated.map(|d| json!({
                    "since": d.since.id(),
                    "replacement": d.replacement,
                    "values": mappings_json(d.values),
                    "note": d.note.get(lang),
                    "source": d.source,
                })),
                "removed": o.removed.iter().map(|r| removal_json(o, r, lang)).collect::<Vec<_>>(),
                "support": support_rows(o).into_iter().map(|(p, row)| {
                    let releases: Vec<&str> = Release::ALL.iter().zip(row).filter(|(_, ok)| *ok).map(|(r, _)| r.id()).collect();
                    json!({"product": p, "releases": releases})
                }).collect::<Vec<_>>(),
                "rules": rules.iter().map(|r| r.id).collect::<Vec<_>>(),
                "doc": o.doc.get(lang),
                "source": o.source,
            });
            serde_json::to_writer_pretty(&mut *out, &v).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        OutputFormat::Human | OutputFormat::Sarif | OutputFormat::Github | OutputFormat::Gitlab => {
            out.write_all(human(o, lang, &rules).as_bytes())?
        }
    }
    Ok(EXIT_OK)
}

fn mappings_json(values: &[ValueMapMeta]) -> serde_json::Value {
    values
        .iter()
        .map(|m| json!({"from": m.from.to_string(), "to": m.to.to_string()}))
        .collect()
}

fn removal_json(o: &OptionMeta, r: &RemovalMeta, lang: Lang) -> serde_json::Value {
    json!({
        "last": match r.gone { Gone::After(l) => Some(l.id()), _ => None },
        "before": match r.gone { Gone::Before(b) => Some(b.id()), _ => None },
        "never_read": r.gone == Gone::Never,
        "spelling": (!r.is_whole()).then(|| spelling(o, r)),
        "replacement": r.replacement,
        "values": mappings_json(r.values),
        "note": r.note.get(lang),
        "source": r.source,
    })
}

fn human(o: &OptionMeta, lang: Lang, rules: &[&cann_config::meta::RuleMeta]) -> String {
    let zh = lang == Lang::Zh;
    let l = |en: &'static str, z: &'static str| if zh { z } else { en };
    let mut s = String::new();
    let _ = writeln!(s, "{} ({})\n  {}\n", o.name, o.config, o.path);
    let _ = writeln!(s, "{}\n", o.doc.get(lang));
    let _ = writeln!(s, "{}: {}", l("type", "类型"), o.ty.name());
    let _ = writeln!(
        s,
        "{}: {}",
        l("default", "默认值"),
        o.default
            .map_or_else(|| l("unset", "不设置").to_string(), |d| d.to_string())
    );
    if let Some(r) = o.range {
        let _ = writeln!(
            s,
            "{}: {}{}",
            l("range", "取值范围"),
            cann_config::meta::describe_int_values(Some(r), o.special),
            o.unit.map(|u| format!(" {u}")).unwrap_or_default()
        );
    }
    for f in o.by_product {
        let on: Vec<&str> = f.products.iter().map(|p| p.id()).collect();
        if let Some(r) = f.range {
            let _ = writeln!(
                s,
                "{} ({}): {r}{}",
                l("range", "取值范围"),
                on.join(", "),
                o.unit.map(|u| format!(" {u}")).unwrap_or_default()
            );
        }
        if let Some(d) = f.default {
            let _ = writeln!(s, "{} ({}): {d}", l("default", "默认值"), on.join(", "));
        }
    }
    if !o.values.is_empty() {
        let _ = writeln!(s, "{}:", l("values", "取值"));
        for v in o.values {
            let aliases: Vec<String> = v.aliases.iter().map(|a| a.to_string()).collect();
            let mut also = if aliases.is_empty() {
                String::new()
            } else {
                format!(" ({} {})", l("also", "兼容"), aliases.join(", "))
            };
            if let Some(r) = v.removed {
                let _ = write!(
                    also,
                    " [{}: {}]",
                    l("removed", "已移除"),
                    removal_summary(&r, lang)
                );
            }
            let _ = writeln!(
                s,
                "  {:<16} {}{also}\n  {:<16} {}",
                v.lit.to_string(),
                v.name,
                "",
                v.doc.get(lang)
            );
        }
    }
    if let Some(d) = o.deprecated {
        let _ = writeln!(
            s,
            "{}: {}{}",
            l("deprecated since", "弃用版本"),
            d.since,
            d.replacement
                .map(|r| format!(" -> {r}"))
                .unwrap_or_default()
        );
    }
    for r in o.removed {
        let what = if r.is_whole() {
            l("removed", "已移除").to_string()
        } else {
            format!(
                "{} {}",
                l("removed spelling", "已移除的写法"),
                spelling(o, r)
            )
        };
        let _ = writeln!(
            s,
            "{what}: {}\n  {}",
            removal_summary(r, lang),
            r.note.get(lang)
        );
    }
    let _ = writeln!(s, "\n{}:", l("how to set it", "设置方式"));
    if let Some(k) = o.ge_key {
        let _ = writeln!(s, "  graph engine   {k}");
    }
    if let Some(e) = o.estimator {
        let _ = writeln!(s, "  Estimator      {}({e}=...)", o.config);
    }
    if let Some((n, a)) = o.session {
        let _ = writeln!(
            s,
            "  TF1 session    custom_op.parameter_map[\"{n}\"].{} = ...",
            a.as_str()
        );
    }
    if let Some(p) = o.tf2 {
        let _ = writeln!(s, "  TF2            npu.global_options().{p} = ...");
    }
    if let Some(e) = o.env {
        let _ = writeln!(s, "  environment    export {e}=...");
    }
    let _ = write!(
        s,
        "\n{}:\n  {:<20}",
        l("support by release", "各版本支持情况"),
        ""
    );
    for r in Release::ALL {
        let _ = write!(s, " {:>8}", r.id());
    }
    s.push('\n');
    for (p, row) in support_rows(o) {
        let _ = write!(s, "  {p:<20}");
        for ok in row {
            let _ = write!(s, " {:>8}", if ok { "yes" } else { "-" });
        }
        s.push('\n');
    }
    if !rules.is_empty() {
        let _ = writeln!(s, "\n{}:", l("rules", "规则"));
        for r in rules {
            let _ = writeln!(
                s,
                "  {} ({}): {}\n    {}",
                r.id,
                r.severity.as_str(),
                r.conditions.join(" and "),
                r.message.get(lang)
            );
        }
    }
    if !o.source.is_empty() {
        let _ = writeln!(s, "\n{}:", l("sources", "来源"));
        for src in o.source {
            let _ = writeln!(s, "  {src}");
        }
    }
    s
}
