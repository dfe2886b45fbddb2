//! Values as the validators and emitters see them, and the visitor over a config.

use std::fmt;
use std::str::FromStr;

use crate::meta::OptionMeta;

/// A set option's value, borrowed from the typed config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueRef<'a> {
    Bool(bool),
    Int(i64),
    Str(&'a str),
    Cores(CoreCounts),
}

impl fmt::Display for ValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueRef::Bool(b) => write!(f, "{b}"),
            ValueRef::Int(i) => write!(f, "{i}"),
            ValueRef::Str(s) => write!(f, "{s:?}"),
            ValueRef::Cores(c) => write!(f, "\"{c}\""),
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

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a core pair: {reason}")]
pub struct CoreCountsError {
    pub text: String,
    pub reason: &'static str,
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
            .ok_or_else(|| err("expected two integers separated by `|`, e.g. \"24|48\""))?;
        let parse = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err("both counts must be whole numbers"));
            }
            s.parse::<u32>().map_err(|_| err("a count is too large"))
        };
        let c = CoreCounts {
            cube: parse(cube)?,
            vector: parse(vector)?,
        };
        if c.cube == 0 || c.vector == 0 {
            return Err(err("both counts must be greater than 0"));
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
    /// The option this enum belongs to.
    fn option() -> &'static OptionMeta;
    fn value_ref(self) -> ValueRef<'static>;
    /// The value for an integer code, and whether the code is a legacy alias.
    fn from_int(code: i64) -> Option<(Self, bool)>;
    /// The value for a string code, and whether the code is a legacy alias.
    fn from_str_code(code: &str) -> Option<(Self, bool)>;
}
