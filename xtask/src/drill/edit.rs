//! The drill's spec edits: a release 9.1.0 with one change of every kind a release brings,
//! each written the way a maintainer would write it, in `spec/` of the copy only.

use std::path::Path;

use super::Result;

pub const PRODUCT: &str = "atlas-drill";
pub const RELEASE: &str = "9.1.0";
/// The release before it, the newest released one of the bundled spec (an unreleased one,
/// the development branches, may follow it and stays after the new release).
pub const PREVIOUS: &str = "9.0.0";
const MEMORY: &str = "spec/options/memory_config.yaml";
const NPU: &str = "spec/options/npu_run_config.yaml";

/// What the edits add, named once for the checks.
pub const NEW_OPTION: &str = "npu_run_config.memory_config.drill_pool_size";
pub const NEW_OPTION_GE_KEY: &str = "ge.exec.drillPoolSize";
/// `memory_optimization_policy` gains this value in 9.1.0, an option the runtime does not
/// act on.
pub const NEW_VALUE: &str = "DrillPriority";
/// `op_compiler_cache_mode`, which the runtime acts on, gains this value in 9.1.0 with a
/// behaviour the runtime implements (`rebuild`, as `force`): a spec edit, no Rust change.
pub const NEW_CACHE_VALUE: &str = "drill-refresh";
pub const CACHE_OPTION: &str = "npu_run_config.op_compiler_cache_mode";
pub const VALUE_OPTION: &str = "npu_run_config.memory_config.memory_optimization_policy";
/// `atomic_clean_policy`'s default goes from 0 to 1.
pub const CHANGED_OPTION: &str = "npu_run_config.memory_config.atomic_clean_policy";
pub const CHANGED_GE_KEY: &str = "ge.exec.atomicCleanPolicy";
/// As JSON and the `ge.*` map write them (strings).
pub const OLD_DEFAULT: &str = "0";
pub const NEW_DEFAULT: &str = "1";
pub const DEPRECATED_OPTION: &str = "npu_run_config.memory_config.variable_use_1g_huge_page";
pub const NEW_RULE: &str = "drill-memory-priority";

pub fn edit_spec(copy: &Path) -> Result<()> {
    let spec = cann_spec::load_dir(&copy.join("spec")).map_err(|e| e.to_string())?;
    let last = spec
        .newest_released()
        .ok_or("the spec has no released release")?;
    if last.id != PREVIOUS {
        return Err(format!(
            "the drill adds {RELEASE} after {PREVIOUS}, but the newest released release is {}",
            last.id
        )
        .into());
    }
    // The new release goes right after the newest released one, before any unreleased.
    let before = spec
        .releases
        .iter()
        .find(|r| r.unreleased)
        .map(|r| r.loc.pos.line as usize);
    append(
        copy,
        "spec/products.yaml",
        &format!(
            "  - id: {PRODUCT}\n    name: {{ en: \"Atlas Drill card\", zh: \"Atlas 演练卡\" }}\n"
        ),
    )?;
    // A release written as the previous one plus a product.
    let release = format!("  - id: \"{RELEASE}\"\n    products: {{ add: [{PRODUCT}] }}\n");
    match before {
        Some(line) => insert_at_line(copy, "spec/releases.yaml", line, &release)?,
        None => append(copy, "spec/releases.yaml", &release)?,
    }
    let mut memory = std::fs::read_to_string(copy.join(MEMORY))?;
    // The new product is supported by the class, from the new release on.
    insert_after(
        &mut memory,
        "\n  products:\n",
        &format!("    {PRODUCT}: \"{RELEASE}..\"\n"),
    )?;
    insert_after(
        &mut memory,
        "  - name: atomic_clean_policy\n",
        &format!("    changes:\n      - release: \"{RELEASE}\"\n        default: {NEW_DEFAULT}\n"),
    )?;
    let value_at = memory
        .find("  - name: memory_optimization_policy\n")
        .ok_or("memory_optimization_policy is not in the memory file")?;
    let values_at = memory[value_at..]
        .find("    values:\n")
        .map(|i| value_at + i + "    values:\n".len())
        .ok_or("memory_optimization_policy has no values list")?;
    memory.insert_str(
        values_at,
        &format!(
            "      - value: {NEW_VALUE}\n        name: drill-priority\n        available: \"{RELEASE}..\"\n        doc:\n          en: \"Drill: orders the graph for the pool drill_pool_size sets.\"\n          zh: \"演练：按 drill_pool_size 设定的内存池对图排序。\"\n"
        ),
    );
    insert_after(
        &mut memory,
        "  - name: variable_use_1g_huge_page\n",
        &format!(
            "    deprecated:\n      since: \"{RELEASE}\"\n      note:\n        en: \"Drill: page sizes are chosen by the runtime.\"\n        zh: \"演练：页大小由运行时决定。\"\n      source: [drill]\n"
        ),
    )?;
    if !memory.ends_with('\n') {
        memory.push('\n');
    }
    memory.push_str(&format!(
        "
  - name: drill_pool_size
    type: int
    default: 4
    range: {{ min: 1, max: 64 }}
    unit: MB
    available: \"{RELEASE}..\"
    ge_key: {NEW_OPTION_GE_KEY}
    estimator: {{ name: drill_pool_size, default: 4 }}
    session: {{ name: drill_pool_size, accessor: i }}
    doc:
      en: \"Drill: size of the shared graph memory pool.\"
      zh: \"演练：共享图内存池的大小。\"
    source: [drill]
"
    ));
    std::fs::write(copy.join(MEMORY), memory)?;
    let mut npu = std::fs::read_to_string(copy.join(NPU))?;
    let cache_at = npu
        .find("  - name: op_compiler_cache_mode\n")
        .ok_or("op_compiler_cache_mode is not in the NPURunConfig file")?;
    let cache_values = npu[cache_at..]
        .find("    values:\n")
        .map(|i| cache_at + i + "    values:\n".len())
        .ok_or("op_compiler_cache_mode has no values list")?;
    npu.insert_str(
        cache_values,
        &format!(
            "      - value: {NEW_CACHE_VALUE}\n        name: {NEW_CACHE_VALUE}\n        behaviour: rebuild\n        available: \"{RELEASE}..\"\n        doc:\n          en: \"Drill: rebuild the cache, as force.\"\n          zh: \"演练：与 force 相同，重建缓存。\"\n"
        ),
    );
    std::fs::write(copy.join(NPU), npu)?;
    append(
        copy,
        "spec/rules.yaml",
        &format!(
            "
  - id: {NEW_RULE}
    severity: note
    available: \"{RELEASE}..\"
    when:
      - {{ option: {VALUE_OPTION}, equals: {NEW_VALUE} }}
    message:
      en: \"Drill: DrillPriority orders the graph for the pool drill_pool_size sets.\"
      zh: \"演练：取 DrillPriority 时按 drill_pool_size 设定的内存池对图排序。\"
    source: [drill]
    examples:
      fires:
        - \"{fires}\"
      quiet:
        - \"{quiet}\"
",
            fires = flow(VALUE_OPTION, NEW_VALUE),
            quiet = flow(CHANGED_OPTION, OLD_DEFAULT),
        ),
    )?;
    Ok(())
}

/// A config that sets one option, as a rule example writes it: `{ a: { b: value } }`.
fn flow(option: &str, value: &str) -> String {
    option.rsplit('.').fold(value.to_string(), |inner, key| {
        format!("{{ {key}: {inner} }}")
    })
}

fn append(copy: &Path, rel: &str, text: &str) -> Result<()> {
    let p = copy.join(rel);
    let mut s = std::fs::read_to_string(&p)?;
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s.push_str(text);
    std::fs::write(p, s)?;
    Ok(())
}

/// Inserts `text` before line `line` (1-based) of the file.
fn insert_at_line(copy: &Path, rel: &str, line: usize, text: &str) -> Result<()> {
    let p = copy.join(rel);
    let s = std::fs::read_to_string(&p)?;
    let at = s
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let mut out = s;
    out.insert_str(at, text);
    std::fs::write(p, out)?;
    Ok(())
}

fn insert_after(text: &mut String, marker: &str, insert: &str) -> Result<()> {
    let at = text
        .find(marker)
        .ok_or_else(|| format!("the spec has no `{}`", marker.trim()))?;
    text.insert_str(at + marker.len(), insert);
    Ok(())
}
