//! JSON Schema (draft 2020-12) of the user config files `cannctl check` reads.
//!
//! The schema says what can be said without a target: keys, types, values, ranges and
//! character sets. Support by product and release needs the target and stays with
//! `cannctl check`; descriptions mention it.

use cann_config::meta::Lang;
use cann_spec::{CharClass, ConfigClass, Literal, OptionSpec, OptionType, Spec};
use serde_json::{json, Map, Value};

use super::by_release;
use crate::ensure::{MARKER, REGENERATE};

pub const PATH: &str = "schema/cann-config.schema.json";

/// The schema's identity for editors and validators. A URN rather than a web address: the
/// schema ships inside the tool (`cannctl schema`), and no server is implied.
pub const ID: &str = "urn:cannctl:schema:cann-config";

pub fn generate(spec: &Spec) -> String {
    let mut root_props = Map::new();
    root_props.insert(
        "product".into(),
        json!({
            "description": "Product the config is checked for (`cannctl check --product` overrides).",
            "type": "string",
            "enum": spec.products.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            "anyOf": spec.products.iter().map(|p| json!({
                "const": p.id, "title": p.name.en, "description": p.name.en,
            })).collect::<Vec<_>>(),
        }),
    );
    root_props.insert(
        "release".into(),
        json!({
            "description": "CANN release the config is checked for (`cannctl check --release` overrides; default: the newest). Quote it: 9.0 unquoted is a number.",
            "type": "string",
            "enum": spec.releases.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        }),
    );
    let mut defs = Map::new();
    for c in &spec.configs {
        defs.insert(c.name.clone(), class_schema(spec, c));
        if let Some(key) = &c.root_key {
            root_props.insert(
                key.clone(),
                json!({ "$ref": format!("#/$defs/{}", c.name), "description": c.doc.en }),
            );
        }
    }
    let schema = json!({
        "$comment": format!("{MARKER} from spec/; do not edit. Run `{REGENERATE}` after changing the spec."),
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID,
        "title": "cannctl config file",
        "description": "A CANN TF Adapter configuration as `cannctl check` reads it (YAML or JSON). `cannctl schema` prints it; use it from YAML with `# yaml-language-server: $schema=<path to this file>`.",
        "type": "object",
        "properties": root_props,
        "additionalProperties": false,
        "$defs": defs,
    });
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

fn class_schema(spec: &Spec, c: &ConfigClass) -> Value {
    let mut props = Map::new();
    for o in spec.options_of(&c.name) {
        props.insert(o.name.clone(), option_schema(spec, o));
    }
    json!({
        "title": c.name,
        "description": c.doc.en,
        // An empty section (`memory_config:` with nothing under it) is accepted.
        "type": ["object", "null"],
        "properties": props,
        // cannctl warns about an environment variable it does not know and checks the
        // rest; every other class refuses an unknown option.
        "additionalProperties": match c.kind {
            cann_spec::ConfigKind::Environment => json!({ "type": ["string", "integer", "boolean"] }),
            cann_spec::ConfigKind::Python => json!(false),
        },
    })
}

/// A literal of the loaded model or of the compiled tables: one type, either store.
fn lit<S: AsRef<str>>(l: &Literal<S>) -> Value {
    match l {
        Literal::Bool(b) => json!(b),
        Literal::Int(i) => json!(i),
        Literal::Float(x) => json!(x.get()),
        Literal::Str(s) => json!(s.as_ref()),
    }
}

fn option_schema(spec: &Spec, o: &OptionSpec) -> Value {
    let mut s = Map::new();
    let mut desc = o.doc.en.clone();
    if let Some(k) = &o.ge_key {
        desc.push_str(&format!("\nGraph-engine key: {k}."));
    }
    if let Some(u) = &o.unit {
        desc.push_str(&format!("\nUnit: {u}."));
    }
    if o.available.is_empty_with(|id| spec.release_index(id)) {
        desc.push_str("\nAvailable in none of the releases this schema covers.");
    } else if !o.available.is_all() {
        desc.push_str(&format!("\nAvailable in releases {}.", o.available));
    }
    if let Some(h) = by_release::sentence(o) {
        desc.push('\n');
        desc.push_str(&h);
    }
    desc.push_str("\nSupport by product and release: `cannctl explain ");
    desc.push_str(&o.name);
    desc.push_str("`.");
    if let Some(d) = &o.deprecated {
        desc.push_str(&format!("\n{}.", d.sentence(&o.name, Lang::En)));
        s.insert("deprecated".into(), json!(true));
    }
    if let Some(r) = o.removal() {
        let rep = r.replacement.as_deref();
        let line = r.gone.retirement(&r.what(&o.name), rep, Lang::En);
        desc.push_str(&format!("\n{line}."));
        s.insert("deprecated".into(), json!(true));
    }
    s.insert("title".into(), json!(o.name));
    s.insert("description".into(), json!(desc));
    // Editors offer one default: the newest release's (older ones are in the description).
    let newest = by_release::newest(o);
    match &newest {
        Some(n) => {
            if let Some(d) = n.default {
                s.insert("default".into(), lit(&d));
            }
        }
        None => {
            if let Some(d) = &o.default {
                s.insert("default".into(), lit(d));
            }
        }
    }
    match &o.ty {
        OptionType::Bool => {
            s.insert("type".into(), json!("boolean"));
        }
        OptionType::Int => {
            s.insert("type".into(), json!("integer"));
        }
        OptionType::IntEnum => {
            s.insert("type".into(), json!("integer"));
        }
        OptionType::Float => {
            s.insert("type".into(), json!("number"));
        }
        OptionType::StrEnum | OptionType::Str | OptionType::CorePair => {
            s.insert("type".into(), json!("string"));
        }
        OptionType::Path { chars } => {
            s.insert("type".into(), json!("string"));
            s.insert("pattern".into(), json!(path_pattern(chars)));
        }
        OptionType::Config(class) => {
            return json!({
                "$ref": format!("#/$defs/{class}"),
                "title": o.name,
                "description": desc,
            });
        }
        // Only a script can pass a Python object: no value of a config file is valid.
        OptionType::Object(_) => {
            return json!({
                "title": o.name,
                "description": desc,
                "not": {},
            });
        }
    }
    if o.ty == OptionType::CorePair {
        // As `CoreCounts::from_str`: two whole numbers above 0 around a `|`.
        s.insert(
            "pattern".into(),
            json!(r"^\s*0*[1-9][0-9]*\s*\|\s*0*[1-9][0-9]*\s*$"),
        );
        s.insert("examples".into(), json!(["24|48"]));
    }
    let mut bounds = Map::new();
    let range = match &newest {
        Some(n) => n.range,
        None => o.range,
    };
    // An advised bound is a warning in `check`, not a rule of the format: the schema leaves
    // it out.
    if let Some(r) = range.as_ref().filter(|r| !r.advice) {
        match r.min {
            Some(min) if r.min_exclusive => {
                bounds.insert("exclusiveMinimum".into(), json!(min));
            }
            Some(min) => {
                bounds.insert("minimum".into(), json!(min));
            }
            None => {}
        }
        if let Some(max) = r.max {
            bounds.insert("maximum".into(), json!(max));
        }
    }
    if o.special.is_empty() {
        s.extend(bounds);
    } else {
        // The range, or one of the special values the range excludes.
        let mut any = vec![Value::Object(bounds)];
        any.extend(
            o.special
                .iter()
                .map(|(v, t)| json!({ "const": v, "description": t.en })),
        );
        s.insert("anyOf".into(), Value::Array(any));
    }
    // Enumerated values. Bool options also list their two values, for the descriptions.
    if !o.values.is_empty() {
        let mut all: Vec<Value> = o.values.iter().map(|v| lit(&v.value)).collect();
        let mut any = Vec::new();
        for v in &o.values {
            let mut d = v.doc.en.clone();
            if !v.available.is_all() {
                d.push_str(&format!(" Available in releases {}.", v.available));
            }
            any.push(json!({ "const": lit(&v.value), "title": v.name, "description": d }));
        }
        for v in &o.values {
            for a in &v.aliases {
                all.push(lit(a));
                any.push(json!({
                    "const": lit(a),
                    "title": format!("{} (legacy spelling of {})", v.name, v.value),
                    "description": format!("Legacy spelling of {}; accepted with a warning. Write {}.", v.value, v.value),
                    "deprecated": true,
                }));
            }
        }
        if o.ty != OptionType::Bool {
            s.insert("enum".into(), Value::Array(all));
        }
        s.insert("anyOf".into(), Value::Array(any));
        // Canonical spellings, in spec order; aliases are the other `enum` members.
        s.insert(
            "x-canonical".into(),
            Value::Array(o.values.iter().map(|v| lit(&v.value)).collect()),
        );
    }
    Value::Object(s)
}

/// The regular expression for a path's allowed characters, as the validator's
/// `CharClass::matches`. CJK blocks beyond the Basic Multilingual Plane are left out: a
/// schema pattern cannot name them without the `u` flag.
fn path_pattern(chars: &[CharClass]) -> String {
    let mut class = String::new();
    for c in chars {
        match c {
            CharClass::AsciiAlphanumeric => class.push_str("A-Za-z0-9"),
            CharClass::Cjk => {
                for (lo, hi) in cann_spec::chars::CJK
                    .iter()
                    .filter(|(_, hi)| (*hi as u32) <= 0xFFFF)
                {
                    class.push_str(&format!("\\u{:04X}-\\u{:04X}", *lo as u32, *hi as u32));
                }
            }
            CharClass::Literal(ch) => {
                if "\\]^-[".contains(*ch) {
                    class.push('\\');
                }
                class.push(*ch);
            }
        }
    }
    format!("^[{class}]*$")
}
