//! Effective cache limits: `op_cache.ini` > `ASCEND_MAX_OP_CACHE_SIZE` /
//! `ASCEND_REMAIN_CACHE_SIZE_RATIO` > the defaults.
//!
//! The ini counts only when its section holds both keys and both are valid; then the
//! environment is not consulted. Otherwise each environment variable is taken on its own when
//! valid, else the default. Names, ranges, special values and defaults are the spec's
//! ([`crate::cache::settings::facts`]): the file and the environment have ranges of their own there, as the
//! compiler checks them (`TeCacheSpaceManager::UpdateOpCacheSizeCfg`,
//! `GetCacheSpaceMaxSizeCfg`, `GetCacheRemainSizeRadio` in
//! hicann/ge@ffdcbc9:compiler/opcompiler/op_compile_adapter/source/cache/te_cache_space_manager.cc).
//! Unlike upstream (`stoi`, which reads `500MB` as 500) trailing text is an error, reported.

use std::path::PathBuf;

use cann_config::meta::{FileKeyMeta, Lang, OptionMeta};

use crate::cache::settings::env::EnvSnapshot;
use crate::cache::settings::facts::{
    self, ENV_MAX_SIZE, ENV_REMAIN_RATIO, INI_MAX_SIZE, INI_REMAIN_RATIO,
};
use crate::cache::settings::ini::IniDoc;
use crate::cache::sys::clock::{Nanos, MINUTE};

/// One MB as the compiler counts it (`SIZE_MB_UNIT = 1048576`, te_cache_space_manager.cc).
pub const MB: u64 = 1_048_576;
/// Entries accessed more recently than this are never aged (`MIN_CACHE_AGING_TIME = 1800`
/// seconds, te_cache_space_manager.cc).
pub const AGING_FLOOR: Nanos = 30 * MINUTE;
/// How long a file no manifest names may still belong to a write under way: our commit
/// renames the binary a few system calls before its manifest, CANN's compiler writes the
/// binary and then the manifest in place. Far longer than either takes; older orphans are
/// reclaimed by gc (CANN's own ager never looks at them) and cleared by `clear`.
pub const IN_FLIGHT: Nanos = MINUTE;
/// The limit value that turns aging off (`CACHE_AGING_FUCNTION_SWITCH = -1`,
/// te_fusion_util_constants.h). The spec lists it as the one special value of the limit; a
/// test holds the two together.
pub const AGING_OFF: i64 = -1;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Origin {
    /// `op_cache.ini` at this path.
    Ini { path: PathBuf },
    /// The named environment variable.
    Env { var: &'static str },
    /// The spec's default.
    Default,
}

/// The size limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MaxSize {
    /// A limit in MB.
    Mb(u32),
    /// `-1`: no aging, no access-time updates.
    AgingOff,
}

/// What is wrong with a value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Problem {
    /// The file has no `[section]`.
    SectionMissing { section: &'static str },
    /// The key is absent (or has an empty value, which the compiler also skips).
    KeyMissing,
    /// Not a whole number.
    NotInteger,
    /// A whole number outside the valid values.
    OutOfRange,
}

/// What was used instead of a rejected value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Fallback {
    /// The whole file is ignored; the environment or the defaults apply.
    IniIgnored,
    /// The default (as the user would write it).
    Default { value: String },
}

/// A value that was rejected, with the values that would be accepted and what was used.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LimitFinding {
    /// Where the value was read.
    pub origin: Origin,
    /// Key or variable name.
    pub name: &'static str,
    /// The text found (`None` when the key is missing).
    pub value: Option<String>,
    pub problem: Problem,
    /// The accepted values, e.g. `-1 or 1..=2147483647`.
    pub valid: String,
    /// Unit of the value (`MB`, `percent`).
    pub unit: Option<&'static str>,
    pub fallback: Fallback,
}

impl LimitFinding {
    /// The finding as one sentence in `lang` (without the place).
    pub fn message(&self, lang: Lang) -> String {
        let value = match (&self.value, lang) {
            (Some(v), _) => format!("`{v}`"),
            (None, Lang::En) => "(missing)".to_owned(),
            (None, Lang::Zh) => "（缺失）".to_owned(),
        };
        let unit = self.unit.map(|u| format!(" {u}")).unwrap_or_default();
        let problem = match (&self.problem, lang) {
            (Problem::SectionMissing { section }, Lang::En) => {
                format!("section [{section}] is missing")
            }
            (Problem::SectionMissing { section }, Lang::Zh) => format!("缺少 [{section}] 段"),
            (Problem::KeyMissing, Lang::En) => "the key is missing".to_owned(),
            (Problem::KeyMissing, Lang::Zh) => "缺少该键".to_owned(),
            (Problem::NotInteger, Lang::En) => "not a whole number".to_owned(),
            (Problem::NotInteger, Lang::Zh) => "不是整数".to_owned(),
            (Problem::OutOfRange, Lang::En) => "out of range".to_owned(),
            (Problem::OutOfRange, Lang::Zh) => "超出取值范围".to_owned(),
        };
        let fallback = match (&self.fallback, lang) {
            (Fallback::IniIgnored, Lang::En) => {
                "the file is ignored; the environment or the defaults apply".to_owned()
            }
            (Fallback::IniIgnored, Lang::Zh) => "忽略该文件，改用环境变量或默认值".to_owned(),
            (Fallback::Default { value }, Lang::En) => format!("using the default {value}{unit}"),
            (Fallback::Default { value }, Lang::Zh) => format!("改用默认值 {value}{unit}"),
        };
        match lang {
            Lang::En => format!(
                "{} = {value}: {problem}; valid: {}{unit}; {fallback}",
                self.name, self.valid
            ),
            Lang::Zh => format!(
                "{} = {value}：{problem}；有效取值：{}{unit}；{fallback}",
                self.name, self.valid
            ),
        }
    }
}

/// How `op_cache.ini` was used.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum IniUse {
    /// No file.
    Missing,
    /// Both values valid: the file decides.
    Applied,
    /// The file exists but does not count (see the findings).
    Ignored,
}

/// The limits in force and how they were decided.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    pub max: MaxSize,
    pub remain_ratio: u8,
    pub max_origin: Origin,
    pub ratio_origin: Origin,
    pub ini: IniUse,
    pub findings: Vec<LimitFinding>,
}

/// Parses an integer strictly: optional sign, digits, surrounding blanks allowed.
fn parse_int(text: &str) -> Result<i64, Problem> {
    let t = text.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Problem::NotInteger);
    }
    t.parse::<i64>().map_err(|_| Problem::OutOfRange)
}

/// A valid limit value as a [`MaxSize`].
fn max_size(v: i64) -> Result<MaxSize, Problem> {
    if v == AGING_OFF {
        return Ok(MaxSize::AgingOff);
    }
    u32::try_from(v)
        .ok()
        .filter(|mb| *mb > 0)
        .map(MaxSize::Mb)
        .ok_or(Problem::OutOfRange)
}

fn ratio(v: i64) -> Result<u8, Problem> {
    u8::try_from(v)
        .ok()
        .filter(|r| *r <= 100)
        .ok_or(Problem::OutOfRange)
}

fn check_key(k: &FileKeyMeta, text: &str) -> Result<i64, Problem> {
    let v = parse_int(text)?;
    k.accepts(v).then_some(v).ok_or(Problem::OutOfRange)
}

fn check_env(o: &OptionMeta, text: &str) -> Result<i64, Problem> {
    let v = parse_int(text)?;
    o.accepts_int(v).then_some(v).ok_or(Problem::OutOfRange)
}

fn env_valid(o: &OptionMeta) -> String {
    let range = o.changes.iter().rev().find_map(|c| c.range).or(o.range);
    cann_config::meta::describe_int_values(range, o.special)
}

/// The default limit, from the spec.
pub fn default_max() -> MaxSize {
    max_size(facts::DEFAULT_MAX_SIZE).unwrap_or(MaxSize::AgingOff)
}

/// The default retained share, from the spec.
pub fn default_ratio() -> u8 {
    ratio(facts::DEFAULT_REMAIN_RATIO).unwrap_or(100)
}

impl Limits {
    /// Decides the limits from the ini (its path and parsed text, if the file exists) and the
    /// environment snapshot.
    pub fn resolve(ini: Option<(PathBuf, &IniDoc)>, env: &EnvSnapshot) -> Limits {
        let mut findings = Vec::new();
        let mut ini_use = IniUse::Missing;
        if let Some((path, doc)) = ini {
            if let Some(l) = from_ini(path, doc, &mut findings) {
                return l;
            }
            ini_use = IniUse::Ignored;
        }
        let (max, max_origin) = from_env(
            env,
            (ENV_MAX_SIZE, facts::DEFAULT_MAX_SIZE),
            &mut findings,
            max_size,
        )
        .unwrap_or((default_max(), Origin::Default));
        let (remain_ratio, ratio_origin) = from_env(
            env,
            (ENV_REMAIN_RATIO, facts::DEFAULT_REMAIN_RATIO),
            &mut findings,
            ratio,
        )
        .unwrap_or((default_ratio(), Origin::Default));
        Limits {
            max,
            remain_ratio,
            max_origin,
            ratio_origin,
            ini: ini_use,
            findings,
        }
    }

    /// The built-in defaults with no findings.
    pub fn defaults() -> Limits {
        Limits::resolve(None, &EnvSnapshot::empty())
    }

    /// Limits with explicit values (library users that do not read the ini).
    pub fn fixed(max: MaxSize, remain_ratio: u8) -> Limits {
        Limits {
            max,
            remain_ratio: remain_ratio.min(100),
            max_origin: Origin::Default,
            ratio_origin: Origin::Default,
            ini: IniUse::Missing,
            findings: Vec::new(),
        }
    }

    /// False when `-1` turned aging (and access-time stamping) off.
    pub fn aging_enabled(&self) -> bool {
        self.max != MaxSize::AgingOff
    }

    /// The limit in bytes, `None` when aging is off.
    pub fn max_bytes(&self) -> Option<u64> {
        match self.max {
            MaxSize::Mb(mb) => Some(u64::from(mb) * MB),
            MaxSize::AgingOff => None,
        }
    }

    /// What aging shrinks the cache to: `max * ratio / 100`, rounded down, computed in 128 bits
    /// so no valid input can overflow.
    pub fn retained_bytes(&self) -> Option<u64> {
        self.max_bytes().map(|m| {
            let r = u128::from(m) * u128::from(self.remain_ratio) / 100;
            u64::try_from(r).unwrap_or(u64::MAX)
        })
    }

    /// Upstream starts aging when the used size reaches the limit (`>=`).
    pub fn over_limit(&self, total_bytes: u64) -> bool {
        self.max_bytes().is_some_and(|m| total_bytes >= m)
    }
}

fn from_ini(path: PathBuf, doc: &IniDoc, findings: &mut Vec<LimitFinding>) -> Option<Limits> {
    let origin = Origin::Ini { path };
    let mut bad = |k: &FileKeyMeta, value: Option<&str>, problem| {
        findings.push(LimitFinding {
            origin: origin.clone(),
            name: k.name,
            value: value.map(str::to_owned),
            problem,
            valid: k.describe_values(),
            unit: k.unit,
            fallback: Fallback::IniIgnored,
        })
    };
    let section = facts::INI_SECTION;
    if !doc.has_section(section) {
        bad(INI_MAX_SIZE, None, Problem::SectionMissing { section });
        return None;
    }
    let mut value = |k: &FileKeyMeta| match doc.get(k.section, k.name) {
        None => {
            bad(k, None, Problem::KeyMissing);
            None
        }
        Some(t) => check_key(k, t).map_err(|p| bad(k, Some(t), p)).ok(),
    };
    let max = value(INI_MAX_SIZE);
    let ratio_v = value(INI_REMAIN_RATIO);
    let (Some(max), Some(r)) = (max, ratio_v) else {
        return None;
    };
    // Checked against the spec's ranges above; these conversions only narrow the type.
    let (Ok(max), Ok(remain_ratio)) = (max_size(max), ratio(r)) else {
        return None;
    };
    Some(Limits {
        max,
        remain_ratio,
        max_origin: origin.clone(),
        ratio_origin: origin,
        ini: IniUse::Applied,
        findings: std::mem::take(findings),
    })
}

fn from_env<T>(
    env: &EnvSnapshot,
    (o, default): (&'static OptionMeta, i64),
    findings: &mut Vec<LimitFinding>,
    convert: impl Fn(i64) -> Result<T, Problem>,
) -> Option<(T, Origin)> {
    let var = facts::env_name(o);
    let text = env.get_str(var)?;
    match check_env(o, &text).and_then(&convert) {
        Ok(v) => Some((v, Origin::Env { var })),
        Err(problem) => {
            findings.push(LimitFinding {
                origin: Origin::Env { var },
                name: var,
                value: Some(text),
                problem,
                valid: env_valid(o),
                unit: o.unit,
                fallback: Fallback::Default {
                    value: default.to_string(),
                },
            });
            None
        }
    }
}
