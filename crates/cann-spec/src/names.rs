//! The one place Rust identifiers are derived from spec names.

use heck::{ToSnakeCase, ToUpperCamelCase};

/// `NPURunConfig` -> `NpuRunConfig`, `MemoryConfig` -> `MemoryConfig`.
pub fn type_name(spec_name: &str) -> String {
    // heck splits "NPURun" into "NPU" + "Run", which camel-cases to "NpuRun".
    spec_name.to_upper_camel_case()
}

/// Option and field names: `static_memory_policy`, `ASCEND_CACHE_PATH` -> `ascend_cache_path`.
pub fn field_name(spec_name: &str) -> String {
    let s = spec_name.to_snake_case();
    if is_keyword(&s) {
        format!("{s}_")
    } else {
        s
    }
}

/// Enum type for an enumerated option: `static_memory_policy` -> `StaticMemoryPolicy`.
/// Environment variables (upper-case names) get an `Env` prefix, so `AOE_MODE` and the
/// option `aoe_mode` do not collide.
pub fn enum_name(option_name: &str) -> String {
    let camel = option_name.to_upper_camel_case();
    let is_env = option_name.chars().any(|c| c.is_ascii_uppercase())
        && !option_name.chars().any(|c| c.is_ascii_lowercase());
    if is_env {
        format!("Env{camel}")
    } else {
        camel
    }
}

/// The enum an enumerated option's values have: its own, or that of the option whose values
/// it takes (`values_of`).
pub fn option_enum(o: &crate::model::OptionSpec) -> String {
    enum_name(o.values_of.as_deref().unwrap_or(&o.name))
}

/// Variant for a value name: `static-shape-expand` -> `StaticShapeExpand`.
pub fn variant_name(value_name: &str) -> String {
    let v = value_name.to_upper_camel_case();
    if v.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{v}")
    } else {
        v
    }
}

/// Product ids: `atlas-a2-training` -> `AtlasA2Training`.
pub fn product_variant(id: &str) -> String {
    id.to_upper_camel_case()
}

/// Release ids: `9.0.0` -> `V9_0_0`, `8.0.RC2` -> `V8_0_RC2`.
pub fn release_variant(id: &str) -> String {
    let body: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("V{body}")
}

/// Whether `s` is usable as an identifier body after derivation.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
    )
}

/// The key a product name is matched by: letters and digits, lower case, so `Atlas 800T A2`,
/// `atlas-800t-a2` and `ATLAS800TA2` are one name. The spec checks and user input use it.
pub fn product_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivations() {
        assert_eq!(type_name("NPURunConfig"), "NpuRunConfig");
        assert_eq!(field_name("ASCEND_CACHE_PATH"), "ascend_cache_path");
        assert_eq!(field_name("type"), "type_");
        assert_eq!(variant_name("static-shape-expand"), "StaticShapeExpand");
        assert_eq!(enum_name("aoe_mode"), "AoeMode");
        assert_eq!(enum_name("AOE_MODE"), "EnvAoeMode");
        assert_eq!(variant_name("1g"), "V1g");
        assert_eq!(product_variant("atlas-200i-500-a2"), "Atlas200i500A2");
        assert_eq!(release_variant("8.0.RC2"), "V8_0_RC2");
    }
}
