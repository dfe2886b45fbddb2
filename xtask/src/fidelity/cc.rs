//! Facts read from the adapter's C++ (`tf_adapter/util/npu_attrs.cc`) with regular
//! expressions: the statements involved are one per line and regular enough.
//!
//! - the accessor each TF1 session key is read with (`params.at("k").b()`, or a
//!   `value_case()` test against `kB`/`kI`/`kS`);
//! - the graph-engine keys each option is handed to: `ctx->GetAttr("_opt", &var)` names the
//!   variable, `xxx_options[KEY] = var;` hands it over, `KEY` a literal or a `ge::` constant
//!   resolved from the graph engine's headers.

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use super::Error;

fn re(pattern: &str) -> Result<Regex, Error> {
    Regex::new(pattern).map_err(|e| Error::Pattern(e.to_string()))
}

/// `NAME -> "value"` for `const char_t *const NAME = "value";` and
/// `const std::string NAME = "value";` in the graph engine's public headers.
pub fn ge_constants(headers: &[String]) -> Result<BTreeMap<String, String>, Error> {
    let re = re(
        r#"const\s+(?:char_t\s*\*\s*const|char\s*\*\s*const|std::string)\s+(\w+)\s*(?:=\s*|\()"([^"]*)""#,
    )?;
    let mut out = BTreeMap::new();
    for text in headers {
        for c in re.captures_iter(text) {
            out.entry(c[1].to_string())
                .or_insert_with(|| c[2].to_string());
        }
    }
    Ok(out)
}

/// Session key -> accessors it is read with.
pub fn session_accessors(text: &str) -> Result<BTreeMap<String, BTreeSet<String>>, Error> {
    let read = re(r#"params\.at\("(\w+)"\)\.(b|i|s)\(\)"#)?;
    let case = re(
        r#"params\.at\("(\w+)"\)\.value_case\(\)\s*==\s*(?:AttrValue::ValueCase::k|params\.at\("\w+"\)\.k)([BIS])"#,
    )?;
    let counted = re(r#"params\.count\("(\w+)"\)"#)?;
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in counted.captures_iter(text) {
        out.entry(c[1].to_string()).or_default();
    }
    for c in read.captures_iter(text) {
        out.entry(c[1].to_string())
            .or_default()
            .insert(c[2].to_string());
    }
    for c in case.captures_iter(text) {
        out.entry(c[1].to_string())
            .or_default()
            .insert(c[2].to_lowercase());
    }
    Ok(out)
}

/// Option (session attribute) name -> graph-engine keys its value is handed to.
pub fn ge_keys(text: &str, constants: &BTreeMap<String, String>) -> Result<GeKeys, Error> {
    let attr = re(r#"GetAttr\("_(\w+)",\s*&(\w+)\)"#)?;
    let assign = re(r#"\b\w*options_?\[([^\]]+)\]\s*=\s*(\w+)\s*;"#)?;
    let mut var_to_option: BTreeMap<String, String> = BTreeMap::new();
    for c in attr.captures_iter(text) {
        var_to_option.insert(c[2].to_string(), c[1].to_string());
    }
    let options: BTreeSet<&String> = var_to_option.values().collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut unresolved = BTreeSet::new();
    for c in assign.captures_iter(text) {
        let raw = c[1].trim();
        let key = if let Some(lit) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            lit.to_string()
        } else if let Some(name) = raw.strip_prefix("ge::") {
            match constants.get(name) {
                Some(v) => v.clone(),
                None => {
                    unresolved.insert(raw.to_string());
                    continue;
                }
            }
        } else {
            continue;
        };
        if !key.starts_with("ge.") {
            continue;
        }
        let var = &c[2];
        // A variable read from the attribute of another name, or one named as its option.
        let option = match var_to_option.get(var) {
            Some(o) => o.clone(),
            None if options.contains(&var.to_string()) => var.to_string(),
            None => continue,
        };
        out.entry(option).or_default().insert(key);
    }
    Ok(GeKeys {
        keys: out,
        unresolved,
    })
}

/// What [`ge_keys`] found: keys per option, and `ge::` constants no header defines.
pub struct GeKeys {
    pub keys: BTreeMap<String, BTreeSet<String>>,
    pub unresolved: BTreeSet<String>,
}

/// Session key -> accessors NPUEstimator writes it with (`parameter_map["k"].b = ...`, the
/// subscript possibly broken over lines).
pub fn parameter_map_writes(text: &str) -> Result<BTreeMap<String, BTreeSet<String>>, Error> {
    let write = re(r#"parameter_map\[\s*"(\w+)"\s*\]\.(b|i|s|f)\s*="#)?;
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in write.captures_iter(text) {
        out.entry(c[1].to_string())
            .or_default()
            .insert(c[2].to_string());
    }
    Ok(out)
}

/// A range a check in the code enforces: `min`/`max` inclusive, `line` 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub line: usize,
}

fn int(lit: &str, constants: &BTreeMap<String, i64>) -> Option<i64> {
    let digits = lit.trim_end_matches(['L', 'U', 'l', 'u']);
    digits.parse().ok().or_else(|| constants.get(lit).copied())
}

/// Ranges `npu_attrs.cc` checks on a variable named as a session key:
/// `if (v < A || v > B)` (with `B` a literal or a local constant `int64_t B = 7LL;`).
pub fn checked_ranges(text: &str) -> Result<BTreeMap<String, Checked>, Error> {
    let constant = re(
        r#"\b(?:int64_t|int32_t|int|uint32_t|const\s+int64_t)\s+(\w+)\s*=\s*(-?\d+)[LlUu]*\s*;"#,
    )?;
    let both = re(r#"if\s*\(\s*(\w+)\s*<\s*(-?\w+)\s*\|\|\s*(\w+)\s*>\s*(\w+)\s*\)"#)?;
    let constants: BTreeMap<String, i64> = constant
        .captures_iter(text)
        .filter_map(|c| Some((c[1].to_string(), c[2].parse().ok()?)))
        .collect();
    let keys = session_accessors(text)?;
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = both.captures(line) {
            if c[1] != c[3] || !keys.contains_key(&c[1]) {
                continue;
            }
            out.insert(
                c[1].to_string(),
                Checked {
                    min: int(&c[2], &constants),
                    max: int(&c[4], &constants),
                    line: i + 1,
                },
            );
        }
    }
    Ok(out)
}

/// Keyword -> the lower bound NPURunConfig's `util.check_positive_integer(x, "x")` (1) or
/// `util.check_nonnegative_integer(x, "x")` (0) puts on it.
pub fn python_checks(text: &str) -> Result<BTreeMap<String, Checked>, Error> {
    let check = re(r#"util\.check_(positive|nonnegative)_integer\(\s*(\w+)\s*,"#)?;
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = check.captures(line) {
            out.insert(
                c[2].to_string(),
                Checked {
                    min: Some(if &c[1] == "positive" { 1 } else { 0 }),
                    max: None,
                    line: i + 1,
                },
            );
        }
    }
    Ok(out)
}

/// Every `"ge.xxx"` literal in a text: the keys the graph engine's code names.
pub fn ge_literals(text: &str) -> Result<BTreeSet<String>, Error> {
    let lit = re(r#""(ge\.[A-Za-z0-9_.]+)""#)?;
    Ok(lit.captures_iter(text).map(|c| c[1].to_string()).collect())
}

#[cfg(test)]
mod checks {
    use super::*;

    #[test]
    fn a_two_sided_check_on_a_session_key_is_a_range() {
        let text = "if (params.count(\"local_rank_id\") > 0) {}\n\
                    inline Status CheckLocalRankId(int64_t local_rank_id) {\n\
                    int64_t kMaxDeviceId = 7LL;\n\
                    if (local_rank_id < 0LL || local_rank_id > kMaxDeviceId) {\n\
                    if (other < 0LL || other > 3) {\n";
        let r = checked_ranges(text).unwrap_or_default();
        assert_eq!(
            r.get("local_rank_id"),
            Some(&Checked {
                min: Some(0),
                max: Some(7),
                line: 4
            })
        );
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn python_integer_checks_are_lower_bounds() {
        let text =
            "x\n    util.check_positive_integer(iterations_per_loop, \"iterations_per_loop\")\n\
                    util.check_nonnegative_integer(graph_run_mode, \"graph_run_mode\")\n";
        let r = python_checks(text).unwrap_or_default();
        assert_eq!(r["iterations_per_loop"].min, Some(1));
        assert_eq!(r["iterations_per_loop"].line, 2);
        assert_eq!(r["graph_run_mode"].min, Some(0));
    }
}
