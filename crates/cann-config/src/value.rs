//! Values as the validators and emitters see them, and the visitor over a config.

use std::fmt;
use std::str::FromStr;

use crate::meta::OptionMeta;

/// A set option's value, borrowed from the typed config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueRef<'a> {
    Bool(bool),
    Int(i64),
    Float(crate::meta::Float),
    Str(&'a str),
    Cores(CoreCounts),
}

impl fmt::Display for ValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueRef::Bool(b) => write!(f, "{b}"),
            ValueRef::Int(i) => write!(f, "{i}"),
            ValueRef::Float(x) => write!(f, "{x}"),
            ValueRef::Str(s) => write!(f, "{s:?}"),
            ValueRef::Cores(c) => write!(f, "\"{c}\""),
        }
    }
}

impl From<crate::meta::Lit> for ValueRef<'static> {
    fn from(l: crate::meta::Lit) -> Self {
        match l {
            crate::meta::Lit::Bool(b) => ValueRef::Bool(b),
            crate::meta::Lit::Int(i) => ValueRef::Int(i),
            crate::meta::Lit::Float(x) => ValueRef::Float(x),
            crate::meta::Lit::Str(s) => ValueRef::Str(s),
        }
    }
}

/// `"cube|vector"`: the most Cube and Vector cores operator compilation may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CoreCounts {
    pub cube: u32,
    pub vector: u32,
}

impl fmt::Display for CoreCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}|{}", self.cube, self.vector)
    }
}

/// Text that is not a `"cube|vector"` pair.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message(crate::meta::Lang::En))]
pub struct CoreCountsError {
    pub text: String,
    pub reason: CoreCountsProblem,
}

/// Why a core pair was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoreCountsProblem {
    /// Not two parts separated by `|`.
    Shape,
    /// A part that is not a whole number.
    NotWhole,
    /// A part beyond `u32`.
    TooLarge,
    /// A part that is 0.
    Zero,
}

impl CoreCountsError {
    pub fn message(&self, lang: crate::meta::Lang) -> String {
        use cann_i18n::catalog::config as msg;
        let reason = match self.reason {
            CoreCountsProblem::Shape => msg::core_pair_shape(lang),
            CoreCountsProblem::NotWhole => msg::core_pair_whole(lang),
            CoreCountsProblem::TooLarge => msg::core_pair_large(lang),
            CoreCountsProblem::Zero => msg::core_pair_zero(lang),
        };
        msg::not_core_pair(lang, &self.text, &reason)
    }
}

impl FromStr for CoreCounts {
    type Err = CoreCountsError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason| CoreCountsError {
            text: text.to_string(),
            reason,
        };
        let (cube, vector) = text
            .split_once('|')
            .ok_or_else(|| err(CoreCountsProblem::Shape))?;
        let parse = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err(CoreCountsProblem::NotWhole));
            }
            s.parse::<u32>()
                .map_err(|_| err(CoreCountsProblem::TooLarge))
        };
        let c = CoreCounts {
            cube: parse(cube)?,
            vector: parse(vector)?,
        };
        if c.cube == 0 || c.vector == 0 {
            return Err(err(CoreCountsProblem::Zero));
        }
        Ok(c)
    }
}

impl serde::Serialize for CoreCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for CoreCounts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Receives every set option of a config, in spec order, with nested classes bracketed.
pub trait Visitor {
    fn value(&mut self, option: &'static OptionMeta, value: ValueRef<'_>);
    fn enter(&mut self, _option: &'static OptionMeta) {}
    fn leave(&mut self, _option: &'static OptionMeta) {}
}

/// Implemented by every generated config class.
pub trait Visit {
    fn visit<V: Visitor + ?Sized>(&self, v: &mut V);
}

/// Implemented by every generated enum of an enumerated option.
pub trait SpecEnum: Copy + Sized + 'static {
    /// The option's row in `OPTIONS`, held as a constant by the enum.
    const OPTION: &'static OptionMeta;
    /// The option this enum belongs to: [`SpecEnum::OPTION`].
    fn option() -> &'static OptionMeta {
        Self::OPTION
    }
    /// This value's row in its option's table: the enum points at it, nothing searches.
    fn meta(self) -> &'static crate::meta::ValueMeta;
    /// The value as the row writes it.
    fn value_ref(self) -> ValueRef<'static> {
        self.meta().value.into()
    }
    /// The value for an integer code, and whether the code is a legacy alias.
    fn from_int(code: i64) -> Option<(Self, bool)>;
    /// The value for a string code, and whether the code is a legacy alias.
    fn from_str_code(code: &str) -> Option<(Self, bool)>;
}
