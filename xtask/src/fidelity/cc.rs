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

/// Every `"ge.xxx"` literal in a text: the keys the graph engine's code names.
pub fn ge_literals(text: &str) -> Result<BTreeSet<String>, Error> {
    let lit = re(r#""(ge\.[A-Za-z0-9_.]+)""#)?;
    Ok(lit.captures_iter(text).map(|c| c[1].to_string()).collect())
}
