//! The three `MemoryConfig` options as small validated types, and the way the
//! graph engine combines `static_memory_policy` with `GE_USE_STATIC_MEMORY`.
//!
//! These are the engine's own types so cann-runtime does not depend on
//! cann-config; a one-line glue maps the generated enums onto them.

use std::fmt;

/// An integer code that is not a valid value of an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{code} is not a valid `{option}`; expected one of {expected}")]
pub struct InvalidCode {
    /// The option name.
    pub option: &'static str,
    /// The code given.
    pub code: i64,
    /// The valid codes, for the message.
    pub expected: &'static str,
}

/// `static_memory_policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum StaticMemoryPolicy {
    /// 0: every execution gets memory at its exact size and gives it back.
    #[default]
    Dynamic = 0,
    /// 1: kept for old configs; behaves as [`Self::StaticExpand`].
    LegacyStatic = 1,
    /// 2: static-shape graphs of a session share one pool sized to the largest.
    StaticExpand = 2,
    /// 3: dynamic-shape graphs allocate from an expandable arena.
    DynamicExpand = 3,
    /// 4: both 2 and 3.
    BothExpand = 4,
}

impl StaticMemoryPolicy {
    /// Option name, for messages.
    pub const NAME: &'static str = "static_memory_policy";

    /// From the integer code used in configs and `GE_USE_STATIC_MEMORY`.
    pub const fn from_code(code: i64) -> Result<Self, InvalidCode> {
        Ok(match code {
            0 => Self::Dynamic,
            1 => Self::LegacyStatic,
            2 => Self::StaticExpand,
            3 => Self::DynamicExpand,
            4 => Self::BothExpand,
            _ => {
                return Err(InvalidCode {
                    option: Self::NAME,
                    code,
                    expected: "0, 1, 2, 3, 4",
                })
            }
        })
    }

    /// The integer code.
    pub const fn code(self) -> i64 {
        self as i64
    }

    /// Whether static-shape graphs share an expanding pool (1, 2, 4).
    pub const fn static_expansion(self) -> bool {
        matches!(
            self,
            Self::LegacyStatic | Self::StaticExpand | Self::BothExpand
        )
    }

    /// Whether dynamic-shape graphs use the expandable arena (3, 4).
    pub const fn dynamic_expansion(self) -> bool {
        matches!(self, Self::DynamicExpand | Self::BothExpand)
    }

    /// The policy with these two parts; never returns the legacy alias.
    pub const fn from_parts(static_expansion: bool, dynamic_expansion: bool) -> Self {
        match (static_expansion, dynamic_expansion) {
            (false, false) => Self::Dynamic,
            (true, false) => Self::StaticExpand,
            (false, true) => Self::DynamicExpand,
            (true, true) => Self::BothExpand,
        }
    }

    /// 1 becomes 2; everything else is unchanged.
    pub const fn normalized(self) -> Self {
        Self::from_parts(self.static_expansion(), self.dynamic_expansion())
    }

    /// Whether two graphs of one session may execute at the same time (not 1, 2, 4).
    pub const fn allows_concurrent_graphs(self) -> bool {
        !self.static_expansion()
    }
}

impl TryFrom<i64> for StaticMemoryPolicy {
    type Error = InvalidCode;
    fn try_from(code: i64) -> Result<Self, InvalidCode> {
        Self::from_code(code)
    }
}

/// `atomic_clean_policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum AtomicCleanPolicy {
    /// 0: memset outputs placed together and cleaned by one operation at the
    /// start of each execution.
    #[default]
    Centralized = 0,
    /// 1: each memset output cleaned just before its producer runs.
    Separate = 1,
}

impl AtomicCleanPolicy {
    /// Option name, for messages.
    pub const NAME: &'static str = "atomic_clean_policy";

    /// From the integer code.
    pub const fn from_code(code: i64) -> Result<Self, InvalidCode> {
        match code {
            0 => Ok(Self::Centralized),
            1 => Ok(Self::Separate),
            _ => Err(InvalidCode {
                option: Self::NAME,
                code,
                expected: "0, 1",
            }),
        }
    }

    /// The integer code.
    pub const fn code(self) -> i64 {
        self as i64
    }
}

impl TryFrom<i64> for AtomicCleanPolicy {
    type Error = InvalidCode;
    fn try_from(code: i64) -> Result<Self, InvalidCode> {
        Self::from_code(code)
    }
}

/// `variable_use_1g_huge_page`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum HugePagePolicy {
    /// 0: the system's default pages.
    #[default]
    Default = 0,
    /// 1: 1 GiB pages or an error.
    Require1G = 1,
    /// 2: 1 GiB pages, else 2 MiB pages, else an error.
    Prefer1GFallback2M = 2,
}

impl HugePagePolicy {
    /// Option name, for messages.
    pub const NAME: &'static str = "variable_use_1g_huge_page";

    /// From the integer code.
    pub const fn from_code(code: i64) -> Result<Self, InvalidCode> {
        match code {
            0 => Ok(Self::Default),
            1 => Ok(Self::Require1G),
            2 => Ok(Self::Prefer1GFallback2M),
            _ => Err(InvalidCode {
                option: Self::NAME,
                code,
                expected: "0, 1, 2",
            }),
        }
    }

    /// The integer code.
    pub const fn code(self) -> i64 {
        self as i64
    }
}

impl TryFrom<i64> for HugePagePolicy {
    type Error = InvalidCode;
    fn try_from(code: i64) -> Result<Self, InvalidCode> {
        Self::from_code(code)
    }
}

/// Where one part of the effective policy came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PolicySource {
    /// Nobody asked for it: off.
    Default,
    /// `static_memory_policy` asked for it.
    Option,
    /// `GE_USE_STATIC_MEMORY` asked for it.
    Env,
    /// Both asked for it.
    Both,
}

impl PolicySource {
    fn of(option: bool, env: bool) -> Self {
        match (option, env) {
            (false, false) => Self::Default,
            (true, false) => Self::Option,
            (false, true) => Self::Env,
            (true, true) => Self::Both,
        }
    }

    /// Whether the part is on.
    pub const fn is_enabled(self) -> bool {
        !matches!(self, Self::Default)
    }
}

impl fmt::Display for PolicySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PolicySource::Default => "default (off)",
            PolicySource::Option => "static_memory_policy",
            PolicySource::Env => "GE_USE_STATIC_MEMORY",
            PolicySource::Both => "static_memory_policy and GE_USE_STATIC_MEMORY",
        })
    }
}

/// Which input a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Input {
    /// `static_memory_policy`.
    Option,
    /// `GE_USE_STATIC_MEMORY`.
    Env,
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Input::Option => "static_memory_policy",
            Input::Env => "GE_USE_STATIC_MEMORY",
        })
    }
}

/// Something the user should know about the resolved policy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolutionWarning {
    /// `1` is a legacy value and behaves as `2`.
    #[error("{0} = 1 is a legacy value and is treated as 2")]
    LegacyAlias(Input),
    /// The environment variable is not one of 0..=4 and was ignored.
    #[error("GE_USE_STATIC_MEMORY = {value:?} is not one of 0, 1, 2, 3, 4 and is ignored")]
    InvalidEnv {
        /// The raw value.
        value: String,
    },
    /// Option and environment ask for different things; the engine ORs them, so
    /// the result may be a policy neither asked for.
    #[error(
        "static_memory_policy = {option} and GE_USE_STATIC_MEMORY = {env} are combined into {effective}"
    )]
    Combined {
        /// The option's code.
        option: i64,
        /// The environment's code.
        env: i64,
        /// The effective code.
        effective: i64,
    },
    /// The docs: 2 and 4 do not support graphs executing concurrently.
    #[error("policy {0} refuses concurrently executing graphs of one session")]
    NoConcurrentGraphs(i64),
    /// The docs: 3 and 4 save memory but may cost performance.
    #[error("policy {0} saves memory but may cost performance")]
    PerformanceCost(i64),
}

/// The outcome of [`resolve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The policy the engine runs (never the legacy alias).
    pub effective: StaticMemoryPolicy,
    /// Where static expansion came from.
    pub static_expansion: PolicySource,
    /// Where dynamic expansion came from.
    pub dynamic_expansion: PolicySource,
    /// What the user should know, in a stable order.
    pub warnings: Vec<ResolutionWarning>,
}

/// Parses `GE_USE_STATIC_MEMORY`: surrounding whitespace is ignored and an empty
/// value counts as unset.
pub fn parse_env(value: &str) -> Result<Option<StaticMemoryPolicy>, ResolutionWarning> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    trimmed
        .parse::<i64>()
        .ok()
        .and_then(|code| StaticMemoryPolicy::from_code(code).ok())
        .map(Some)
        .ok_or_else(|| ResolutionWarning::InvalidEnv {
            value: value.to_owned(),
        })
}

/// Combines the option with `GE_USE_STATIC_MEMORY`: static expansion is on if
/// either asks for 1, 2 or 4, dynamic expansion if either asks for 3 or 4.
pub fn resolve(option: Option<StaticMemoryPolicy>, env: Option<&str>) -> Resolution {
    let mut warnings = Vec::new();
    let env_policy = match env.map(parse_env) {
        Some(Ok(p)) => p,
        Some(Err(w)) => {
            warnings.push(w);
            None
        }
        None => None,
    };
    for (input, p) in [(Input::Option, option), (Input::Env, env_policy)] {
        if p == Some(StaticMemoryPolicy::LegacyStatic) {
            warnings.push(ResolutionWarning::LegacyAlias(input));
        }
    }
    let asks = |p: Option<StaticMemoryPolicy>, f: fn(StaticMemoryPolicy) -> bool| p.is_some_and(f);
    let static_expansion = PolicySource::of(
        asks(option, StaticMemoryPolicy::static_expansion),
        asks(env_policy, StaticMemoryPolicy::static_expansion),
    );
    let dynamic_expansion = PolicySource::of(
        asks(option, StaticMemoryPolicy::dynamic_expansion),
        asks(env_policy, StaticMemoryPolicy::dynamic_expansion),
    );
    let effective = StaticMemoryPolicy::from_parts(
        static_expansion.is_enabled(),
        dynamic_expansion.is_enabled(),
    );
    if let (Some(o), Some(e)) = (option, env_policy) {
        if o.normalized() != e.normalized() {
            warnings.push(ResolutionWarning::Combined {
                option: o.code(),
                env: e.code(),
                effective: effective.code(),
            });
        }
    }
    if effective.static_expansion() {
        warnings.push(ResolutionWarning::NoConcurrentGraphs(effective.code()));
    }
    if effective.dynamic_expansion() {
        warnings.push(ResolutionWarning::PerformanceCost(effective.code()));
    }
    Resolution {
        effective,
        static_expansion,
        dynamic_expansion,
        warnings,
    }
}
