//! The graph engine's memory policies over the spec's own types.
//!
//! `MemoryConfig`'s options are cann-config's generated enums, used as they are. What the
//! engine does with each value is the value's behaviour, a spec fact ([`MemoryExpansion`],
//! [`AtomicClean`], [`HugePages`]); the engine matches on behaviours, never on value names,
//! so a value the spec adds with a known behaviour needs no change here.
//! `GE_USE_STATIC_MEMORY` takes `static_memory_policy`'s values, so it is parsed into the
//! same enum, and the warnings about the effective policy are the spec's rules, in the
//! caller's language.

use std::fmt;

use cann_config::meta::{Lang, OptionMeta, RuleMeta};
use cann_config::{Release, SpecEnum};
use cann_i18n::catalog::mem as msg;

pub use cann_config::behaviour::{AtomicClean, HugePages, MemoryExpansion};
pub use cann_config::{AtomicCleanPolicy, StaticMemoryPolicy, VariableUse1gHugePage};

/// Which expansions a policy turns on.
pub trait Expansion: Copy {
    /// Whether static-shape graphs share an expanding pool.
    fn static_expansion(self) -> bool;
    /// Whether dynamic-shape graphs use the expandable arena.
    fn dynamic_expansion(self) -> bool;
    /// Whether two graphs of one session may execute at the same time.
    fn allows_concurrent_graphs(self) -> bool {
        !self.static_expansion()
    }
}

impl Expansion for StaticMemoryPolicy {
    fn static_expansion(self) -> bool {
        self.behaviour().static_expansion()
    }

    fn dynamic_expansion(self) -> bool {
        self.behaviour().dynamic_expansion()
    }
}

/// The policy with these two expansions: the first value of the spec that does them.
pub fn from_parts(static_expansion: bool, dynamic_expansion: bool) -> StaticMemoryPolicy {
    StaticMemoryPolicy::from_behaviour(MemoryExpansion::from_parts(
        static_expansion,
        dynamic_expansion,
    ))
}

/// The environment variable that takes `static_memory_policy`'s values, as the spec names it.
fn env_option() -> Option<&'static OptionMeta> {
    let option = StaticMemoryPolicy::option().name;
    cann_config::OPTIONS
        .iter()
        .find(|o| o.values_of == Some(option))
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

impl PolicySource {
    /// Where the part came from, in `lang`: the option's and the variable's names as the
    /// spec gives them, the rest from the catalog.
    pub fn describe(self, lang: Lang) -> String {
        let option = StaticMemoryPolicy::option().name;
        let env = env_option().map_or(option, |o| o.name);
        match self {
            PolicySource::Default => msg::policy_source_default(lang),
            PolicySource::Option => option.to_owned(),
            PolicySource::Env => env.to_owned(),
            PolicySource::Both => msg::policy_source_both(lang, option, env),
        }
    }
}

impl fmt::Display for PolicySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Lang::En))
    }
}

/// Something the user should know about the resolved policy. Its sentence comes from the
/// catalog ([`ResolutionWarning::message`]), with the option's and the variable's names as
/// the spec gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResolutionWarning {
    /// The environment variable used a legacy spelling (`1` for `2`).
    LegacyEnv {
        /// The raw value.
        value: String,
        /// The value it stands for.
        canonical: i64,
    },
    /// The environment variable is not one of the spec's values and was ignored.
    InvalidEnv {
        /// The raw value.
        value: String,
        /// The values the spec lists, aliases included.
        expected: String,
    },
    /// Option and environment ask for different things; the engine ORs them, so
    /// the result may be a policy neither asked for.
    Combined {
        /// The option's code.
        option: i64,
        /// The environment's code.
        env: i64,
        /// The effective code.
        effective: i64,
    },
    /// A rule of the spec that holds for the effective policy.
    Rule(&'static RuleMeta),
}

impl ResolutionWarning {
    /// The warning in `lang`; rules speak the spec's own texts.
    pub fn message(&self, lang: Lang) -> String {
        let option = StaticMemoryPolicy::option().name;
        let env = env_option().map_or(option, |o| o.name);
        match self {
            ResolutionWarning::LegacyEnv { value, canonical } => {
                msg::policy_legacy_env(lang, env, value, *canonical)
            }
            ResolutionWarning::InvalidEnv { value, expected } => {
                msg::policy_invalid_env(lang, env, &format!("{value:?}"), expected)
            }
            ResolutionWarning::Combined {
                option: o,
                env: e,
                effective,
            } => msg::policy_combined(lang, option, *o, env, *e, *effective),
            ResolutionWarning::Rule(r) => r.message.get(lang).to_string(),
        }
    }
}

impl fmt::Display for ResolutionWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ResolutionWarning {}

/// The outcome of [`resolve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The policy the engine runs.
    pub effective: StaticMemoryPolicy,
    /// Where static expansion came from.
    pub static_expansion: PolicySource,
    /// Where dynamic expansion came from.
    pub dynamic_expansion: PolicySource,
    /// What the user should know, in a stable order.
    pub warnings: Vec<ResolutionWarning>,
}

/// Parses `GE_USE_STATIC_MEMORY` with the spec's type: surrounding whitespace is ignored and
/// an empty value counts as unset. `Ok((value, true))` for a legacy spelling.
pub fn parse_env(value: &str) -> Result<Option<(StaticMemoryPolicy, bool)>, ResolutionWarning> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    trimmed
        .parse::<i64>()
        .ok()
        .and_then(StaticMemoryPolicy::from_int)
        .map(Some)
        .ok_or_else(|| ResolutionWarning::InvalidEnv {
            value: value.to_owned(),
            expected: env_values(),
        })
}

/// The values `GE_USE_STATIC_MEMORY` takes, as the spec lists them.
fn env_values() -> String {
    let o = env_option().unwrap_or(StaticMemoryPolicy::option());
    let mut codes: Vec<String> = o
        .values
        .iter()
        .flat_map(|v| std::iter::once(v.value).chain(v.aliases.iter().copied()))
        .map(|l| l.to_string())
        .collect();
    codes.sort();
    codes.join(", ")
}

/// Combines the option with `GE_USE_STATIC_MEMORY`: static expansion is on if either asks
/// for it, dynamic expansion likewise.
pub fn resolve(option: Option<StaticMemoryPolicy>, env: Option<&str>) -> Resolution {
    let mut warnings = Vec::new();
    let env_policy = match env.map(parse_env) {
        Some(Ok(Some((p, legacy)))) => {
            if legacy {
                warnings.push(ResolutionWarning::LegacyEnv {
                    value: env.unwrap_or_default().trim().to_owned(),
                    canonical: p.code(),
                });
            }
            Some(p)
        }
        Some(Ok(None)) | None => None,
        Some(Err(w)) => {
            warnings.push(w);
            None
        }
    };
    let static_expansion = PolicySource::of(
        option.is_some_and(Expansion::static_expansion),
        env_policy.is_some_and(Expansion::static_expansion),
    );
    let dynamic_expansion = PolicySource::of(
        option.is_some_and(Expansion::dynamic_expansion),
        env_policy.is_some_and(Expansion::dynamic_expansion),
    );
    let effective = from_parts(
        static_expansion.is_enabled(),
        dynamic_expansion.is_enabled(),
    );
    if let (Some(o), Some(e)) = (option, env_policy) {
        if o != e {
            warnings.push(ResolutionWarning::Combined {
                option: o.code(),
                env: e.code(),
                effective: effective.code(),
            });
        }
    }
    warnings.extend(
        rules_for(effective)
            .into_iter()
            .map(ResolutionWarning::Rule),
    );
    Resolution {
        effective,
        static_expansion,
        dynamic_expansion,
        warnings,
    }
}

/// The spec's rules that hold when `policy` is the configured `static_memory_policy`, as the
/// validator applies them to a config that sets only it (newest release).
pub fn rules_for(policy: StaticMemoryPolicy) -> Vec<&'static RuleMeta> {
    let cfg = cann_config::Config {
        npu_run_config: Some(cann_config::NpuRunConfig {
            memory_config: Some(cann_config::MemoryConfig {
                static_memory_policy: Some(policy),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let mut report = cann_config::Report::new(Lang::En);
    cann_config::check_rules(&cfg, Release::LATEST, &mut report);
    report
        .diagnostics
        .iter()
        .filter_map(|d| d.rule)
        .filter_map(|id| cann_config::RULES.iter().find(|r| r.id == id))
        .collect()
}
