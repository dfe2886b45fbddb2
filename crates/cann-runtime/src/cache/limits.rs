//! Effective cache limits: `op_cache.ini` > `ASCEND_MAX_OP_CACHE_SIZE` /
//! `ASCEND_REMAIN_CACHE_SIZE_RATIO` > 500 MB / 50 %.
//!
//! The ini counts only when its section holds both keys and both are valid; then the
//! environment is not consulted. Otherwise each environment variable is taken on its own when
//! valid, else the default. Ranges follow the upstream tool exactly, including where the ini
//! and the environment differ: the ini accepts `max_op_cache_size` up to 2147483647, the
//! environment only below it; the environment accepts a ratio of 0, the ini starts at 1.
//! Unlike upstream (`stoi`, which reads `500MB` as 500) trailing text is an error, reported.

use std::path::PathBuf;

use super::clock::{Nanos, MINUTE};
use super::env::{EnvSnapshot, ASCEND_MAX_OP_CACHE_SIZE, ASCEND_REMAIN_CACHE_SIZE_RATIO};
use super::ini::{IniDoc, KEY_MAX_SIZE, KEY_REMAIN_RATIO, SECTION};

/// Default limit, MB.
pub const DEFAULT_MAX_MB: u32 = 500;
/// Default retained share, percent.
pub const DEFAULT_REMAIN_RATIO: u8 = 50;
/// One MB as upstream counts it (1024 * 1024 bytes).
pub const MB: u64 = 1_048_576;
/// Entries accessed more recently than this are never aged.
pub const AGING_FLOOR: Nanos = 30 * MINUTE;
/// `max_op_cache_size` / `ASCEND_MAX_OP_CACHE_SIZE` value that turns aging off.
pub const AGING_OFF: i64 = -1;
const INT_MAX: i64 = i32::MAX as i64;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Origin {
    /// `op_cache.ini` at this path.
    Ini { path: PathBuf },
    /// The named environment variable.
    Env { var: &'static str },
    /// The built-in default.
    Default,
}

/// The size limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MaxSize {
    /// A limit in MB.
    Mb(u32),
    /// `-1`: no aging, no access-time updates; the nominal size stays 500 MB as documented.
    AgingOff,
}

/// A value that was rejected, with the range that would be accepted and what was used.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LimitFinding {
    /// Where the value was read.
    pub origin: Origin,
    /// Key or variable name.
    pub name: &'static str,
    /// The text found (`None` when the key is missing).
    pub value: Option<String>,
    /// What is wrong.
    pub problem: String,
    /// The accepted values.
    pub valid: &'static str,
    /// What was used instead.
    pub fallback: String,
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

const INI_MAX_VALID: &str = "-1 or 1..=2147483647 (MB)";
const INI_RATIO_VALID: &str = "1..=100 (percent)";
const ENV_MAX_VALID: &str = "-1 or 1..2147483647 (MB, upper bound excluded)";
const ENV_RATIO_VALID: &str = "0..=100 (percent)";

/// Parses an integer strictly: optional sign, digits, surrounding blanks allowed.
fn parse_int(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not an integer".to_owned());
    }
    t.parse::<i64>().map_err(|_| "out of range".to_owned())
}

fn check_max(text: &str, upper_inclusive: bool) -> Result<MaxSize, String> {
    let v = parse_int(text)?;
    let upper_ok = if upper_inclusive {
        v <= INT_MAX
    } else {
        v < INT_MAX
    };
    match v {
        AGING_OFF => Ok(MaxSize::AgingOff),
        1.. if upper_ok => u32::try_from(v)
            .map(MaxSize::Mb)
            .map_err(|_| "out of range".to_owned()),
        _ => Err("out of range".to_owned()),
    }
}

fn check_ratio(text: &str, min: i64) -> Result<u8, String> {
    let v = parse_int(text)?;
    if (min..=100).contains(&v) {
        u8::try_from(v).map_err(|_| "out of range".to_owned())
    } else {
        Err("out of range".to_owned())
    }
}

fn describe_max(m: MaxSize) -> String {
    match m {
        MaxSize::Mb(n) => format!("{n} MB"),
        MaxSize::AgingOff => "-1 (aging off)".to_owned(),
    }
}

impl Limits {
    /// Decides the limits from the ini (its path and parsed text, if the file exists) and the
    /// environment snapshot.
    pub fn resolve(ini: Option<(PathBuf, &IniDoc)>, env: &EnvSnapshot) -> Limits {
        let mut findings = Vec::new();
        let mut ini_use = IniUse::Missing;
        if let Some((path, doc)) = ini {
            let origin = Origin::Ini { path };
            let max_txt = doc.get(SECTION, KEY_MAX_SIZE);
            let ratio_txt = doc.get(SECTION, KEY_REMAIN_RATIO);
            let fallback = "the file is ignored; environment or defaults apply".to_owned();
            let mut bad = |name, value: Option<&str>, problem: String, valid| {
                findings.push(LimitFinding {
                    origin: origin.clone(),
                    name,
                    value: value.map(str::to_owned),
                    problem,
                    valid,
                    fallback: fallback.clone(),
                })
            };
            if !doc.has_section(SECTION) {
                bad(
                    KEY_MAX_SIZE,
                    None,
                    format!("section [{SECTION}] is missing"),
                    INI_MAX_VALID,
                );
            } else {
                let max = match max_txt {
                    None => {
                        bad(KEY_MAX_SIZE, None, "key is missing".into(), INI_MAX_VALID);
                        None
                    }
                    Some(t) => check_max(t, true)
                        .map_err(|p| bad(KEY_MAX_SIZE, Some(t), p, INI_MAX_VALID))
                        .ok(),
                };
                let ratio = match ratio_txt {
                    None => {
                        bad(
                            KEY_REMAIN_RATIO,
                            None,
                            "key is missing".into(),
                            INI_RATIO_VALID,
                        );
                        None
                    }
                    Some(t) => check_ratio(t, 1)
                        .map_err(|p| bad(KEY_REMAIN_RATIO, Some(t), p, INI_RATIO_VALID))
                        .ok(),
                };
                if let (Some(max), Some(remain_ratio)) = (max, ratio) {
                    return Limits {
                        max,
                        remain_ratio,
                        max_origin: origin.clone(),
                        ratio_origin: origin,
                        ini: IniUse::Applied,
                        findings,
                    };
                }
            }
            ini_use = IniUse::Ignored;
        }
        let (max, max_origin) = match env.get_str(ASCEND_MAX_OP_CACHE_SIZE) {
            None => (MaxSize::Mb(DEFAULT_MAX_MB), Origin::Default),
            Some(t) => match check_max(&t, false) {
                Ok(m) => (
                    m,
                    Origin::Env {
                        var: ASCEND_MAX_OP_CACHE_SIZE,
                    },
                ),
                Err(problem) => {
                    findings.push(LimitFinding {
                        origin: Origin::Env {
                            var: ASCEND_MAX_OP_CACHE_SIZE,
                        },
                        name: ASCEND_MAX_OP_CACHE_SIZE,
                        value: Some(t),
                        problem,
                        valid: ENV_MAX_VALID,
                        fallback: format!("default {}", describe_max(MaxSize::Mb(DEFAULT_MAX_MB))),
                    });
                    (MaxSize::Mb(DEFAULT_MAX_MB), Origin::Default)
                }
            },
        };
        let (remain_ratio, ratio_origin) = match env.get_str(ASCEND_REMAIN_CACHE_SIZE_RATIO) {
            None => (DEFAULT_REMAIN_RATIO, Origin::Default),
            Some(t) => match check_ratio(&t, 0) {
                Ok(r) => (
                    r,
                    Origin::Env {
                        var: ASCEND_REMAIN_CACHE_SIZE_RATIO,
                    },
                ),
                Err(problem) => {
                    findings.push(LimitFinding {
                        origin: Origin::Env {
                            var: ASCEND_REMAIN_CACHE_SIZE_RATIO,
                        },
                        name: ASCEND_REMAIN_CACHE_SIZE_RATIO,
                        value: Some(t),
                        problem,
                        valid: ENV_RATIO_VALID,
                        fallback: format!("default {DEFAULT_REMAIN_RATIO} %"),
                    });
                    (DEFAULT_REMAIN_RATIO, Origin::Default)
                }
            },
        };
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
