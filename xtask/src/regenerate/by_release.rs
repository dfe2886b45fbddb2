//! An option's facts by release for the docs and the schema.
//!
//! Read from `cann_config`'s tables through `OptionMeta::in_release` and `history`, the
//! functions `explain --release` shows and `check` obeys, so a page or the schema cannot
//! tell another story about a release than the tool does.

use cann_config::in_release::OptionIn;
use cann_config::meta::{OptionMeta, RangeMeta};
use cann_config::{Release, OPTIONS};
use cann_spec::OptionSpec;

/// The facts in effect from `from` on (until the next row).
pub struct Row {
    pub from: &'static str,
    pub default: Option<String>,
    pub range: Option<String>,
    pub ge_key: Option<&'static str>,
    pub values: Vec<String>,
}

/// The generated table entry of a spec option.
pub fn meta(o: &OptionSpec) -> Option<&'static OptionMeta> {
    OPTIONS.iter().find(|m| m.path == o.path)
}

/// The option as the newest release has it.
pub fn newest(o: &OptionSpec) -> Option<OptionIn> {
    meta(o).map(|m| m.in_release(Release::LATEST))
}

/// A range's ends and unit as every page writes them (`1`, `100`, ` MB`): an open end is
/// `−∞` or `∞`, the unit has its leading space or is empty.
pub fn range_ends(min: Option<i64>, max: Option<i64>, o: &OptionSpec) -> [String; 3] {
    let lo = min.map_or("−∞".into(), |v| v.to_string());
    let hi = max.map_or("∞".into(), |v| v.to_string());
    let unit = o
        .unit
        .as_deref()
        .map(|u| format!(" {u}"))
        .unwrap_or_default();
    [lo, hi, unit]
}

/// A range as the HTML pages write it: `1 … 100 MB, -1`.
pub fn range_text(range: Option<RangeMeta>, o: &OptionSpec) -> Option<String> {
    let r = range?;
    let [lo, hi, unit] = range_ends(r.min, r.max, o);
    let special: String = o.special.iter().map(|(v, _)| format!(", {v}")).collect();
    // An advised bound reads differently wherever the docs show it.
    let advice = match (
        r.advice_note(cann_config::meta::Lang::En),
        r.advice_note(cann_config::meta::Lang::Zh),
    ) {
        (Some(en), Some(zh)) => format!(" {en} / {zh}"),
        _ => String::new(),
    };
    // A float's `above` leaves the bound out: `> 0 h`, `> 0 … 100 h`.
    let ends = match (r.min_exclusive, r.max) {
        (true, None) => format!("> {lo}"),
        (true, Some(_)) => format!("> {lo} … {hi}"),
        (false, _) => format!("{lo} … {hi}"),
    };
    Some(format!("{ends}{unit}{special}{advice}"))
}

/// One row per release whose facts differ from the release before, oldest first, among the
/// releases that read the option (the page's "Available" line says which); empty when every
/// such release has the same facts.
pub fn rows(o: &OptionSpec) -> Vec<Row> {
    let Some(m) = meta(o) else {
        return Vec::new();
    };
    let rows: Vec<Row> = m
        .history()
        .iter()
        .filter(|at| at.read)
        .map(|at| Row {
            from: at.release.id(),
            default: at.default.map(|d| d.to_string()),
            range: range_text(at.range, o),
            ge_key: at.ge_key,
            values: at
                .available_values()
                .map(|v| v.value.value.to_string())
                .collect(),
        })
        .fold(Vec::new(), |mut out: Vec<Row>, r| {
            // A release that stopped and resumed reading it with the same facts is no change.
            if out.last().is_none_or(|l| !l.same_facts(&r)) {
                out.push(r);
            }
            out
        });
    if rows.len() < 2 {
        return Vec::new();
    }
    rows
}

impl Row {
    fn same_facts(&self, other: &Row) -> bool {
        (&self.default, &self.range, self.ge_key, &self.values)
            == (&other.default, &other.range, other.ge_key, &other.values)
    }
}

/// The rows in one English sentence, for the schema's descriptions.
pub fn sentence(o: &OptionSpec) -> Option<String> {
    let rows = rows(o);
    if rows.is_empty() {
        return None;
    }
    let parts: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut facts = vec![format!(
                "default {}",
                r.default.as_deref().unwrap_or("unset")
            )];
            if let Some(range) = &r.range {
                facts.push(format!("range {range}"));
            }
            if let Some(k) = r.ge_key {
                facts.push(format!("graph-engine key {k}"));
            }
            if !r.values.is_empty() {
                facts.push(format!("values {}", r.values.join(", ")));
            }
            format!("from {}: {}", r.from, facts.join(", "))
        })
        .collect();
    Some(format!("By release: {}.", parts.join("; ")))
}
