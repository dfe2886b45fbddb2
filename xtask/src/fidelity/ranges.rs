//! The bounds upstream code puts on an option's value, read with regular expressions (the
//! statements involved are one per line). Each bound names the option the way its code
//! does: `session:KEY` (a TF1 session key, as `npu_attrs.cc` reads it), `keyword:NAME`
//! (an NPURunConfig keyword, or a `tf.estimator.RunConfig` one it passes on) or `ge:KEY`
//! (a graph-engine key). A bound is where the code refuses, clamps or ignores a value, or
//! the width of the integer it keeps the value in; which of those does not matter to the
//! comparison, since a value outside it never does what the user asked.

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use super::Error;

fn re(pattern: &str) -> Result<Regex, Error> {
    Regex::new(pattern).map_err(|e| Error::Pattern(e.to_string()))
}

/// One bound: `min`/`max` inclusive (unless `above`), at `line` (1-based) of the file it
/// was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    /// `session:KEY`, `keyword:NAME` or `ge:KEY`.
    pub on: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// The code wants more than `min` (`x > 0`): for an integer that is `min + 1`, for a
    /// float any fraction above `min`, so the comparison decides by the option's type.
    pub above: bool,
    pub line: usize,
}

impl Bound {
    fn new(on: String, min: Option<i64>, max: Option<i64>, line: usize) -> Self {
        Bound {
            on,
            min,
            max,
            above: false,
            line,
        }
    }
}

const I32: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);

/// `NAME -> value` of the integer constants a C++ file defines
/// (`int64_t kMax = 7LL;`, `constexpr int64_t max_x = 32 * 1024 * 1024LL;`).
fn int_constants(text: &str) -> Result<BTreeMap<String, i64>, Error> {
    let constant = re(
        r"\b(?:constexpr\s+|const\s+)?(?:int64_t|int32_t|int|uint32_t|uint64_t)\s+(\w+)\s*=\s*(-?\d+[LlUu]*(?:\s*\*\s*\d+[LlUu]*)*)\s*;",
    )?;
    Ok(constant
        .captures_iter(text)
        .filter_map(|c| Some((c[1].to_string(), product(&c[2])?)))
        .collect())
}

/// `32 * 1024 * 1024LL` -> 33554432.
fn product(expr: &str) -> Option<i64> {
    expr.split('*').try_fold(1i64, |acc, f| {
        let digits = f.trim().trim_end_matches(['L', 'U', 'l', 'u']);
        acc.checked_mul(digits.parse::<i64>().ok()?)
    })
}

fn int(lit: &str, constants: &BTreeMap<String, i64>) -> Option<i64> {
    let digits = lit.trim_end_matches(['L', 'U', 'l', 'u']);
    digits.parse().ok().or_else(|| constants.get(lit).copied())
}

/// Bounds in the adapter's C++ on a variable named as a session key (`keys`):
/// - `if (v < A || v > B)` (a two-sided check, `A`, `B` literals or local constants);
/// - `if (v < A)`, `if (v > B)` (one side: a refusal or a clamp);
/// - `if (params.at("v").i() >= A)` (the value is used only from `A` up);
/// - `int32_t v` (or `int v`) assigned from `params.at("v").i()`: kept in 32 bits.
pub fn adapter_checks(text: &str, keys: &BTreeSet<String>) -> Result<Vec<Bound>, Error> {
    let constants = int_constants(text)?;
    let both = re(r"if\s*\(\s*(\w+)\s*<\s*(-?\w+)\s*\|\|\s*(\w+)\s*>\s*(\w+)\s*\)")?;
    let one = re(r"if\s*\(\s*(\w+)\s*(<|>)\s*(-?\w+)\s*\)")?;
    let at_least = re(r#"if\s*\(\s*params\.at\("(\w+)"\)\.i\(\)\s*>=\s*(-?\w+)\s*\)"#)?;
    let decl = re(r"^\s*(int32_t|int|int64_t|uint32_t|uint64_t)\s+(\w+)\s*=")?;
    let read = re(r#"^\s*(\w+)\s*=\s*(?:static_cast<int32_t>\()?params\.at\("(\w+)"\)\.i\(\)"#)?;
    let mut out = Vec::new();
    // The nearest declaration of each variable so far: (is 32 bits, line).
    let mut declared: BTreeMap<String, (bool, usize)> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(c) = decl.captures(line) {
            declared.insert(c[2].to_string(), (matches!(&c[1], "int32_t" | "int"), n));
        }
        if let Some(c) = read.captures(line) {
            if c[1] == c[2] && keys.contains(&c[1]) {
                if let Some((true, at)) = declared.get(&c[1]) {
                    out.push(Bound::new(
                        format!("session:{}", &c[1]),
                        Some(I32.0),
                        Some(I32.1),
                        *at,
                    ));
                }
            }
        }
        if let Some(c) = both.captures(line) {
            if c[1] == c[3] && keys.contains(&c[1]) {
                let (min, max) = (int(&c[2], &constants), int(&c[4], &constants));
                out.push(Bound::new(format!("session:{}", &c[1]), min, max, n));
            }
            continue;
        }
        if let Some(c) = one.captures(line) {
            if keys.contains(&c[1]) {
                if let Some(v) = int(&c[3], &constants) {
                    let (min, max) = if &c[2] == "<" {
                        (Some(v), None)
                    } else {
                        (None, Some(v))
                    };
                    out.push(Bound::new(format!("session:{}", &c[1]), min, max, n));
                }
            }
        }
        if let Some(c) = at_least.captures(line) {
            if keys.contains(&c[1]) {
                let min = int(&c[2], &constants);
                out.push(Bound::new(format!("session:{}", &c[1]), min, None, n));
            }
        }
    }
    Ok(out)
}

/// `std::max(std::atoi(pass_options["k"].c_str()), N)` (the adapter's GeOp): `k` is used
/// as at least `N`, and parsed as a C `int`.
pub fn clamped_pass_options(text: &str) -> Result<Vec<Bound>, Error> {
    let clamp = re(
        r#"std::max\(\s*std::atoi\(\s*pass_options\["(\w+)"\]\.c_str\(\)\s*\)\s*,\s*(-?\d+)\s*\)"#,
    )?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = clamp.captures(line) {
            let min = c[2].parse().ok();
            out.push(Bound::new(
                format!("session:{}", &c[1]),
                min,
                Some(I32.1),
                i + 1,
            ));
        }
    }
    Ok(out)
}

/// Keyword -> the lower bound NPURunConfig's `util.check_positive_integer(x, "x")` (1) or
/// `util.check_nonnegative_integer(x, "x")` (0) puts on it.
pub fn python_checks(text: &str) -> Result<Vec<Bound>, Error> {
    let check = re(r#"util\.check_(positive|nonnegative)_integer\(\s*(\w+)\s*,"#)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = check.captures(line) {
            let min = Some(if &c[1] == "positive" { 1 } else { 0 });
            out.push(Bound::new(format!("keyword:{}", &c[2]), min, None, i + 1));
        }
    }
    Ok(out)
}

/// `tf.estimator.RunConfig`'s `_validate('name', lambda x: x >= N, ...)` (or `> N`, kept as
/// `above`: an integer keyword must then be at least `N + 1`, a float one any number above
/// `N`), which NPURunConfig's keywords of the same name pass through.
pub fn run_config_checks(text: &str) -> Result<Vec<Bound>, Error> {
    let check =
        re(r"_validate\(\s*'(\w+)'\s*,\s*lambda\s+(\w+)\s*:\s*(\w+)\s*(>=|>)\s*(-?\d+)\s*,")?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(c) = check.captures(line) {
            if c[2] != c[3] {
                continue;
            }
            let Ok(n) = c[5].parse::<i64>() else { continue };
            out.push(Bound {
                above: &c[4] == ">",
                ..Bound::new(format!("keyword:{}", &c[1]), Some(n), None, i + 1)
            });
        }
    }
    Ok(out)
}

/// The graph engine's `ConvertToInt32(...)` of an option's value (refused unless it fits in
/// 32 bits), the option being the constant the nearest preceding `find(C)` or
/// `GetOption(C, ...)` names (within six lines, not past another conversion); and `if (v >= 0)` on the converted value
/// within the next three lines (a negative value is ignored).
pub fn ge_int32_checks(
    text: &str,
    constants: &BTreeMap<String, String>,
) -> Result<Vec<Bound>, Error> {
    let lookup = re(r"(?:\.find|GetOption)\(\s*(?:ge::)?([A-Z][A-Z0-9_]*)\s*[,)]")?;
    let convert = re(r"ConvertToInt32\([^,]+,\s*(\w+)\s*\)")?;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(c) = convert.captures(line) else {
            continue;
        };
        let var = &c[1];
        let key = (i.saturating_sub(6)..i)
            .rev()
            .take_while(|j| !lines[*j].contains("ConvertToInt32"))
            .find_map(|j| lookup.captures(lines[j]))
            .and_then(|k| constants.get(&k[1]).cloned());
        let Some(key) = key else {
            continue;
        };
        let guard = format!("if ({var} >= 0)");
        let ignores_negative = lines[i + 1..lines.len().min(i + 4)]
            .iter()
            .any(|l| l.contains(&guard));
        let min = if ignores_negative { 0 } else { I32.0 };
        out.push(Bound::new(
            format!("ge:{key}"),
            Some(min),
            Some(I32.1),
            i + 1,
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod checks {
    use super::*;

    fn keys(k: &[&str]) -> BTreeSet<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_two_sided_check_on_a_session_key_is_a_range() {
        let text = "inline Status CheckLocalRankId(int64_t local_rank_id) {\n\
                    int64_t kMaxDeviceId = 7LL;\n\
                    if (local_rank_id < 0LL || local_rank_id > kMaxDeviceId) {\n\
                    if (other < 0LL || other > 3) {\n";
        let r = adapter_checks(text, &keys(&["local_rank_id"])).unwrap_or_default();
        assert_eq!(
            r,
            vec![Bound::new(
                "session:local_rank_id".into(),
                Some(0),
                Some(7),
                3
            )]
        );
    }

    #[test]
    fn clamps_refusals_and_32_bit_variables_are_bounds() {
        let text = "  int32_t stream_sync_timeout = -1;\n\
                    int64_t input_fusion_size = 131072L;\n\
                    stream_sync_timeout = params.at(\"stream_sync_timeout\").i();\n\
                    input_fusion_size = params.at(\"input_fusion_size\").i();\n\
                    constexpr int64_t max_input_fusion_size = 32 * 1024 * 1024LL; // 32MB\n\
                    if (input_fusion_size > max_input_fusion_size) {\n\
                    if (params.at(\"session_device_id\").i() >= 0) {\n\
                    if (task_index < 0) {\n\
                    if (unrelated > 3) {\n";
        let k = keys(&[
            "stream_sync_timeout",
            "input_fusion_size",
            "session_device_id",
            "task_index",
        ]);
        let r = adapter_checks(text, &k).unwrap_or_default();
        assert_eq!(
            r,
            vec![
                Bound::new(
                    "session:stream_sync_timeout".into(),
                    Some(I32.0),
                    Some(I32.1),
                    1
                ),
                Bound::new(
                    "session:input_fusion_size".into(),
                    None,
                    Some(33_554_432),
                    6
                ),
                Bound::new("session:session_device_id".into(), Some(0), None, 7),
                Bound::new("session:task_index".into(), Some(0), None, 8),
            ]
        );
    }

    #[test]
    fn python_integer_checks_are_lower_bounds() {
        let text =
            "x\n    util.check_positive_integer(iterations_per_loop, \"iterations_per_loop\")\n\
                    util.check_nonnegative_integer(graph_run_mode, \"graph_run_mode\")\n";
        let r = python_checks(text).unwrap_or_default();
        assert_eq!(
            r[0],
            Bound::new("keyword:iterations_per_loop".into(), Some(1), None, 2)
        );
        assert_eq!(r[1].min, Some(0));
        let rc = "  _validate('save_summary_steps', lambda steps: steps >= 0,\n\
                  _validate('log_step_count_steps', lambda num_steps: num_steps > 0,\n\
                  _validate('model_dir', lambda dir: dir,\n";
        let r = run_config_checks(rc).unwrap_or_default();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].min, Some(0));
        assert!(!r[0].above);
        // `> 0` is kept as it is written: the option's type decides what it admits.
        assert_eq!(
            r[1],
            Bound {
                above: true,
                ..Bound::new("keyword:log_step_count_steps".into(), Some(0), None, 2)
            }
        );
    }

    #[test]
    fn the_engine_converting_a_key_to_int32_bounds_it() {
        let c: BTreeMap<String, String> = [("OP_WAIT_TIMEOUT", "ge.exec.opWaitTimeout")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let text = "  const auto &wait_iter = options.find(OP_WAIT_TIMEOUT);\n\
                    if (wait_iter != options.end()) {\n\
                    int32_t wait_timeout;\n\
                    GE_ASSERT_SUCCESS(ge::ConvertToInt32(wait_iter->second.c_str(), wait_timeout), \"x\",\n\
                    x);\n\
                    if (wait_timeout >= 0) {\n\
                    GE_ASSERT_SUCCESS(ge::ConvertToInt32(opt, n), \"no option above\");\n";
        let r = ge_int32_checks(text, &c).unwrap_or_default();
        assert_eq!(
            r,
            vec![Bound::new(
                "ge:ge.exec.opWaitTimeout".into(),
                Some(0),
                Some(I32.1),
                4
            )]
        );
    }
}
