//! What every output must say once the drill's spec edits are in: each kind of change, in
//! each place a user looks.

use std::path::Path;

use serde_json::Value;

use super::edit::*;
use super::{ensure, Drill, Result};

pub fn products(d: &Drill) -> Result<()> {
    let v = d.json(&["products", "--release", RELEASE, "--format", "json"], 0)?;
    let listed = v
        .as_array()
        .is_some_and(|ps| ps.iter().any(|p| p["id"] == PRODUCT));
    ensure(listed, "`cannctl products` does not list the new product")
}

pub fn explain(d: &Drill) -> Result<()> {
    let at = |option: &str, release: Option<&str>| -> Result<Value> {
        let mut args = vec!["explain", option, "--format", "json"];
        args.extend(release.iter().flat_map(|r| ["--release", *r]));
        d.json(&args, 0)
    };
    // Changed default: the old release keeps the old one, the new release and the newest
    // (no --release) say the new one.
    let old = at(CHANGED_OPTION, Some(PREVIOUS))?;
    ensure(
        old["default"] == OLD_DEFAULT,
        "explain --release 9.0.0 does not keep the old default",
    )?;
    for r in [Some(RELEASE), None] {
        let new = at(CHANGED_OPTION, r)?;
        ensure(
            new["default"] == NEW_DEFAULT && new["release"] == RELEASE,
            "explain does not show the changed default",
        )?;
    }
    let en = d.run(&["explain", CHANGED_OPTION, "--lang", "en"], 0)?;
    ensure(
        en.contains(&format!(
            "from {RELEASE}: default {OLD_DEFAULT} (centralized) -> {NEW_DEFAULT} (separate)"
        )),
        "explain's history does not show the changed default (en)",
    )?;
    let zh = d.run(&["explain", CHANGED_OPTION, "--lang", "zh"], 0)?;
    ensure(
        zh.contains(&format!(
            "自 {RELEASE} 起：默认值 {OLD_DEFAULT} (centralized) -> {NEW_DEFAULT} (separate)"
        )),
        "explain's history does not show the changed default (zh)",
    )?;
    // New value: absent from the old release, and marked there.
    let value_in = |v: &Value| {
        v["values"].as_array().and_then(|vs| {
            vs.iter()
                .find(|x| x["value"].as_str().is_some_and(|v| v.contains(NEW_VALUE)))
                .map(|x| x["in_release"] == true)
        })
    };
    ensure(
        value_in(&at(VALUE_OPTION, Some(PREVIOUS))?) == Some(false)
            && value_in(&at(VALUE_OPTION, Some(RELEASE))?) == Some(true),
        "explain --release does not follow the new value",
    )?;
    let en = d.run(&["explain", VALUE_OPTION, "--release", PREVIOUS], 0)?;
    ensure(
        en.contains(&format!("[not in {PREVIOUS}: release {RELEASE} or later]")),
        "explain --release 9.0.0 does not mark the value that arrives in 9.1.0",
    )?;
    let zh = d.run(
        &[
            "explain",
            VALUE_OPTION,
            "--release",
            PREVIOUS,
            "--lang",
            "zh",
        ],
        0,
    )?;
    ensure(
        zh.contains(&format!("[{PREVIOUS} 不可用：")),
        "explain --release 9.0.0 --lang zh does not mark the new value",
    )?;
    // New option: found by its graph-engine key, not read before its release.
    let by_key = at(NEW_OPTION_GE_KEY, None)?;
    ensure(
        by_key["path"] == NEW_OPTION && by_key["read"] == true,
        "explain does not find the new option by its ge key",
    )?;
    ensure(
        at(NEW_OPTION, Some(PREVIOUS))?["read"] == false,
        "explain --release 9.0.0 says the new option is read",
    )?;
    // Deprecation.
    let dep = at(DEPRECATED_OPTION, None)?;
    ensure(
        dep["deprecated"]["since"] == RELEASE,
        "explain does not show the deprecation",
    )?;
    // New rule: stated in the new release only.
    let rules = |v: &Value| {
        v["rules_in_release"]
            .as_array()
            .is_some_and(|rs| rs.iter().any(|r| r == NEW_RULE))
    };
    ensure(
        rules(&at(VALUE_OPTION, Some(RELEASE))?) && !rules(&at(VALUE_OPTION, Some(PREVIOUS))?),
        "explain --release does not follow the new rule",
    )?;
    // New product: the class's support reaches it, from the new release on (the new
    // release and any unreleased one after it).
    let support = at(CHANGED_OPTION, None)?;
    let on_product = support["support"].as_array().is_some_and(|rows| {
        rows.iter().any(|r| {
            r["product"] == PRODUCT
                && r["releases"]
                    .as_array()
                    .and_then(|rs| rs.first())
                    .is_some_and(|first| first == RELEASE)
        })
    });
    ensure(
        on_product,
        "explain does not show support on the new product",
    )
}

pub fn check(d: &Drill) -> Result<()> {
    let on = |product: &str, name: &str, yaml: &str, release: &str, code: i32| -> Result<String> {
        let file = d.write(name, yaml)?;
        d.run(
            &[
                "check",
                &file,
                "--product",
                product,
                "--release",
                release,
                "--format",
                "json",
            ],
            code,
        )
    };
    let case = |name: &str, yaml: &str, release: &str, code: i32| {
        on(product_for(release), name, yaml, release, code)
    };
    let value =
        format!("npu_run_config:\n  memory_config:\n    memory_optimization_policy: {NEW_VALUE}\n");
    let rule = format!("\"rule\": \"{NEW_RULE}\"");
    let old = case("value-old.yaml", &value, PREVIOUS, 1)?;
    ensure(!old.contains(&rule), "check 9.0.0 states the 9.1.0 rule")?;
    let new = case("value-new.yaml", &value, RELEASE, 0)?;
    ensure(
        new.contains(&rule),
        "check 9.1.0 does not state the new rule",
    )?;
    // A new value of an option the runtime acts on: the build above compiled the runtime
    // with it, and check takes it from its release on. The drill product is not among
    // NPURunConfig's, so on a product that has the option in both releases.
    let cache = format!("npu_run_config:\n  op_compiler_cache_mode: {NEW_CACHE_VALUE}\n");
    let a2 = "atlas-a2-training";
    on(a2, "cache-old.yaml", &cache, PREVIOUS, 1)?;
    on(a2, "cache-new.yaml", &cache, RELEASE, 0)?;
    let option = "npu_run_config:\n  memory_config:\n    drill_pool_size: 8\n";
    case("option-old.yaml", option, PREVIOUS, 1)?;
    case("option-new.yaml", option, RELEASE, 0)?;
    let too_big = "npu_run_config:\n  memory_config:\n    drill_pool_size: 65\n";
    case("option-range.yaml", too_big, RELEASE, 1)?;
    let deprecated = "npu_run_config:\n  memory_config:\n    variable_use_1g_huge_page: 1\n";
    // The option names its own products, which the drill product is not among.
    let file = d.write("deprecated.yaml", deprecated)?;
    let said = d.run(
        &[
            "check",
            &file,
            "--product",
            "atlas-a2-training",
            "--release",
            RELEASE,
        ],
        0,
    )?;
    ensure(
        said.contains("deprecated"),
        "check 9.1.0 does not warn of the deprecation",
    )?;
    // The new product takes what its class supports, and nothing it does not.
    let unsupported = d.write(
        "unsupported.yaml",
        "npu_run_config:\n  aicore_num: \"8|16\"\n",
    )?;
    let rejected = d.run(
        &[
            "check",
            &unsupported,
            "--product",
            PRODUCT,
            "--release",
            RELEASE,
        ],
        1,
    )?;
    ensure(
        rejected.contains("not supported"),
        "an option the new product does not support was not rejected",
    )
}

/// The product to check a release with: the new one in the new release, else one both have.
fn product_for(release: &str) -> &'static str {
    if release == RELEASE {
        PRODUCT
    } else {
        "atlas-a2-training"
    }
}

pub fn emit(d: &Drill) -> Result<()> {
    let file = d.write(
        "emit.yaml",
        "npu_run_config:\n  memory_config:\n    drill_pool_size: 8\n",
    )?;
    for (to, want) in [
        ("ge", NEW_OPTION_GE_KEY),
        ("estimator", "drill_pool_size=8"),
        ("session", "parameter_map[\"drill_pool_size\"].i = 8"),
    ] {
        let out = d.run(
            &[
                "emit",
                &file,
                "--to",
                to,
                "--product",
                PRODUCT,
                "--release",
                RELEASE,
            ],
            0,
        )?;
        ensure(
            out.contains(want),
            &format!("emit --to {to} does not write the new option"),
        )?;
    }
    Ok(())
}

pub fn diff(d: &Drill) -> Result<()> {
    let v = d.json(&["diff", PREVIOUS, RELEASE, "--format", "json"], 0)?;
    let changes = v["changes"].as_array().cloned().unwrap_or_default();
    let has = |kind: &str, subject: &str| {
        changes
            .iter()
            .any(|c| c["kind"] == kind && c["subject"].as_str() == Some(subject))
    };
    for (kind, subject) in [
        ("product", PRODUCT),
        ("option", NEW_OPTION),
        ("default", CHANGED_OPTION),
        ("deprecation", DEPRECATED_OPTION),
        ("rule", NEW_RULE),
    ] {
        ensure(
            has(kind, subject),
            &format!("`cannctl diff` does not report the {kind} change of {subject}"),
        )?;
    }
    let value = changes.iter().any(|c| {
        c["kind"] == "value"
            && c["subject"] == VALUE_OPTION
            && c["after"].as_str().is_some_and(|a| a.contains(NEW_VALUE))
    });
    ensure(value, "`cannctl diff` does not report the new value")
}

pub fn docs(copy: &Path) -> Result<()> {
    let read = |rel: &str| -> Result<String> {
        std::fs::read_to_string(copy.join(rel))
            .map_err(|e| format!("drill failed: {rel} was not generated: {e}").into())
    };
    let release = read(&format!("docs/releases/{RELEASE}.html"))?;
    for want in [
        PRODUCT,
        "drill_pool_size",
        "atomic_clean_policy",
        "variable_use_1g_huge_page",
        NEW_VALUE,
        NEW_RULE,
    ] {
        ensure(
            release.contains(want),
            &format!("the {RELEASE} release page does not list {want}"),
        )?;
    }
    let changed = read(&format!("docs/options/{CHANGED_OPTION}.html"))?;
    let history = changed
        .split("id=\"history\"")
        .nth(1)
        .and_then(|h| h.split("</table>").next())
        .unwrap_or_default();
    ensure(
        history.contains(&format!("<td>{RELEASE}</td><td><code>{NEW_DEFAULT}</code>"))
            && !history.contains(&format!("<td>{PREVIOUS}</td>"))
            && history.contains(&format!("<code>{OLD_DEFAULT}</code>")),
        "the option page's history does not show the default by release",
    )?;
    let value_page = read(&format!("docs/options/{VALUE_OPTION}.html"))?;
    ensure(
        value_page.contains(NEW_VALUE),
        "the option page does not list the new value",
    )?;
    read(&format!("docs/options/{NEW_OPTION}.html"))?;
    let class = read("docs/classes/MemoryConfig.html")?;
    ensure(
        class.contains("drill_pool_size") && class.contains(PRODUCT),
        "the MemoryConfig page does not show the new option and product",
    )?;
    let products = read("docs/products.html")?;
    ensure(
        products.contains(PRODUCT),
        "the products page does not list the new product",
    )?;
    let reference = read("docs/reference.md")?;
    ensure(
        reference.contains(&format!("from {RELEASE}: default {NEW_DEFAULT}")),
        "docs/reference.md does not show the default by release",
    )
}

pub fn schema(copy: &Path) -> Result<()> {
    let text = std::fs::read_to_string(copy.join("schema/cann-config.schema.json"))?;
    let v: Value = serde_json::from_str(&text)?;
    let memory = &v["$defs"]["MemoryConfig"]["properties"];
    ensure(
        // A number in the schema, where the ge map writes a string.
        memory["atomic_clean_policy"]["default"]
            .as_i64()
            .map(|d| d.to_string())
            == Some(NEW_DEFAULT.to_string()),
        "the schema's default is not the newest release's",
    )?;
    ensure(
        memory["drill_pool_size"]["maximum"] == 64,
        "the schema does not have the new option with its range",
    )?;
    let enum_has = memory["memory_optimization_policy"]["enum"]
        .as_array()
        .is_some_and(|e| e.iter().any(|x| *x == NEW_VALUE));
    ensure(enum_has, "the schema does not list the new value")?;
    ensure(
        memory["variable_use_1g_huge_page"]["deprecated"] == true,
        "the schema does not mark the deprecation",
    )?;
    let releases = v["properties"]["release"]["enum"]
        .as_array()
        .is_some_and(|e| e.iter().any(|x| *x == RELEASE));
    ensure(releases, "the schema does not know the new release")
}

/// A downstream struct deriving `CannConfig` at each release writes that release's default
/// into the `ge.*` map.
pub const DERIVE_EXAMPLE: &str = r#"//! Written by `cargo xtask release-drill` into its copy of the workspace.
#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.0.0")]
struct Old {
    atomic_clean_policy: Option<cann_config::AtomicCleanPolicy>,
}

#[derive(cann_macros::CannConfig)]
#[cann(spec = "../../../spec", release = "9.1.0")]
struct New {
    atomic_clean_policy: Option<cann_config::AtomicCleanPolicy>,
    drill_pool_size: Option<i64>,
}

fn main() {
    let ge = cann_config::emit::Format::Ge;
    let old = Old::default().emit(ge).unwrap_or_else(|e| format!("{e:?}"));
    let new = New::default().emit(ge).unwrap_or_else(|e| format!("{e:?}"));
    println!("{{\"old\": {old}, \"new\": {new}}}");
}
"#;

pub fn derive(out: &str) -> Result<()> {
    let v: Value = serde_json::from_str(out)
        .map_err(|e| format!("drill failed: the derive example printed no JSON ({e}): {out}"))?;
    ensure(
        v["old"][CHANGED_GE_KEY] == OLD_DEFAULT,
        "a derive at 9.0.0 does not write the old default",
    )?;
    ensure(
        v["new"][CHANGED_GE_KEY] == NEW_DEFAULT,
        "a derive at 9.1.0 does not write the new default into the ge.* map",
    )?;
    ensure(
        v["new"][NEW_OPTION_GE_KEY] == "4",
        "a derive at 9.1.0 does not write the new option's default",
    )
}
